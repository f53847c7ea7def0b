"""A ``rubi serve`` subprocess spoken to line by line, in either MCP era: the
handshake (``initialize``, up to 2025-11-25) or the per-request envelope of
2026-07-28 (``server/discover``, ``_meta`` on every request, no handshake)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Self

from mcp_wire import Lines

__all__ = ["CLIENT", "HANDSHAKE_ERA", "MODERN_ERA", "RUBI", "Served", "envelope"]

RUBI = str(Path(sys.executable).with_name("rubi"))
HANDSHAKE_ERA = "2025-11-25"
MODERN_ERA = "2026-07-28"
CLIENT = {"name": "rubi-tests", "version": "1"}
ANSWER_TIMEOUT_S = 120.0


def envelope(version: str = MODERN_ERA) -> dict[str, Any]:
    """The ``_meta`` every 2026-07-28 request carries."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": CLIENT,
        "io.modelcontextprotocol/clientCapabilities": {},
    }


class Served:
    """``rubi serve --project PROJECT`` over pipes (the environment inherited, so the
    checkout under test serves).

    Args:
        project: the project folder.
        era: :data:`HANDSHAKE_ERA` (a client that sends ``initialize`` first, as
            :meth:`open` does) or :data:`MODERN_ERA`.
    """

    def __init__(self, project: Path, era: str) -> None:
        self.era = era
        self._next = 0
        self.proc = subprocess.Popen(
            [RUBI, "serve", "--project", str(project)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.proc.stdout is not None
        self._lines = Lines(self.proc.stdout.fileno())  # read through nothing else

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def reply(self, rid: int) -> dict[str, Any]:
        """The answer to request ``rid`` (notifications before it skipped)."""
        while True:
            line = self._lines.line(ANSWER_TIMEOUT_S)
            assert line is not None, f"no answer to request {rid} within {ANSWER_TIMEOUT_S} s"
            assert line, f"the server exited before answering request {rid}"
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == rid:
                return message

    def ask(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request in this connection's era and return the whole reply."""
        self._next += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        params = dict(params or {})
        if self.era == MODERN_ERA:
            params["_meta"] = envelope()
        if params:
            message["params"] = params
        self.send(message)
        return self.reply(self._next)

    def open(self) -> dict[str, Any]:
        """Open the connection as a client of this era does: the ``initialize``
        handshake (and its notification), or ``server/discover``; its result."""
        if self.era == MODERN_ERA:
            return self.ask("server/discover")["result"]  # type: ignore[no-any-return]
        params = {"protocolVersion": self.era, "capabilities": {}, "clientInfo": CLIENT}
        result = self.ask("initialize", params)["result"]
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result  # type: ignore[no-any-return]

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A tool call's result (``content``, ``isError``, ``structuredContent``...)."""
        reply = self.ask("tools/call", {"name": name, "arguments": arguments})
        assert "result" in reply, reply
        return reply["result"]  # type: ignore[no-any-return]

    def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
