"""The CPU seconds a process spent checking whether a vault's files changed, and who
wants to hear each time it grows; standard library only.

:func:`rubi.sync.freshness.files_unchanged` adds to it (a search's check, while no
watcher listens); ``rubi serve``'s background watch reads it, and sleeps until it
grows (:mod:`rubi.cli.servewatch`: the watcher starts once the checks cost what its
start costs). Kept apart from the check itself so the waiting server imports only
this: the check's module brings SQLite, pickle and the graph's formats, which a short
session's server never needs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["ScanCost", "add", "on_scans", "scans_cpu_s"]


class ScanCost:
    """CPU seconds summed over every thread, and the events set each time it grows."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seconds = 0.0
        self._told: list[threading.Event] = []

    def add(self, seconds: float) -> None:
        """Add ``seconds`` of CPU; set every event told (:meth:`tell`)."""
        with self._lock:
            self._seconds += seconds
            told = list(self._told)
        for event in told:
            event.set()

    def tell(self, event: threading.Event) -> Callable[[], None]:
        """Set ``event`` after each :meth:`add`; returns what stops that."""
        with self._lock:
            self._told.append(event)

        def undo() -> None:
            with self._lock:
                if event in self._told:
                    self._told.remove(event)

        return undo

    def total(self) -> float:
        """The CPU seconds added so far."""
        with self._lock:
            return self._seconds


_SCANS = ScanCost()


def add(seconds: float) -> None:
    """Count ``seconds`` of CPU a check for changed files took."""
    _SCANS.add(seconds)


def scans_cpu_s() -> float:
    """CPU seconds this process has spent so far checking whether a vault's files
    changed, in every thread."""
    return _SCANS.total()


def on_scans(event: threading.Event) -> Callable[[], None]:
    """Set ``event`` each time a check adds to :func:`scans_cpu_s` (a waiter then looks
    at the total when it grew, not on a timer); returns what stops that."""
    return _SCANS.tell(event)
