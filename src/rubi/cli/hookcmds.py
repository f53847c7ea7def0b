"""``rubi hook EVENT``: the Claude Code hook entry (the console script dispatches it
before loading the CLI; this command documents it and serves ``CliRunner``)."""

from __future__ import annotations

import sys

import click

from rubi.claude.hookevents import HOOK_EVENTS

__all__ = ["hook"]


@click.command()
@click.argument("event", metavar="EVENT", type=click.Choice(HOOK_EVENTS, case_sensitive=False))
def hook(event: str) -> None:
    """Answer an agent CLI's hook: JSON in on stdin, JSON out on stdout.

    Claude Code's events, and Gemini CLI's and Codex CLI's session start and prompt
    (as UserPromptSubmit). Wired by the plugins' hook files or `rubi install`. Fails open: any
    internal error is logged to hooks.log in the vault's cache folder and the hook
    prints nothing; a payload that is not JSON is one line on stderr and in hooks.log.
    """
    from rubi.claude.hooks.entry import main

    main([event], sys.stdin, sys.stdout)
