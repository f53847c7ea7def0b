"""``rubi map``: the level-0 map or a module page, and curated summaries."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rubi import app
from rubi.cli.common import echo, handle_errors, vault_option

__all__ = ["map_command"]


@click.command("map")
@click.argument("module", required=False)
@click.option(
    "--write-summary",
    "summary",
    metavar="TEXT",
    help="Store TEXT as the curated summary of the map (or of MODULE's page); "
    "'-' reads it from standard input. Regeneration keeps it.",
)
@vault_option
@handle_errors
def map_command(module: str | None, summary: str | None, vault: Path | None) -> None:
    """Print the project's code map, or MODULE's page (by name or folder)."""
    paths = app.locate(vault)
    if summary is not None:
        text = sys.stdin.read() if summary == "-" else summary
        target = "map" if module is None else f"module:{module}"
        stored = app.write_summary(paths, target, text)
        echo(f"Summary stored in {stored.path}.")
        if stored.redacted:
            echo(app.describe_redacted(stored.redacted, sentence=True))
        return
    echo(app.map_text(paths, module).rstrip("\n"))
