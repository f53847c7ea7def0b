"""The stdio wire of ``rubi serve``: private descriptors for the protocol's stdin and
stdout, and unbuffered line reads and locked writes on them, shared by the fast path
(:mod:`rubi.mcp.front`) and the SDK's transport (:mod:`rubi.mcp.stdio`). Only the
stdlib is imported here.

Ctrl-C reaches a server that waits for its next line (:func:`signals_wake`): a
signal sent to the process is taken by any of its threads that does not block it,
and CPython runs the Python handler (``KeyboardInterrupt``) in the main thread only
once that thread runs again; a main thread blocked in ``read`` of a silent client
did not, while another thread (the watcher's catch-up, say) had taken the signal: the
server went on waiting for input, and ``rubi serve`` did not end on Ctrl-C (issue 29:
3 of 100 under load with the signal 0.5-0.75 s after the first answer)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "MAX_LINE_BYTES",
    "READ_CHUNK",
    "LineReader",
    "LineWriter",
    "claim_wire",
    "drain",
    "signals_wake",
]

READ_CHUNK = 1 << 16
"""Bytes per ``os.read``."""

MAX_LINE_BYTES = 128 << 20
"""The longest message line kept (128 MiB). The largest call a client sends, a
``hook`` call with an 8M-character ``tool_input`` JSON-escaped twice (up to 7 bytes a
character) and three 2M-character strings, stays below it; a longer line, or input
that never ends a line, is dropped instead of filling memory."""

log = logging.getLogger(__name__)

TYPE_CHECKING = False  # typing's import, for a wire that needs none of it
if TYPE_CHECKING:
    import select

_MAIN = threading.main_thread().ident
"""The main thread, the one that runs Python's signal handlers."""

_WAKE_PIPE: list[tuple[int, int]] = []
"""The process's wake-up pipe (read end, write end), made once and never closed: a
reader still waiting on it after :func:`signals_wake` ended (the SDK's reading
thread, abandoned) never polls a descriptor closed or reused since."""


def claim_wire() -> tuple[int, int]:
    """Private descriptors for the protocol's stdin and stdout; descriptors 0 and 1 then
    point to the null device and to stderr, so a stray ``print`` or a child process's
    output never reaches the wire (as the SDK's ``stdio_server`` does).

    Returns:
        The wire's input and output descriptors (0 and 1 themselves when they cannot
        be duplicated).
    """
    try:
        wire_in, wire_out = os.dup(0), os.dup(1)
    except OSError:
        return 0, 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
    except OSError:
        pass  # the wire still works through the duplicates
    return wire_in, wire_out


@contextmanager
def signals_wake() -> Iterator[int | None]:
    """For the block, a descriptor that becomes readable whenever a signal with a
    Python handler arrives, whichever thread the kernel gave it to (CPython's
    ``signal.set_wakeup_fd``): a :class:`LineReader` given it wakes for it, and the
    handler then runs in the main thread (``KeyboardInterrupt`` for Ctrl-C; SIGTERM and
    SIGHUP: :func:`rubi.cli.terminated.stopped_by_signals`). None outside the main
    thread (only it may set the wake-up) and where descriptors cannot be polled
    (Windows). The earlier wake-up descriptor, if any, is restored after the block."""
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        yield None
        return
    import signal

    if not _WAKE_PIPE:
        read_end, write_end = os.pipe()
        for fd in (read_end, write_end):
            os.set_blocking(fd, False)  # the handler never blocks on a full pipe
        _WAKE_PIPE.append((read_end, write_end))
    read_end, write_end = _WAKE_PIPE[0]
    try:
        earlier = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except (ValueError, OSError):
        yield None
        return
    try:
        yield read_end
    finally:
        signal.set_wakeup_fd(earlier)


class LineReader:
    """The lines of a file descriptor, read with ``os.read``: nothing is buffered
    anywhere but here, so whoever reads on gets every byte not yet returned.

    Args:
        fd: the descriptor (the wire's stdin).
        wake: a descriptor that becomes readable when a signal arrives
            (:func:`signals_wake`): a read waits for either, so the main thread runs
            the signal's handler even when another thread took the signal; None: a
            plain blocking read.
    """

    def __init__(self, fd: int, max_line: int = MAX_LINE_BYTES, wake: int | None = None) -> None:
        self._fd = fd
        self._wake = wake
        self.wake = wake
        """The signals' wake-up descriptor it was given: the SDK's transport, whose
        reads run in a worker thread, has its event loop wake for it instead
        (:func:`rubi.mcp.stdio.serve_wire`)."""
        self._poll: select.poll | None = None  # of fd and wake, made at the first wait
        self._max = max_line
        self._buf = bytearray()
        self._scanned = 0  # bytes of _buf known to hold no newline
        self._eof = False
        self._dropping = False  # inside a line over max_line, until its newline

    def readline(self) -> bytes:
        """The next line with its ``\\n``; the rest without one at end of input;
        ``b""`` once everything was read. Blocks until a line is there. A line longer
        than ``max_line`` bytes is skipped, with one warning (never held in memory
        whole: its bytes are let go as they arrive)."""
        while True:
            at = self._buf.find(b"\n", self._scanned)
            if at >= 0:
                if self._dropping or at >= self._max:
                    if not self._dropping:
                        self._warn_dropped()
                    del self._buf[: at + 1]
                    self._scanned = 0
                    self._dropping = False
                    continue
                line = bytes(self._buf[: at + 1])
                del self._buf[: at + 1]
                self._scanned = 0
                return line
            if self._dropping or len(self._buf) > self._max:
                if not self._dropping:
                    self._warn_dropped()
                    self._dropping = True
                self._buf.clear()
            self._scanned = len(self._buf)
            if self._eof:
                line = b"" if self._dropping else bytes(self._buf)
                self._buf.clear()
                self._scanned = 0
                self._dropping = False
                return line
            if self._wake is not None and threading.get_ident() == _MAIN:
                self._await_input(self._wake)  # a worker's read: not its signal
            chunk = os.read(self._fd, READ_CHUNK)
            if chunk:
                self._buf += chunk
            else:
                self._eof = True

    def _await_input(self, wake: int) -> None:
        """Return once the wire has input (or its end, or an error, which the read
        then meets). A signal's wake-up is drained and the wait goes on: in the main
        thread the signal's handler runs first, at the loop's next step (a
        ``KeyboardInterrupt`` for Ctrl-C leaves from here)."""
        import select

        if self._poll is None:
            self._poll = select.poll()
            self._poll.register(self._fd, select.POLLIN)
            self._poll.register(wake, select.POLLIN)
        while True:
            ready = {fd for fd, _ in self._poll.poll()}
            if wake in ready:
                drain(wake)
            if self._fd in ready:
                return

    def _warn_dropped(self) -> None:
        log.warning(
            "a message over %d MiB (or input without a line end) was dropped unread",
            self._max >> 20,
        )


def drain(fd: int) -> None:
    """Read what a non-blocking descriptor holds, until it is empty."""
    try:
        while os.read(fd, 512):
            pass
    except OSError:  # empty now (BlockingIOError)
        pass


class LineWriter:
    """Whole lines to a file descriptor, one writer at a time.

    Args:
        fd: the descriptor (the wire's stdout).
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        """Write ``text`` and a newline, in full.

        Raises:
            OSError: the reader went away (``BrokenPipeError``) or another failure.
        """
        data = memoryview((text + "\n").encode("utf-8"))
        with self._lock:
            while data:
                data = data[os.write(self._fd, data) :]
