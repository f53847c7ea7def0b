"""``rubi serve``: the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from rubi.cli.common import handle_errors, vault_option
from rubi.cli.serverun import DEFAULTS, HTTP_HOST, HTTP_PORT, ServeOptions, run_serve

__all__ = ["leave_when_done", "serve"]


@click.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option(
    "--host",
    default=DEFAULTS.host,
    help=f"HTTP address (default {HTTP_HOST}); anything but loopback needs --allow-remote.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=DEFAULTS.port,
    help=f"HTTP port, with --http (default {HTTP_PORT}).",
)
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
    default=DEFAULTS.project,
    help="Project folder: its .rubi/ is looked for there and above (default: here).",
)
@vault_option
@handle_errors
def serve(**options: Any) -> None:
    """Run the MCP server for this project (stdio for Claude Code), or for any vault
    with --vault.

    Over --http every request must send "Authorization: Bearer TOKEN": TOKEN is
    RUBI_HTTP_TOKEN when set, else the one kept in http-token in the user's state
    folder (mode 0600), which --show-token prints.
    """
    run_serve(ServeOptions(**options))
    leave_when_done()


def leave_when_done() -> None:
    """End a server that stopped (its client closed stdin) as the bare ``rubi serve``
    ends (:func:`rubi.cli.servebare.serve_bare`): without the interpreter's teardown
    (:func:`rubi.core.quickexit.leave`), which freed the search stack object by object
    and met the watcher's thread still in its loop (0.2-0.9 s after EOF). Its engine,
    watcher and locks are given up by then (:func:`run_serve`'s blocks have ended), a
    write under way has finished, and the ``atexit`` functions run. Only when the
    standard streams are the process's own (not a test's ``CliRunner``)."""
    import sys

    if sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__:
        from rubi.core.quickexit import leave

        leave(0)
