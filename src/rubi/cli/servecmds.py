"""``rubi serve``: the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from rubi.cli.common import echo, handle_errors, vault_option
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

__all__ = ["serve"]


@click.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="HTTP address; anything but loopback needs --allow-remote.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Allow a non-loopback --host (plain HTTP: put a TLS proxy in front).",
)
@click.option(
    "--no-token",
    is_flag=True,
    help=(
        "Serve loopback --http without a bearer token: every local user and program can"
        " then use the server."
    ),
)
@click.option(
    "--show-token",
    is_flag=True,
    help="Print the bearer token --http requires (made if missing) and exit.",
)
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="Project folder: its .rubi/ is looked for there and above (default: here).",
)
@vault_option
@handle_errors
def serve(
    http: bool,
    host: str,
    port: int,
    allow_remote: bool,
    no_token: bool,
    show_token: bool,
    project: Path | None,
    vault: Path | None,
) -> None:
    """Run the MCP server for this project (stdio for Claude Code), or for any vault
    with --vault.

    Over --http every request must send "Authorization: Bearer TOKEN": TOKEN is
    RUBI_HTTP_TOKEN when set, else the one kept in http-token in the user's state
    folder (mode 0600), which --show-token prints.
    """
    if show_token:
        from rubi.mcp.http_token import resolve_token

        echo(resolve_token()[0])
        return
    from rubi.cli.servewatch import in_background
    from rubi.cli.terminated import Terminated, end_by_signal, stopped_by_signals
    from rubi.engine.hooktool import hook_answerer
    from rubi.engine.server import running
    from rubi.mcp.server import serve as run
    from rubi.mcp.startup import STARTED, UNASKED

    if vault is not None:
        if project is not None:
            raise click.UsageError("give --project or --vault, not both")
        if not vault.is_dir():
            raise RubiError(f"{vault}: no such folder; pass an existing vault folder")
    logging.getLogger().setLevel(logging.WARNING)  # logs go to stderr; stdout is protocol
    located = _vault(project, vault)
    # The engine answers other processes' hooks and commands for this project
    # (docs/engine.md); the background watch keeps the index current from file events,
    # so no answer waits for a scan. Over stdio the index is caught up once the first
    # answers are out (if anything changed) and the watcher starts at the server's
    # first idle spell; the engine loads only when a request needs it (refused until
    # then: its client answers cold at once); the server answers its own session's
    # hooks itself. Over HTTP both begin at once.
    first_answers = None if http else STARTED
    try:
        # SIGTERM and SIGHUP (a process group killed, a terminal closed) unwind the
        # blocks below as Ctrl-C does: the engine's socket is removed, its lock freed
        with (
            stopped_by_signals(),
            running(located, first_answers, on_demand=not http),
            in_background(located, first_answers, None if http else UNASKED),
        ):
            run(
                project,
                vault=vault,
                http=http,
                host=host,
                port=port,
                allow_remote=allow_remote,
                no_token=no_token,
                # the plugin's mcp_tool hooks, answered here (docs/engine.md)
                hook=hook_answerer(located.root if located is not None else None),
            )
    except Terminated as stop:
        end_by_signal(stop.signum)


def _vault(project: Path | None, vault: Path | None) -> VaultPaths | None:
    """The project vault ``rubi.mcp.server.serve`` opens, or None (it then serves the
    personal vault, or reports why)."""
    from rubi import app

    try:
        return app.locate(vault) if vault is not None else app.locate(None, cwd=project)
    except RubiError:
        return None
