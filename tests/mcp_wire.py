"""Both ends of the MCP server's greeting over pipes (:mod:`rubi.mcp.front`), and
JSON-RPC requests: shared by the MCP tests."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from rubi.mcp.wire import LineReader, LineWriter

from helpers import REPO

sys.path.insert(0, str(REPO / "bench"))
from benchproc import Lines  # the one reader: the MCP bench's

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


def request(rid: int, method: str, params: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        out["params"] = params
    return out
