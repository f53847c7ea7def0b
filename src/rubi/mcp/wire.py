"""The stdio wire of ``rubi serve``: private descriptors for the protocol's stdin and
stdout, and unbuffered line reads and locked writes on them, shared by the fast path
(:mod:`rubi.mcp.front`) and the SDK's transport (:mod:`rubi.mcp.stdio`). Only the
stdlib is imported here."""

from __future__ import annotations

import logging
import os
import threading

__all__ = ["MAX_LINE_BYTES", "READ_CHUNK", "LineReader", "LineWriter", "claim_wire"]

READ_CHUNK = 1 << 16
"""Bytes per ``os.read``."""

MAX_LINE_BYTES = 128 << 20
"""The longest message line kept (128 MiB). The largest call a client sends, a
``hook`` call with an 8M-character ``tool_input`` JSON-escaped twice (up to 7 bytes a
character) and three 2M-character strings, stays below it; a longer line, or input
that never ends a line, is dropped instead of filling memory."""

log = logging.getLogger(__name__)


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


class LineReader:
    """The lines of a file descriptor, read with ``os.read``: nothing is buffered
    anywhere but here, so whoever reads on gets every byte not yet returned.

    Args:
        fd: the descriptor (the wire's stdin).
    """

    def __init__(self, fd: int, max_line: int = MAX_LINE_BYTES) -> None:
        self._fd = fd
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
            chunk = os.read(self._fd, READ_CHUNK)
            if chunk:
                self._buf += chunk
            else:
                self._eof = True

    def _warn_dropped(self) -> None:
        log.warning(
            "a message over %d MiB (or input without a line end) was dropped unread",
            self._max >> 20,
        )


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
