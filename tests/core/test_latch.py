"""A latch sets the events linked to it; ``wait_any`` sleeps on them together and
looks at its condition only when one was set."""

from __future__ import annotations

import threading
import time

from rubi.core.latch import Latch, wait_any


def test_a_latch_sets_its_linked_events_and_an_unlinked_one_no_more() -> None:
    latch, linked, unlinked = Latch(), threading.Event(), threading.Event()
    latch.link(linked)
    latch.link(unlinked)
    latch.unlink(unlinked)
    latch.set()
    assert latch.is_set() and linked.is_set() and not unlinked.is_set()
    late = threading.Event()
    latch.link(late)  # linked once set: set at once
    assert late.is_set()


def test_wait_any_looks_once_per_wake_and_ends_when_a_latch_is_set() -> None:
    first, second = Latch(), Latch()
    looks: list[bool] = []

    def done() -> bool:
        looks.append(second.is_set())
        return second.is_set()

    waiter = threading.Thread(target=wait_any, args=((first, second), done))
    waiter.start()
    time.sleep(0.3)
    assert looks == [False]  # no timer: one look at the start
    first.set()  # a wake that does not end the wait: one more look
    time.sleep(0.2)
    second.set()
    waiter.join(10)
    assert not waiter.is_alive()
    assert looks == [False, False, True]
    assert first._links == [] and second._links == []  # the waiter's links undone


def test_wait_any_ends_at_its_deadline() -> None:
    looks: list[bool] = []
    wait_any((Latch(),), lambda: looks.append(False) or False, time.monotonic() + 0.05)
    assert len(looks) == 2  # at the start and at the deadline
