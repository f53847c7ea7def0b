"""``rubi watch``: keep the index current while files change."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import click

from rubi import app
from rubi.cli.common import echo, handle_errors, vault_option, warning_line
from rubi.cli.interrupted import stop_for_interrupt
from rubi.core.model import ScanWarning
from rubi.core.safeio import escaped_name
from rubi.watch import DEBOUNCE_MS, QUIET_MS, Batch

__all__ = ["MAX_WARNINGS_SHOWN", "STOPPED", "report_lines", "watch"]

MAX_WARNINGS_SHOWN = 10
"""Warnings printed per batch; the rest are counted (``rubi doctor`` lists them)."""

LISTENING = "Listening for changes."
"""Printed once the watcher's event source has subscribed: a change made from then on
is seen (before it, the catch-up run has looked at every file)."""


STOPPED = "Stopped."
"""The last line of a watcher stopped by Ctrl-C or SIGTERM."""


class _SayListening(threading.Event):
    """The watcher's ready event (:func:`rubi.watch.watch`), which prints
    :data:`LISTENING` the first time it is set."""

    def set(self) -> None:
        if not self.is_set():
            echo(LISTENING, err=True)
        super().set()


@click.command()
@click.option("--once", is_flag=True, help="Apply pending changes and exit (for scripts).")
@click.option(
    "--debounce-ms",
    type=click.IntRange(50, 60_000),
    default=DEBOUNCE_MS,
    show_default=True,
    help=f"Longest a batch gathers changes (it closes sooner after {QUIET_MS} ms without one).",
)
@vault_option
@handle_errors
def watch(once: bool, debounce_ms: int, vault: Path | None) -> None:
    """Watch the vault (and the project's code) and keep the index current.

    Stops cleanly on Ctrl-C (ending by SIGINT: status 130), SIGTERM and SIGHUP (status
    0), with the index as the last applied batch left it. Run it in a terminal multiplexer or as a
    systemd user unit (see docs/watch.md).
    """
    from rubi.watch import watch as run

    paths = app.locate(vault)

    said: set[ScanWarning] = set()
    refused: set[ScanWarning] = set()  # said by the watcher: not again from its batch
    written: set[str] = set()  # the map pages this watcher wrote

    def report(batch: Batch, result: app.IndexReport) -> None:
        if refused & set(result.warnings):
            result = replace(result, warnings=[w for w in result.warnings if w not in refused])
        for line in report_lines(batch, result, time.strftime("%H:%M:%S"), said, written):
            echo(line, err=True)

    def say_refused(path: str, reason: str) -> None:
        refused.add(ScanWarning(path, reason))
        echo(warning_line(ScanWarning(path, reason)), err=True)

    if not once:
        echo(f"Watching {paths.project_root or paths.root} (Ctrl-C to stop)", err=True)
    from rubi.engine.server import running

    engine_for = None if once else paths
    try:
        with running(engine_for):  # stopped, its lock released, before the line below
            run(
                paths,
                on_report=report,
                debounce_ms=debounce_ms,
                once=once,
                ready=_SayListening(),
                on_refused=say_refused,
            )
    except KeyboardInterrupt:
        if once:
            raise
        stop_for_interrupt(STOPPED)  # ended by SIGINT, as any command on Ctrl-C
    if not once:
        echo(STOPPED, err=True)


def _badly_named(batch: Batch) -> set[str]:
    """The batch's files whose names cannot be printed as they are (a line break or
    control character, bytes that are not UTF-8), as the index's warnings name them
    (:func:`rubi.core.safeio.escaped_name`)."""
    return {e for e in map(escaped_name, batch.vault_paths) if e not in batch.vault_paths}


def _echo_of_own_pages(batch: Batch, result: app.IndexReport, own: set[str]) -> bool:
    """True for a batch of only pages in ``own`` (written by this watcher) that changed
    nothing: no note, no code file, no warning."""
    return bool(
        batch.events
        and batch.vault_paths
        and batch.vault_paths <= own
        and not batch.code
        and not result.changed
        and not result.warnings
    )


def report_lines(
    batch: Batch,
    result: app.IndexReport,
    stamp: str,
    said: set[ScanWarning] | None = None,
    written: set[str] | None = None,
) -> list[str]:
    """What ``rubi watch`` prints for one applied batch: one summary line, then the
    warnings of the files in the batch only (the catch-up run, ``events == 0``, shows
    the vault's once), at most :data:`MAX_WARNINGS_SHOWN` of them. A file whose name
    is refused (a control character or line break, not UTF-8) is warned about under its
    escaped name, and once per watcher: ``said`` remembers the warnings shown (updated
    here); one about such a name is not shown again, however often the file is saved.

    ``written`` remembers the map pages this watcher wrote (updated here): a batch of
    only those pages that changed nothing is the echo of rubi's own write (a note's
    save rewrote ``map.md``) and prints nothing, not "1 change: 0 added, 0 updated,
    0 deleted notes"."""
    own = written if written is not None else set()
    echo_only = _echo_of_own_pages(batch, result, own)
    own.update(result.pages_written)
    if echo_only:
        return []
    if batch.events:
        what = f"{batch.events} change" + ("s" if batch.events != 1 else "")
    else:
        what = "catch-up"
    code = [
        f"{n} {kind}"
        for n, kind in ((result.code_changed, "changed"), (result.code_deleted, "deleted"))
        if n
    ]
    lines = [
        f"{stamp} {what}: {result.added} added, {result.updated} updated, "
        f"{result.deleted} deleted notes"
        + (f"; code files {', '.join(code)}" if code else "")
        + f" ({result.seconds:.2f} s)"
    ]
    bad_names = _badly_named(batch)
    shown = said if said is not None else set()
    fresh = [
        w
        for w in result.warnings
        if not batch.events
        or w.path in batch.vault_paths
        or (w.path in bad_names and w not in shown)
    ]
    shown.update(fresh[:MAX_WARNINGS_SHOWN])
    lines += [warning_line(w) for w in fresh[:MAX_WARNINGS_SHOWN]]
    if len(fresh) > MAX_WARNINGS_SHOWN:
        more = len(fresh) - MAX_WARNINGS_SHOWN
        lines.append(f"warning: … and {more} more; `rubi doctor` lists them all")
    return lines
