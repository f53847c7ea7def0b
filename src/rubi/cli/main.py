"""The ``rubi`` command: a click group whose commands live in small modules.

Commands are registered lazily (``_COMMANDS``) so ``rubi hook ...`` and ``rubi search``
import only what they use.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from typing import Any

import click

from rubi import __version__
from rubi.cli.interrupted import interrupted_line, stop_for_interrupt

__all__ = ["ONE_COMMAND", "CommandLoadError", "cli", "main"]

_COMMANDS: dict[str, str] = {
    # name: "module:attribute" under rubi.cli
    "init": "vaultcmds:init",
    "index": "vaultcmds:index",
    "reindex": "vaultcmds:reindex",
    "status": "vaultcmds:status",
    "doctor": "vaultcmds:doctor",
    "search": "searchcmds:search",
    "read": "searchcmds:read",
    "links": "linkcmds:links",
    "backlinks": "linkcmds:backlinks",
    "timeline": "linkcmds:timeline",
    "map": "mapcmds:map_command",
    "note": "notecmds:note",
    "handoff": "handoffcmds:handoff",
    "serve": "servecmds:serve",
    "hook": "hookcmds:hook",
    "install": "installcmds:install",
    "bundle": "installcmds:bundle",
    "watch": "watchcmds:watch",
    "uninstall": "installcmds:uninstall",
    "xray": "xray:xray",
    "audit": "xray:audit",
    "cost": "xray:cost",
    "import": "importcmds:import_command",
    "view": "viewcmds:view",
}


class CommandLoadError(click.ClickException):
    """A command's module failed to import, or does not define the command: a broken
    install or a bug, shown as such (exit 1) rather than as an unknown command."""


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name``; None for a name rubi does not have (click
        then says ``No such command``, exit 2).

        Raises:
            CommandLoadError: the command's module raised while it was imported (its
                traceback is printed to stderr first), or lacks the command.
        """
        if cmd_name not in _COMMANDS:
            return super().get_command(ctx, cmd_name)
        module_name, attr = _COMMANDS[cmd_name].split(":")
        qualified = f"rubi.cli.{module_name}"
        try:
            module = importlib.import_module(qualified)
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            raise CommandLoadError(
                f"the '{cmd_name}' command could not be loaded ({qualified}): "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        command = getattr(module, attr, None)
        if not isinstance(command, click.Command):
            raise CommandLoadError(f"{qualified} defines no command '{attr}' for '{cmd_name}'")
        return command

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """Parse the group's own options (``--help`` and ``--version`` print there):
        a reader gone or Ctrl-C meanwhile stops as during the command (:meth:`invoke`)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            from rubi.cli.closedoutput import stop_for_closed_output

            stop_for_closed_output()
        except KeyboardInterrupt:
            stop_for_interrupt()

    def invoke(self, ctx: click.Context) -> object:
        """Run the command. When the reader of its output went away
                (``rubi search … | head -1``), stop quietly as a Unix tool does
                (:func:`rubi.cli.closedoutput.stop_for_closed_output`); on Ctrl-C, with one
                line and status 130 (:func:`rubi.cli.interrupted.stop_for_interrupt`), where
                click would end with ``Aborted!`` and status 1 (an index run's line also says
        that nothing is lost: :func:`rubi.cli.interrupted.interrupted_line`)."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            from rubi.cli.closedoutput import stop_for_closed_output

            stop_for_closed_output()
        except KeyboardInterrupt:
            stop_for_interrupt(interrupted_line(ctx.invoked_subcommand))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rubi")
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="Log rubi's debug detail to stderr (-vv: the libraries' too).",
)
def cli(verbose: int) -> None:
    """rubi: project memory for AI coding agents.

    A markdown vault (.rubi/, or any Obsidian vault with --vault) and the
    project's code, searched by BM25F, exact names, personalized PageRank over
    wikilinks and imports and (the semantic extra) a static dense model, fused by
    reciprocal rank (RRF). Start in a project with `rubi init`, then `rubi search
    "question"`; `rubi install` connects Claude Code.

    Exit status: 0 done, 1 an error (one line on stderr), 2 a usage error, 130
    stopped by Ctrl-C, 141 (SIGPIPE) the output's reader left (| head).
    """
    set_up_logging(verbose)


def set_up_logging(verbose: int) -> None:
    """Log warnings to stderr, one plain line each; with ``verbose`` 1 (``-v``) rubi's
    own debug lines too (the loggers under ``rubi``: the vault and index a command
    uses, whether the engine answered, a search's lists and timings), with 2 or more
    (``-vv``) every library's as well (file locks, the index's storage):
    :func:`rubi.core.lazylog.log_to_stderr`."""
    from rubi.core.lazylog import log_to_stderr

    log_to_stderr(verbose)


ONE_COMMAND = "one command"
"""The context object of a console-script run (:func:`main`): the process runs one
command and exits, so a command may set it up for that (a ``rubi search`` that answers
itself reads only its candidates' vectors, :func:`rubi.app.searching.one_search`)."""


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="rubi", obj=ONE_COMMAND)
