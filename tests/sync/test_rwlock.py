"""The readers-writer lock with real threads: readers share it, a writer waits for the
readers of the moment and holds back the readers that come after it, a nested read
never waits, and a thread that reads cannot write."""

from __future__ import annotations

import threading
import time

import pytest

from rubi.sync.rwlock import ReadWriteLock

WAIT_S = 0.2
"""How long a test lets a thread that should be blocked try."""


def _started(target: object) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)  # type: ignore[arg-type]
    thread.start()
    return thread


def test_readers_share_the_lock() -> None:
    lock = ReadWriteLock()
    inside = threading.Barrier(2, timeout=5)

    def read() -> None:
        with lock.reading():
            inside.wait()  # both readers are in at once, or this times out

    threads = [_started(read), _started(read)]
    for t in threads:
        t.join(5)
    assert not any(t.is_alive() for t in threads)


def test_a_writer_waits_for_the_reader_and_readers_after_it_wait_for_the_writer() -> None:
    lock = ReadWriteLock()
    events: list[str] = []
    leave = threading.Event()

    def first_reader() -> None:
        with lock.reading():
            events.append("read 1")
            leave.wait(5)
        events.append("read 1 done")

    def writer() -> None:
        with lock.writing():
            events.append("write")

    def late_reader() -> None:
        with lock.reading():
            events.append("read 2")

    a = _started(first_reader)
    time.sleep(WAIT_S / 4)
    b = _started(writer)
    time.sleep(WAIT_S / 4)
    c = _started(late_reader)  # comes while the writer waits: goes after it
    time.sleep(WAIT_S)
    assert events == ["read 1"]
    leave.set()
    for t in (a, b, c):
        t.join(5)
    assert events == ["read 1", "read 1 done", "write", "read 2"]


def test_a_nested_read_does_not_wait_for_a_waiting_writer() -> None:
    lock = ReadWriteLock()
    done = threading.Event()
    writer_waits = threading.Event()

    def nested() -> None:
        with lock.reading():
            writer_waits.wait(5)
            time.sleep(WAIT_S / 4)  # the writer is queued by now
            with lock.reading():
                done.set()

    def writer() -> None:
        writer_waits.set()
        with lock.writing():
            pass

    a = _started(nested)
    b = _started(writer)
    assert done.wait(5), "a nested read waited for the writer queued behind its own read"
    a.join(5)
    b.join(5)
    assert not a.is_alive() and not b.is_alive()


def test_a_reading_thread_asking_to_write_is_refused_at_once() -> None:
    lock = ReadWriteLock()
    with lock.reading(), pytest.raises(RuntimeError, match="wait for itself"), lock.writing():
        pass
    with lock.writing():  # the refused attempt left nothing behind
        assert not lock.reading_here()


def test_the_writer_may_read_what_it_writes() -> None:
    lock = ReadWriteLock()
    with lock.writing(), lock.reading():
        assert lock.reading_here()
    with lock.writing():
        pass
