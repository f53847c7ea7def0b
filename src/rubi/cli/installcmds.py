"""``rubi install`` / ``rubi uninstall``: Claude Code wiring without the plugin, or the
Gemini CLI's and the Codex CLI's (``--harness``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from rubi.claude.harness import HARNESSES
from rubi.cli.common import echo, handle_errors

__all__ = ["bundle", "install", "uninstall"]


F = TypeVar("F", bound=Callable[..., Any])


def _harness(verb: str) -> Callable[[F], F]:
    return click.option(
        "--harness",
        type=click.Choice(HARNESSES),
        default="claude",
        show_default=True,
        help=f"The agent CLI to {verb}: Claude Code, Gemini CLI or Codex CLI.",
    )


@click.command()
@click.option(
    "--user",
    is_flag=True,
    help="Wire rubi for every project (the user's settings; Claude Code's in "
    "$CLAUDE_CONFIG_DIR when it is set).",
)
@_harness("wire")
@click.option(
    "--compact-window",
    type=click.IntRange(0, 1_000_000),
    default=150_000,
    show_default=True,
    help="Claude Code's autoCompactWindow in tokens; 0 leaves it (Claude Code only).",
)
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=Path("."),
    help="Project folder (default: here).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Change nothing: say whether rubi's Claude Code hooks are there, call a "
    "rubi that exists and run without rubi's plugin beside them (exit 1 when not).",
)
@handle_errors
def install(user: bool, harness: str, compact_window: int, project: Path, check: bool) -> None:
    """Add rubi's hooks and MCP server to Claude Code's settings (idempotent; a second
    run points rubi's hooks at the rubi that runs it, in place); with --harness gemini
    or codex, the MCP server and the session-start and prompt-recall hooks to that
    CLI's configuration."""
    if check:
        if harness != "claude":
            raise click.UsageError("--check reads Claude Code's settings only (no --harness)")
        from rubi.claude.installcheck import check_install

        ok, lines = check_install(project.resolve(), user=user)
        for line in lines:
            echo(line)
        if not ok:
            raise SystemExit(1)
        return
    if harness != "claude":
        from rubi.claude.harness import install_harness

        report = install_harness(project.resolve(), harness, user=user)
    else:
        from rubi.claude.install import install as run

        report = run(project.resolve(), user=user, compact_window=compact_window or None)
    for line in report.changes or ["nothing to change: rubi is already installed"]:
        echo(line)
    for line in report.notes:
        echo(f"Note: {line}")


@click.command()
@click.option("--user", is_flag=True, help="Remove the user-wide wiring.")
@_harness("unwire")
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=Path("."),
    help="Project folder (default: here).",
)
@handle_errors
def uninstall(user: bool, harness: str, project: Path) -> None:
    """Remove exactly what `rubi install` added (for Claude Code, restoring the
    compaction window too); every file comes back as it was."""
    if harness != "claude":
        from rubi.claude.harness import uninstall_harness

        report = uninstall_harness(project.resolve(), harness, user=user)
    else:
        from rubi.claude.install import uninstall as run

        report = run(project.resolve(), user=user)
    for line in report.changes or ["nothing to remove"]:
        echo(line)


@click.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=Path("rubi.mcpb"),
    show_default=True,
    help="The bundle file to write.",
)
@handle_errors
def bundle(out: Path) -> None:
    """Build a Claude Desktop extension (.mcpb) that carries this rubi and runs it with
    uv on any machine, for a project folder chosen when it is installed (double-click
    the file, or Settings > Extensions)."""
    from rubi.claude.bundle import build_bundle

    echo(f"Wrote {build_bundle(out, tools=server_tools())}")


def server_tools() -> list[tuple[str, str]]:
    """The MCP server's tools as (name, description), in the order it lists them."""
    import anyio

    from rubi.core.paths import VaultPaths
    from rubi.mcp.server import build_server

    nowhere = Path("unused")  # the tools are only described, never called
    server = build_server(VaultPaths(root=nowhere, index_dir=nowhere))
    return [(t.name, t.description or "") for t in anyio.run(server.list_tools)]
