"""Events a thread can sleep on together with others, without polling.

``threading.Event.wait`` waits for one event. A thread that must wake for any of
several (a server's "first answers out" or its stop, say) used to wake every 0.1 s
to look at each: an idle ``rubi serve`` woke some 30 times a second. A
:class:`Latch` is an event that also sets the events linked to it (:meth:`Latch.link`),
so the waiter links one private event of its own to each cause and sleeps on that
alone (:func:`wait_any`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

__all__ = ["Latch", "wait_any"]


class Latch(threading.Event):
    """A ``threading.Event`` whose :meth:`set` also sets every event linked to it."""

    def __init__(self) -> None:
        super().__init__()
        self._links: list[threading.Event] = []
        self._links_lock = threading.Lock()

    def link(self, other: threading.Event) -> None:
        """Set ``other`` whenever this is set (at once if it is set already)."""
        with self._links_lock:
            self._links.append(other)
        if self.is_set():
            other.set()

    def unlink(self, other: threading.Event) -> None:
        """Undo one :meth:`link` of ``other`` (nothing if it is not linked)."""
        with self._links_lock:
            for at, linked in enumerate(self._links):
                if linked is other:
                    del self._links[at]
                    return

    def set(self) -> None:
        super().set()
        with self._links_lock:
            links = list(self._links)
        for other in links:
            other.set()


def wait_any(
    latches: Iterable[Latch],
    done: Callable[[], bool],
    deadline: float | None = None,
    wake: threading.Event | None = None,
) -> None:
    """Sleep until ``done()`` is true or ``deadline`` (monotonic seconds; None: none)
    has passed, looking at ``done`` only when one of ``latches`` is set (or ``wake``,
    which other code may set too, e.g. a counter that grew): never on a timer.

    ``done`` is called once at once, then once per wake-up."""
    wake = wake if wake is not None else threading.Event()
    held = list(latches)
    for latch in held:
        latch.link(wake)
    try:
        while True:
            wake.clear()
            if done():
                return
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return
            wake.wait(left)
    finally:
        for latch in held:
            latch.unlink(wake)
