"""A scripted fake of the Anthropic Messages API on a loopback port, for driving the
real Claude Code CLI offline (wire shapes: shared/docs/claude-code-integration.md §6).

Script: when the user's prompt holds a ``TOOL:<name>`` marker and no tool result has
come back yet, answer with that ``tool_use`` (input ``{"query": ...}`` from a
``QUERY:<words>`` marker); otherwise answer with text and ``end_turn``. Every
request body is kept in ``requests`` for the test to inspect.
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


class FakeMessagesAPI:
    """Start with :meth:`start`, stop with :meth:`stop`; ``url`` is the base URL."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
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
        answered = any(
            isinstance(m.get("content"), list)
            and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in m["content"])
            for m in users
        )
        tools = {t.get("name") for t in body.get("tools") or []}
        marker = re.search(r"TOOL:([A-Za-z0-9_]+)", text)
        if marker and not answered and marker.group(1) in tools:
            query = re.search(r"QUERY:([^\"\\\\]+)", text)
            data = {"query": query.group(1).strip()} if query else {}
            block = {
                "type": "tool_use",
                "id": f"toolu_fake{next(self._ids):04d}",
                "name": marker.group(1),
                "input": data,
            }
            return [block], "tool_use"
        answer = "<summary>Summary.</summary>" if "summar" in text.lower() else "Done."
        return [{"type": "text", "text": answer}], "end_turn"

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
                blocks, stop = api.plan(body)
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
                            "usage": USAGE,
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
                            "usage": dict(USAGE, output_tokens=1),
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

            def _json(self, obj: dict[str, Any]) -> None:
                data = json.dumps(obj).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
