"""``rubi serve``: the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from rubi.cli.common import handle_errors, vault_option
from rubi.cli.serverun import DEFAULTS, ServeOptions, run_serve

__all__ = ["serve"]


@click.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP at /mcp instead of stdio.")
@click.option(
    "--host",
    default=DEFAULTS.host,
    show_default=True,
    help="HTTP address; anything but loopback needs --allow-remote.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=DEFAULTS.port,
    show_default=True,
    help="HTTP port (with --http).",
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
