"""docs/cli.md matches the CLI, and every command documents itself."""

from __future__ import annotations

import click

from rubi.cli.main import cli

from helpers import load_script


def test_every_command_has_a_help_text() -> None:
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert (command.help or "").strip(), f"rubi {name} has no help text"


def test_cli_reference_is_up_to_date() -> None:
    module = load_script("scripts/cli_docs.py")
    assert module.main(["--check"]) == 0, "run: python scripts/cli_docs.py"
