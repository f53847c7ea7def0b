"""``rubi watch``: keep the index and graph current while people edit notes in Obsidian
and code changes.

The watcher only turns file-system events into a change list; applying it is the same
incremental path as ``rubi index``, through the facade (:func:`rubi.app.catch_up`,
:func:`rubi.app.apply_changes`). Events are debounced into batches, so a ``git checkout`` that
touches 1,000 files is one index run. What it ignores is what the indexer skips
(:mod:`rubi.core.treerules`, applied to paths relative to the vault or the project, so
the folders above the vault never count), plus editor temp and swap files. Index runs
take the index lock, and every index file is replaced atomically, so readers (hooks,
the MCP server) never see a half-written index.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from rubi import app
from rubi.app.updates import special_files
from rubi.core.paths import VaultPaths
from rubi.core.stopsignals import stop_on_signals as _stop_on_signals
from rubi.watch.paths import (
    Batch,
    classify,
    event_filter,
    ignored,
    ignored_code,
    is_link,
    linked_folders,
)

__all__ = [
    "DEBOUNCE_MS",
    "PREPARE_AFTER_S",
    "QUIET_MS",
    "Batch",
    "classify",
    "event_filter",
    "ignored",
    "ignored_code",
    "linked_folders",
    "watch",
]

log = logging.getLogger(__name__)

DEBOUNCE_MS = 400
"""Longest a batch gathers changes while they keep coming (``watchfiles.watch``'s
``debounce``): long enough to gather a quick checkout, short enough that a saved note
is searchable within about a second. A batch closes sooner after :data:`QUIET_MS`."""

QUIET_MS = 50
"""Quiet time that closes a batch early (``watchfiles.watch``'s ``step``, its default):
a change that comes later starts the next batch. It is also how often the event source
looks at the stop event, so it stays short."""


def _apply(vault: VaultPaths, batch: Batch) -> app.IndexReport:
    return app.apply_changes(vault, batch.vault_paths, code=batch.code, code_paths=batch.code_paths)


def watch(
    vault: VaultPaths,
    *,
    changes: Iterable[Iterable[tuple[Any, str]]] | None = None,
    on_report: Callable[[Batch, app.IndexReport], None] | None = None,
    stop_event: threading.Event | None = None,
    debounce_ms: int = DEBOUNCE_MS,
    once: bool = False,
    catch_up: bool = True,
    ready: threading.Event | None = None,
    prepare_after_s: float = 0.0,
    on_refused: Callable[[str, str], None] | None = None,
    waiting: threading.Event | None = None,
    checked_catch_up: bool = False,
) -> int:
    """Catch up, then apply every batch of changes until stopped.

    Args:
        vault: the vault (a project vault also watches the project's code).
        changes: batches of ``(change, path)`` events; default: ``watchfiles.watch``
            on the vault (and the project). Tests pass a scripted list.
        on_report: called after each applied batch.
        stop_event: set it to stop (SIGTERM and SIGHUP set it too); it is set on return.
        debounce_ms: longest a batch gathers changes, in milliseconds (a batch closes
            sooner after :data:`QUIET_MS` without a change).
        once: apply pending changes (one incremental index run) and return.
        catch_up: start with one incremental index run (what changed while nobody
            watched), then make the code map's memory and import what the first
            batches need, in a background thread (:func:`rubi.app.remember_code`,
            :func:`rubi.app.import_ahead`); off in tests that script every change.
        prepare_after_s: with ``catch_up``, begin that background work only this many
            seconds after the catch-up run, or at the first applied batch if one comes
            sooner (:func:`in_background`: a short session never pays for it).
        ready: set once the watcher listens: the event source has subscribed to the
            tree (real file events; a change made after it is seen), or the scripted
            ``changes`` are about to be read. Never set when the source fails at every
            start.
        on_refused: called with ``(path, reason)`` once per watcher for each changed
            note or code file that is a FIFO, socket or device
            (:func:`rubi.app.updates.special_files`: skipped by the index run, never
            opened); default: one warning logged.
        waiting: set while the next batch is awaited (nothing to finish: :func:`_marked`).
        checked_catch_up: catch up only if something changed since the last index run
            (:func:`rubi.app.catch_up_if_changed`, no folder pending); unreported.

    Returns:
        The number of index runs made (the catch-up run counts as one).

    Raises:
        RubiError: the vault cannot be indexed at all (the catch-up run); later
            errors are logged and the watcher goes on.
        KeyboardInterrupt: Ctrl-C (main thread), raised once the watcher stopped.
    """
    applied, counted = 0, [0]  # the catch-up run, when it ran
    stop = stop_event or threading.Event()
    begin = threading.Event()  # the background preparation may start
    prep = partial(_prepare, vault, changes is None, begin, stop, prepare_after_s)
    first_run = partial(
        _catch_up, vault, checked_catch_up, on_report, counted, None if once else prep
    )
    # Real file events: catch up once the source listens (no change lost in between)
    deferred = _now_or_later(first_run, once or changes is not None, catch_up or once)
    if once:
        return counted[0]
    restore = _stop_on_signals(stop)
    links = [linked_folders(vault.root, vault.project_root)]  # refreshed on a new link
    said: set[tuple[str, str]] = set()  # (path, reason) refused and said so
    try:
        if changes is None:
            changes = _file_events(
                vault,
                event_filter(vault, lambda: links[0]),
                debounce_ms,
                stop,
                partial(_listening, vault, ready),
                deferred,
            )
        elif ready is not None:
            ready.set()
        for events in _marked(changes, waiting or threading.Event()):
            if stop.is_set():
                break
            batch = classify(events, vault, links[0])
            if batch is None:
                continue
            _say_refused(vault, batch, said, on_refused or partial(log.warning, "%s: %s"))
            if any(is_link(vault.root / rel) for rel in batch.vault_paths):
                links[0] = linked_folders(vault.root, vault.project_root)
            try:
                report = _apply(vault, batch)
            except Exception:  # the watcher's fail-open edge: log it and keep watching
                log.exception("applying %d changes failed; watching on", batch.events)
                continue
            applied += 1
            begin.set()  # files change in this session: the next edit gains from it
            if on_report:
                on_report(batch, report)
    finally:
        stop.set()  # the background preparation, if it has not begun, never does
        app.set_watched(vault, False)
        restore()
    return applied + counted[0]


def _now_or_later(run: Callable[[], None], now: bool, wanted: bool) -> Callable[[], None] | None:
    """``run`` called now (None), or, ``wanted`` later, returned for the event source."""
    if wanted and now:
        run()
        return None
    return run if wanted else None


def _catch_up(
    vault: VaultPaths,
    checked: bool,
    on_report: Callable[[Batch, app.IndexReport], None] | None,
    counted: list[int],
    then: Callable[[], object] | None,
) -> None:
    """The watcher's catch-up (if changed, with ``checked``); ``counted[0]``: it ran;
    then ``then``, the background preparation, of what it left (real file events:
    after the source listens, so not before :func:`watch` returns its first batch)."""
    if checked:
        counted[0] = int(app.catch_up_if_changed(vault, lock_timeout_s=60.0, pending=()))
    else:
        report, counted[0] = app.catch_up(vault), 1
        if on_report:
            on_report(Batch(events=0, code=True), report)
    if then is not None:
        then()


def _marked(
    changes: Iterable[Iterable[tuple[Any, str]]], waiting: threading.Event
) -> Iterator[Iterable[tuple[Any, str]]]:
    """``changes``, ``waiting`` set while the next batch is awaited (an ending server
    need not wait for the source's next look at its stop: watchfiles' 50 ms step)."""
    batches = iter(changes)
    while True:
        waiting.set()
        try:
            events = next(batches)
        except StopIteration:
            return
        finally:
            waiting.clear()
        yield events


def _say_refused(
    vault: VaultPaths, batch: Batch, said: set[tuple[str, str]], say: Callable[[str, str], None]
) -> None:
    """Say once each (``said`` remembers) of ``batch``'s special files
    (:func:`rubi.app.updates.special_files`) with ``say(path, reason)``."""
    for found in special_files(vault, batch.vault_paths, batch.code_paths).items():
        if found not in said:
            said.add(found)
            say(*found)


LISTEN_TICK_MS = 500
"""How often the file-event source wakes with no change, in milliseconds: its first
wake says it has subscribed (:func:`_file_events`). A wake costs microseconds."""

RESTART_PAUSE_S = 1.0
"""Wait before watching again after the file-event source failed (no busy loop when
it fails again at once)."""

RESTART_PAUSE_MAX_S = 60.0
"""The longest wait between restarts: a source that fails before any batch (a folder
name that is not UTF-8, every time) waits twice as long each time, up to this."""


def _listening(vault: VaultPaths, ready: threading.Event | None, on: bool) -> None:
    """The event source of ``vault``'s watcher has subscribed (``on``), or has failed:
    reads skip their refreshing scan only while file events reach the watcher."""
    app.set_watched(vault, on)
    if on and ready is not None:
        ready.set()


class _SourceFailed(Exception):
    """The file event source raised a RuntimeError (its message is this one's)."""


def _failing_apart(events: Iterator[Any]) -> Iterator[Any]:
    """``events``, its RuntimeError raised as :class:`_SourceFailed`."""
    try:
        yield from events
    except RuntimeError as exc:
        raise _SourceFailed(str(exc)) from exc


def _file_events(
    vault: VaultPaths,
    watch_filter: Callable[[Any, str], bool],
    debounce_ms: int,
    stop: threading.Event,
    listening: Callable[[bool], None],
    first_run: Callable[[], None] | None = None,
) -> Iterator[set[tuple[Any, str]]]:
    """Batches of file events under the project (or vault) from ``watchfiles``, until
    ``stop`` is set. When the source fails (a RuntimeError for an event it cannot hand
    over, e.g. a file name that is not UTF-8), one warning names the error (not
    repeated), an incremental run picks up what it missed, and watching starts again;
    a source that keeps failing before its first batch is restarted ever more slowly
    (:data:`RESTART_PAUSE_MAX_S`): a catch-up a minute, not one a second.

    ``first_run`` (the watcher's catch-up) is called once the source has subscribed
    (the events meanwhile wait in it), or failed first; then ``listening(True)``, at
    each start: watchfiles has no callback for it, so the source wakes every
    :data:`LISTEN_TICK_MS` with no change (an empty batch, passed over); its first wake
    comes after the subscription. ``listening(False)``: the source failed."""
    import watchfiles

    root = vault.project_root or vault.root
    pause = RESTART_PAUSE_S
    said: set[str] = set()
    while not stop.is_set():
        delivered = subscribed = False
        try:  # the source's RuntimeError only: one from the catch-up is no event's
            for batch in _failing_apart(
                watchfiles.watch(
                    root,
                    watch_filter=watch_filter,
                    debounce=debounce_ms,
                    step=QUIET_MS,
                    stop_event=stop,  # Ctrl-C (main thread) raises KeyboardInterrupt here
                    rust_timeout=LISTEN_TICK_MS,
                    yield_on_timeout=True,
                )
            ):
                if not subscribed:
                    subscribed = True
                    if first_run is not None:
                        first_run()
                        first_run = None
                    listening(True)
                if batch:
                    delivered = True
                    yield batch
            return
        except _SourceFailed as exc:
            if subscribed:
                listening(False)
            elif first_run is not None:  # it never listened: catch up all the same
                first_run()
                first_run = None
            if str(exc) not in said:
                said.add(str(exc))
                log.warning(
                    "%s: file events failed (%s); a file name that is not UTF-8? Rename "
                    "it. Catching up and watching again",
                    root,
                    exc,
                )
        pause = RESTART_PAUSE_S if delivered else pause
        if stop.wait(pause):
            return
        pause = min(pause * 2, RESTART_PAUSE_MAX_S)
        try:
            app.catch_up(vault)
        except Exception:  # the watcher's fail-open edge, as for a batch
            log.exception("catching up after the event source failed; watching on")


def _prepare(
    vault: VaultPaths, collect: bool, begin: threading.Event, stop: threading.Event, wait_s: float
) -> threading.Thread:
    """In a daemon thread, off the path of the batches: make the code map's memory
    (:func:`rubi.app.remember_code`: the first edit that changes a file's shape then
    updates the map instead of building it in full) and import what the first
    batches would (:func:`rubi.app.import_ahead`); then, with ``collect`` (a watcher of
    real file events, a long-lived process), run a full garbage collection.

    Started by :func:`_catch_up` once the catch-up ended; begins when ``begin`` is set
    or ``wait_s`` seconds have passed, and not at all when ``stop`` is set by then."""

    def run() -> None:
        begin.wait(wait_s)
        if stop.is_set():
            return
        if vault.project_root is not None:
            app.remember_code(vault)
        app.import_ahead()
        # A full collection here, off the path of the batches: the millions of objects
        # just made (the memory, the graph, the modules) then count as the old
        # generation, and the collector's next full pass waits until a quarter as
        # many again have survived, instead of falling inside the first edit (0.1-0.3 s
        # on spring-framework). Not gc.freeze(): a graph this process replaces later
        # (networkx caches views that point back at their graph: a cycle) would never
        # be freed, the unbounded growth issue 16 removed.
        if collect:
            gc.collect()

    thread = threading.Thread(target=run, name="rubi-prepare", daemon=True)
    thread.start()
    return thread


PREPARE_AFTER_S = 30.0
"""Seconds after its catch-up a background watch given an ``after`` event (``rubi
serve`` over stdio, :func:`rubi.cli.servewatch.in_background`) makes the code map's
memory and imports ahead, or at its first batch if sooner: 0.5 s of CPU on a 600-file
project, which at once fell in a session's first seconds beside its hooks; a short
session never edits. ``rubi watch``: at once."""
