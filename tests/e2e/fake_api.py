"""A scripted fake of the Anthropic Messages API on a loopback port, for driving the
real Claude Code CLI offline (wire shapes: shared/docs/claude-code-integration.md §6).

Script, by markers in the user's prompt:

- ``READ:<path>[,<path>...]``: one ``Read`` per path, all in one answer (parallel tool
  calls); ``READ2:`` asks for the same reads a second time after the results;
- ``LOOP``: one ``Bash`` step after another until Claude Code compacts the
  conversation (or ``max_loop`` steps);
- ``TOOL:<name>``: that ``tool_use`` (input ``{"query": ...}`` from a
  ``QUERY:<words>`` marker) until a tool result has come back;
- otherwise text and ``end_turn``; a compaction request gets a summary.

With ``growth`` the reported usage grows with the conversation, so Claude Code's
auto-compaction and rubi's meter see a context that fills up; past ``limit`` tokens
the API refuses the request as too long, as the real one does (Claude Code then
compacts: on a 1M model with no compaction window it compacts only then). Every request body is
kept in ``requests`` for the test to inspect.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {
    "input_tokens": 12,
    "cache_creation_input_tokens": 3000,
    "cache_read_input_tokens": 9000,
    "cache_creation": {"ephemeral_5m_input_tokens": 3000, "ephemeral_1h_input_tokens": 0},
    "output_tokens": 20,
    "service_tier": "standard",
}

TOO_LONG: dict[str, Any] = {
    "type": "error",
    "error": {
        "type": "invalid_request_error",
        "message": "prompt is too long: 1000001 tokens > 1000000 maximum",
    },
}
"""The API's answer to a request over the model's window."""


class FakeMessagesAPI:
    """Start with :meth:`start`, stop with :meth:`stop`; ``url`` is the base URL."""

    def __init__(
        self, *, growth: int = 0, base: int = 20_000, max_loop: int = 60, limit: int = 1_000_000
    ) -> None:
        self.requests: list[dict[str, Any]] = []
        self.growth = growth
        self.base = base
        self.max_loop = max_loop
        self.limit = limit
        self.compactions = 0
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> FakeMessagesAPI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def plan(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        msgs = body.get("messages") or []
        users = [m for m in msgs if m.get("role") == "user"]
        text = json.dumps([m.get("content") for m in users])
        rounds = sum(1 for m in msgs if m.get("role") == "assistant")
        answered = any(
            isinstance(m.get("content"), list)
            and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in m["content"])
            for m in users
        )
        tools = {t.get("name") for t in body.get("tools") or []}
        if self.is_compaction(body):
            self.compactions += 1
            return [{"type": "text", "text": "<summary>Summary of the work.</summary>"}], "end_turn"
        reads = re.search(r"READ(2?):([^\s\"\\]+)", text)
        if reads and "Read" in tools and rounds < (2 if reads.group(1) else 1):
            blocks = [
                self._tool_use("Read", {"file_path": path}) for path in reads.group(2).split(",")
            ]
            return blocks, "tool_use"
        if "LOOP" in text and "Bash" in tools and not self.compactions and rounds < self.max_loop:
            step = {"command": f"echo step {rounds}", "description": "One more step"}
            return [self._tool_use("Bash", step)], "tool_use"
        marker = re.search(r"TOOL:([A-Za-z0-9_]+)", text)
        if marker and not answered and marker.group(1) in tools:
            query = re.search(r"QUERY:([^\"\\]+)", text)
            data = {"query": query.group(1).strip()} if query else {}
            return [self._tool_use(marker.group(1), data)], "tool_use"
        answer = "<summary>Summary.</summary>" if "summar" in text.lower() else "Done."
        return [{"type": "text", "text": answer}], "end_turn"

    def _tool_use(self, name: str, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "tool_use",
            "id": f"toolu_fake{next(self._ids):04d}",
            "name": name,
            "input": data,
        }

    @staticmethod
    def is_compaction(body: dict[str, Any]) -> bool:
        """``body`` is Claude Code's request for a summary of the conversation (its
        compaction): the last message asks for a summary with text only, no tools."""
        msgs = body.get("messages") or []
        if not msgs:
            return False
        last = json.dumps(msgs[-1].get("content")).lower()
        return "summary" in last and "do not call any tools" in last

    def too_long(self, body: dict[str, Any]) -> bool:
        """``body`` is over ``limit`` tokens (by :meth:`usage`'s count; a compaction
        request never is): the API refuses it, and Claude Code compacts."""
        if not self.growth or self.is_compaction(body):
            return False
        usage = self.usage(body)
        size = sum(
            usage[k]
            for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        )
        return size > self.limit

    def usage(self, body: dict[str, Any]) -> dict[str, Any]:
        """The ``usage`` block of the answer to ``body``: :data:`USAGE`, or with
        ``growth`` set, a context of ``base + growth`` tokens per message (it falls
        when a compaction shortens the conversation)."""
        if not self.growth:
            return dict(USAGE)
        size = self.base + self.growth * len(body.get("messages") or [])
        return dict(
            USAGE,
            input_tokens=12,
            cache_creation_input_tokens=1000,
            cache_read_input_tokens=max(0, size - 1012),
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._json({})

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                if "count_tokens" in self.path:
                    self._json({"input_tokens": 100})
                    return
                api.requests.append(body)
                if api.too_long(body):
                    self._json(TOO_LONG, status=400)
                    return
                blocks, stop = api.plan(body)
                usage = api.usage(body)
                mid = f"msg_fake{next(api._ids):04d}"
                model = body.get("model", "m")
                if not body.get("stream"):
                    self._json(
                        {
                            "id": mid,
                            "type": "message",
                            "role": "assistant",
                            "model": model,
                            "content": blocks,
                            "stop_reason": stop,
                            "stop_sequence": None,
                            "usage": usage,
                        }
                    )
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()

                def ev(name: str, data: dict[str, Any]) -> None:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    self.wfile.flush()

                ev(
                    "message_start",
                    {
                        "type": "message_start",
                        "message": {
                            "id": mid,
                            "type": "message",
                            "role": "assistant",
                            "model": model,
                            "content": [],
                            "stop_reason": None,
                            "stop_sequence": None,
                            "usage": dict(usage, output_tokens=1),
                        },
                    },
                )
                for i, b in enumerate(blocks):
                    if b["type"] == "text":
                        ev(
                            "content_block_start",
                            {
                                "type": "content_block_start",
                                "index": i,
                                "content_block": {"type": "text", "text": ""},
                            },
                        )
                        ev(
                            "content_block_delta",
                            {
                                "type": "content_block_delta",
                                "index": i,
                                "delta": {"type": "text_delta", "text": b["text"]},
                            },
                        )
                    else:
                        ev(
                            "content_block_start",
                            {
                                "type": "content_block_start",
                                "index": i,
                                "content_block": {
                                    "type": "tool_use",
                                    "id": b["id"],
                                    "name": b["name"],
                                    "input": {},
                                },
                            },
                        )
                        ev(
                            "content_block_delta",
                            {
                                "type": "content_block_delta",
                                "index": i,
                                "delta": {
                                    "type": "input_json_delta",
                                    "partial_json": json.dumps(b["input"]),
                                },
                            },
                        )
                    ev("content_block_stop", {"type": "content_block_stop", "index": i})
                ev(
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": stop, "stop_sequence": None},
                        "usage": {"output_tokens": 20},
                    },
                )
                ev("message_stop", {"type": "message_stop"})

            def _json(self, obj: dict[str, Any], status: int = 200) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
