"""``rubi watch``: keep the index current while files change."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import click

from rubi import app
from rubi.cli.common import handle_errors, vault_option
from rubi.watch import DEBOUNCE_MS

__all__ = ["watch"]


@click.command()
@click.option("--once", is_flag=True, help="Apply pending changes and exit (for scripts).")
@click.option(
    "--debounce-ms",
    type=click.IntRange(50, 60_000),
    default=DEBOUNCE_MS,
    show_default=True,
    help="Quiet time that closes a batch of changes.",
)
@vault_option
@handle_errors
def watch(once: bool, debounce_ms: int, vault: Path | None) -> None:
    """Watch the vault (and the project's code) and keep the index current.

    Stops cleanly on Ctrl-C and SIGTERM. Run it in a terminal multiplexer or as a
    systemd user unit (see docs/watch.md).
    """
    from rubi.watch import Batch
    from rubi.watch import watch as run

    paths = app.locate(vault)

    def report(batch: Batch, result: app.IndexReport) -> None:
        stamp = time.strftime("%H:%M:%S")
        what = f"{batch.events} changes" if batch.events else "catch-up"
        click.echo(
            f"{stamp} {what}: {result.added} added, {result.updated} updated, "
            f"{result.deleted} deleted notes"
            + (f"; code {result.code_changed} changed" if result.code_changed else "")
            + f" ({result.seconds:.2f} s)",
            err=True,
        )
        for w in result.warnings:
            click.echo(f"warning: {w}", err=True)

    if not once:
        click.echo(f"Watching {paths.project_root or paths.root} (Ctrl-C to stop)", err=True)
    from rubi.engine.server import running

    with contextlib.suppress(KeyboardInterrupt), running(None if once else paths):
        run(paths, on_report=report, debounce_ms=debounce_ms, once=once)
    if not once:
        click.echo("Stopped.", err=True)
