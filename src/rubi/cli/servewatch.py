"""``rubi serve``'s background watch (:func:`in_background`): the watcher of
:mod:`rubi.watch` in a daemon thread of the server, started when a starting server
has the time for it."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator

from rubi import app
from rubi.core.errors import RubiError
from rubi.core.latch import Latch, wait_any
from rubi.core.paths import VaultPaths

__all__ = [
    "AFTER_WAIT_S",
    "CATCH_UP_LOCK_WAIT_S",
    "SOON_S",
    "WATCH_AFTER_SCANS_S",
    "in_background",
]

log = logging.getLogger(__name__)

AFTER_WAIT_S = 60.0
"""The longest a background watch waits for its ``after`` event before it starts
anyway (:func:`in_background`)."""

SOON_S = 5.0
"""With a ``soon`` event (:func:`in_background`), the longest a background watch waits
for it after its ``after`` event: seconds since the watch's start. A ``claude -p``
session of a prompt and ten reads ends within 2-3 s. An edit made outside the session
in its first seconds, followed by hooks only, is recalled this late plus the watcher's
start and catch-up (5.95 s on a 250-note project of 840 code files; 0.04 s when the
watcher started with the first answers); a search sees a note edit at once (its own
scan), a code edit once the catch-up its scan starts has run."""

CATCH_UP_LOCK_WAIT_S = 10.0
"""How long a server's one catch-up run waits for another index run (:func:`in_background`)."""

WATCH_AFTER_SCANS_S = 0.25
"""CPU seconds a process's searches may spend scanning the vault for changes
(:func:`rubi.sync.freshness.scans_cpu_s`) before its background watch starts without
waiting for the idle spell: about what the watcher's start costs (0.22 s of CPU at
5,200 notes, both growing with the vault), so a busy server never pays more than
twice the cheaper of scanning on and watching (the ski-rental rule). A search's scan
costs 15-30 ms at that size: the watcher starts after ten searches or so without an
idle spell, never in a short session of a few."""


@contextlib.contextmanager
def in_background(
    vault: VaultPaths | None,
    after: Latch | None = None,
    idle: Latch | None = None,
    soon: Latch | None = None,
    soon_s: float = SOON_S,
) -> Iterator[threading.Thread | None]:
    """Watch ``vault`` in a daemon thread for the ``with`` block (``rubi serve``): the
    process then learns changes from file events, and its searches skip the scan of
    every file. None, or a failure to start watching, leaves the process as it was
    (searches then refresh by scanning).

    ``after``: start watching once it is set, or after :data:`AFTER_WAIT_S` (``rubi
    serve``: its first answers are out, :data:`rubi.mcp.startup.STARTED`): the
    watcher subscribes, then catches the index up only if something changed since the
    last index run (:func:`rubi.app.catch_up_if_changed`, no folder pending), then
    says it listens; an edit made before is in that run, one made after in a batch. A
    search's own scan sees notes only, not code: a watcher started 20 s in (at
    :data:`rubi.mcp.startup.UNASKED`, up to the sixteenth pass) left a code edit of
    the session's first seconds unseen until then. Until the watcher listens, every
    search refreshes by scanning, as before it started. With ``after``, the code map's
    memory waits (:data:`rubi.watch.PREPARE_AFTER_S`).

    ``idle``: once ``after`` is set, the index is caught up at once by one run
    without the watcher, and only when something changed since the last index run (a
    note, such as the last session's record, or a code file:
    :func:`rubi.sync.freshness.caught_up`), which the next prompts' recall and the next
    session read; the watcher itself starts once ``idle`` is set (``rubi serve``: once
    it has lived a while and is idle, :data:`rubi.mcp.startup.UNASKED`). So a short
    session pays at most a listing and maybe one incremental run, not the watcher's import, its
    catch-up run with a hash of every note, its thread and its watches on every
    folder. Until the watcher listens, a search refreshes by scanning; once those scans
    cost :data:`WATCH_AFTER_SCANS_S` of CPU, the catch-up and the watcher start without
    waiting for ``after`` or ``idle`` (a busy session that never pauses).

    ``soon``: once ``after`` is set, the watcher waits further for ``soon`` (``rubi
    serve``: :data:`rubi.mcp.startup.WATCH_WANTED`, set at the server's first idle
    spell or once the session ran a tool that may write files), or ``soon_s`` seconds
    since the watch's start (:data:`SOON_S`), or a search's first scan for changed
    files (a refreshing search: the ones after it are then watched, as when the
    watcher started with the first answers); the recall of a prompt and the other hooks
    never scan. A short session of hooks ends before its watcher's import, watches,
    catch-up listing and thread (0.03 s of CPU on a small project, 0.2 s and more at
    6,700 notes, most of it in the server's exit, which waited for the catch-up under
    way). An edit the session makes is followed by its tool's PostToolUse hook, which
    starts the watcher; its catch-up reads what changed before it listened."""
    if vault is None:
        yield None
        return
    stop = Latch()
    waiting = threading.Event()  # the watcher waits for file events: nothing to finish

    def run() -> None:
        born = time.monotonic()
        if after is not None:
            _wait(after, stop, born + AFTER_WAIT_S)
            if stop.is_set():
                return
        if soon is not None:  # ends at a search's first scan too: searches need it
            _wait(soon, stop, born + soon_s, scans_s=0.0)
            if stop.is_set():
                return
        if idle is not None:
            _catch_up_once(vault)
            _wait(idle, stop, None)
            if stop.is_set():
                return
        try:
            from rubi import watch as watching  # here: a short session never needs it

            prepare_after_s = watching.PREPARE_AFTER_S if after else 0.0
            watching.watch(
                vault,
                stop_event=stop,
                prepare_after_s=prepare_after_s,
                waiting=waiting,
                checked_catch_up=after is not None,
            )
        except RubiError as exc:  # a read-only cache folder, say: one line, no traceback
            log.warning("background watch of %s stopped: %s", vault.root, exc)
        except Exception:  # the fail-open edge: the server keeps serving, refreshing
            log.exception("background watch of %s stopped", vault.root)

    thread = threading.Thread(target=run, name="rubi-watch", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        if not waiting.is_set():  # a batch or a catch-up under way: let it finish
            thread.join(timeout=2.0)
        else:  # it ends at its next look at the stop; searches scan again from now
            app.set_watched(vault, False)


def _catch_up_once(vault: VaultPaths) -> None:
    """The server's one catch-up run before its watcher starts; a failure is logged
    (the watcher's own catch-up, later, tries again)."""
    try:
        app.catch_up_if_changed(vault, lock_timeout_s=CATCH_UP_LOCK_WAIT_S)
    except RubiError as exc:  # a cause the user can act on: one line
        log.warning("catching %s up failed: %s", vault.root, exc)
    except TimeoutError as exc:  # another run holds the lock: a first index, say
        log.info("catching %s up: another index run holds the lock (%s)", vault.root, exc)
    except Exception:
        log.exception("catching %s up failed", vault.root)


def _wait(
    event: Latch, stop: Latch, deadline: float | None, scans_s: float = WATCH_AFTER_SCANS_S
) -> None:
    """Return once ``event`` or ``stop`` is set, ``deadline`` (monotonic seconds; None:
    none) has passed, or the searches' scans have cost more than ``scans_s`` seconds of
    CPU, or at least :data:`WATCH_AFTER_SCANS_S` (a server searched without pause: the
    idle spell it waits for never comes; ``scans_s`` 0: any scan at all).

    It sleeps until one of those can have happened (:func:`rubi.core.latch.wait_any`:
    ``event`` or ``stop`` set, a search's scan counted, the deadline), never on a
    timer: it looked every 0.1 s, ten of an idle server's 30 wake-ups a second. A
    server that is ending does not wait for this thread (Claude Code's SIGINT gives a
    server 100 ms before its SIGTERM)."""
    wake = threading.Event()
    undo = app.on_scans(wake)
    try:
        wait_any(
            (event, stop),
            lambda: event.is_set() or stop.is_set() or _scanned(scans_s),
            deadline,
            wake,
        )
    finally:
        undo()


def _scanned(scans_s: float) -> bool:
    """The searches' scans have cost more than ``scans_s`` seconds of CPU, or at least
    :data:`WATCH_AFTER_SCANS_S`."""
    spent = app.scans_cpu_s()
    return spent > scans_s or spent >= WATCH_AFTER_SCANS_S
