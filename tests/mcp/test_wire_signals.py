"""Ctrl-C taken by another thread still stops a server waiting for its client's next
line (:func:`rubi.mcp.wire.signals_wake`): the kernel gives a signal sent to the
process to any thread that does not block it, CPython runs the Python handler in the
main thread only when that thread runs, and a main thread blocked in ``read`` of a
silent client did not run again (issue 29: ``rubi serve`` did not end on Ctrl-C)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi.mcp.wire import LineReader, signals_wake

from helpers import sleeps_in_read

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="a thread's state read from /proc (Linux)"
)

RESCUE_S = 30.0
"""When the test gives the blocked read a line, so that a failure ends instead of
hanging (the read wakes at once when it works)."""


def _blocked(native_id: int) -> bool:
    """Whether the thread sleeps in the kernel in a read or a poll (not the GIL's wait)."""
    return sleeps_in_read(Path(f"/proc/self/task/{native_id}"))


@pytest.fixture
def wire() -> Iterator[tuple[int, int]]:
    read_end, write_end = os.pipe()
    yield read_end, write_end
    os.close(read_end)
    os.close(write_end)


def _signal_another_thread_once_blocked(main_id: int, rescue: threading.Timer) -> None:
    """From a thread of its own: wait until the main thread sleeps in its read, take
    SIGINT here (the racing point: the kernel chose this thread), then start ``rescue``
    (a line for the read ``RESCUE_S`` later, should it not have left)."""

    def take() -> None:
        deadline = time.monotonic() + 10
        while not _blocked(main_id) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)  # settled in the syscall
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    taker = threading.Thread(target=take, daemon=True)
    taker.start()
    rescue.start()
    taker.join()


def test_ctrl_c_taken_by_another_thread_wakes_the_read_of_a_silent_client(
    wire: tuple[int, int],
) -> None:
    """The rescue is cancelled before the test's pipe is closed: left to fire later, it
    wrote into whatever file had the pipe's number by then (a later test's failure)."""
    r, w = wire
    rescued = threading.Event()

    def rescue_line() -> None:
        rescued.set()
        os.write(w, b"rescue\n")

    rescue = threading.Timer(RESCUE_S, rescue_line)
    rescue.daemon = True
    main_id = threading.get_native_id()
    try:
        with signals_wake() as wake:
            assert wake is not None
            reader = LineReader(r, wake=wake)
            starter = threading.Thread(
                target=_signal_another_thread_once_blocked, args=(main_id, rescue), daemon=True
            )
            with pytest.raises(KeyboardInterrupt):
                starter.start()
                reader.readline()
        starter.join(10)
    finally:
        rescue.cancel()
        if rescue.is_alive():
            rescue.join()
    assert not rescued.is_set(), "the read waited for input: Ctrl-C was not seen"


def test_a_signal_that_stops_nothing_leaves_the_read_waiting_for_its_line(
    wire: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handled signal that raises nothing (here SIGUSR1's) wakes the wait, which goes
    on: the line that comes next is returned whole."""
    r, w = wire
    seen: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: seen.append(signum))
    try:
        with signals_wake() as wake:
            reader = LineReader(r, wake=wake)

            def later() -> None:
                signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
                time.sleep(0.2)
                os.write(w, b'{"jsonrpc": "2.0"}\n')

            threading.Thread(target=later, daemon=True).start()
            assert reader.readline() == b'{"jsonrpc": "2.0"}\n'
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert seen == [signal.SIGUSR1]


def test_the_wake_up_is_the_blocks_alone() -> None:
    """Outside the block the process's wake-up descriptor is what it was; outside the
    main thread there is none to set."""
    before = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(before)
    with signals_wake() as wake:
        assert wake is not None
    assert signal.set_wakeup_fd(before) == before
    got: list[int | None] = []

    def elsewhere() -> None:
        with signals_wake() as other:
            got.append(other)

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert got == [None]
