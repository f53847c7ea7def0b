"""``rubi install`` / ``rubi uninstall``: Claude Code wiring without the plugin."""

from __future__ import annotations

from pathlib import Path

import click

from rubi.cli.common import handle_errors

__all__ = ["install", "uninstall"]


@click.command()
@click.option("--user", is_flag=True, help="Wire rubi for every project (user settings).")
@click.option(
    "--compact-window",
    type=click.IntRange(0, 1_000_000),
    default=150_000,
    show_default=True,
    help="Claude Code's autoCompactWindow in tokens; 0 leaves it.",
)
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=Path("."),
    help="Project folder (default: here).",
)
@handle_errors
def install(user: bool, compact_window: int, project: Path) -> None:
    """Add rubi's hooks and MCP server to Claude Code's settings (idempotent)."""
    from rubi.claude.install import install as run

    report = run(project.resolve(), user=user, compact_window=compact_window or None)
    for line in report.changes or ["nothing to change: rubi is already installed"]:
        click.echo(line)


@click.command()
@click.option("--user", is_flag=True, help="Remove the user-wide wiring.")
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=Path("."),
    help="Project folder (default: here).",
)
@handle_errors
def uninstall(user: bool, project: Path) -> None:
    """Remove exactly what `rubi install` added and restore the compaction window."""
    from rubi.claude.install import uninstall as run

    for line in run(project.resolve(), user=user).changes or ["nothing to remove"]:
        click.echo(line)
