"""``rubi import``: Claude Code's auto memory into typed notes of ``.rubi/``."""

from __future__ import annotations

from pathlib import Path

import click

from rubi import app
from rubi.cli.common import echo, handle_errors, print_json, vault_option

__all__ = ["import_command"]


@click.command("import")
@click.option(
    "--memory-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Claude Code's memory folder, when not the default "
    "(~/.claude/projects/<project>/memory, or under $CLAUDE_CONFIG_DIR).",
)
@click.option("--dry-run", is_flag=True, help="Say what would be imported; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@vault_option
@handle_errors
def import_command(
    memory_dir: Path | None, dry_run: bool, as_json: bool, vault: Path | None
) -> None:
    """Import Claude Code's auto memory of this project (MEMORY.md and its topic
    files) as typed notes in .rubi/notes/, tagged claude-memory.

    The originals are only read. Secrets in a body are redacted; a file whose title
    holds one is skipped. A second run imports nothing new; a file changed since its
    import is merged into its note.
    """
    from rubi.app.automemory import import_auto_memory

    report = import_auto_memory(app.locate(vault), folder=memory_dir, dry_run=dry_run)
    if as_json:
        print_json(
            {
                "folder": str(report.folder) if report.folder else None,
                "dry_run": dry_run,
                "imported": [{"file": f, "id": i} for f, i in report.imported],
                "updated": [{"file": f, "id": i} for f, i in report.updated],
                "unchanged": report.unchanged,
                "skipped": [{"file": f, "reason": r} for f, r in report.skipped],
            }
        )
        return
    if report.folder is None:
        echo("No Claude Code auto memory for this project: nothing to import.")
        return
    verb = "would import" if dry_run else "imported"
    for name, note in report.imported:
        echo(f"{verb} {name}" + (f" -> {note}" if note else ""))
    for name, note in report.updated:
        echo(f"{'would update' if dry_run else 'updated'} {name}" + (f" -> {note}" if note else ""))
    for name, reason in report.skipped:
        echo(f"skipped {name}: {reason}")
    done = len(report.imported) + len(report.updated)
    echo(
        f"{report.folder}: {done} file{'s' if done != 1 else ''} {verb}, "
        f"{len(report.unchanged)} already imported, {len(report.skipped)} skipped; "
        "the originals are untouched."
    )
