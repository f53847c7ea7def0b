"""Both ends of the MCP server's greeting over pipes (:mod:`rubi.mcp.front`), and
JSON-RPC requests: shared by the MCP tests."""

from __future__ import annotations

import json
import os
import select
import time
from typing import Any

from rubi.mcp.wire import LineReader, LineWriter

__all__ = ["INIT", "Lines", "Wire", "request"]

INIT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"},
}


class Wire:
    """The two ends of a greeting: what the client sends, what it gets back."""

    def __init__(self) -> None:
        self._in_r, self._in_w = os.pipe()
        self._out_r, self._out_w = os.pipe()
        self.reader = LineReader(self._in_r)
        self.writer = LineWriter(self._out_w)

    def send(self, *messages: dict[str, Any] | str) -> None:
        for m in messages:
            line = m if isinstance(m, str) else json.dumps(m)
            os.write(self._in_w, line.encode("utf-8") + b"\n")

    @property
    def client_end(self) -> int:
        """The descriptor the client reads replies from, as they come."""
        return self._out_r

    def end(self) -> None:
        os.close(self._in_w)

    def replies(self) -> list[dict[str, Any]]:
        os.close(self._out_w)
        with os.fdopen(self._out_r, "rb") as out:
            return [json.loads(line) for line in out]

    def close(self) -> None:
        os.close(self._in_r)


class Lines:
    """The lines a descriptor carries (a server's output), each waited for at most a
    given time.

    ``select`` tells whether the descriptor has unread bytes, not whether a reader's
    buffer holds a whole line: a client that asks ``select`` before each ``readline`` of
    a buffered reader (a ``LineReader``, a ``Popen``'s ``stdout``) waits for nothing
    once two lines came in one read, the second already in its buffer, and reports a
    reply that arrived as missing (issue 29's rare hang). This asks ``select`` only when
    no whole line is buffered. Read the descriptor through nothing else.

    Args:
        fd: the descriptor.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray()
        self._eof = False

    def line(self, timeout: float) -> bytes | None:
        """The next line with its newline (the rest without one at end of input,
        ``b""`` once everything was read), or None when no whole line came within
        ``timeout`` seconds (what did stays buffered for the next call)."""
        deadline = time.monotonic() + timeout
        while True:
            at = self._buf.find(b"\n")
            if at >= 0 or self._eof:
                end = at + 1 if at >= 0 else len(self._buf)
                line = bytes(self._buf[:end])
                del self._buf[:end]
                return line
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._fd, 1 << 16)
            if chunk:
                self._buf += chunk
            else:
                self._eof = True


def request(rid: int, method: str, params: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        out["params"] = params
    return out
