"""Scripted fakes of the Gemini API and the OpenAI Responses API on a loopback port,
just enough to drive the real Gemini CLI and Codex CLI through one turn: answer with
one call of the MCP tool named by a ``TOOL:<name>`` marker in the prompt (arguments
``{"query": ...}`` from ``QUERY:<words>``), then with text once its result is back.
Every request body is kept in ``requests``.

Wire shapes as the CLIs sent and accepted them (Gemini CLI 0.61, Codex CLI 0.171):
Gemini ``POST /v1beta/models/<model>:streamGenerateContent?alt=sse`` (server-sent
events of ``GenerateContentResponse``) and ``:generateContent`` (JSON; the model
router's classifier); Codex ``POST /v1/responses`` (server-sent events
``response.created``, ``response.output_item.done``, ``response.completed``), whose
MCP tools are deferred behind a client-side ``tool_search`` that the script calls first.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeGeminiAPI", "FakeResponsesAPI"]


def _marker(text: str) -> tuple[str | None, dict[str, str]]:
    tool = re.search(r"TOOL:([A-Za-z0-9_]+)", text)
    query = re.search(r"QUERY:([A-Za-z0-9 ]+)", text)
    return (tool.group(1) if tool else None), ({"query": query.group(1).strip()} if query else {})


class _FakeAPI:
    """Start with :meth:`start`, stop with :meth:`stop`; ``url`` is the base URL."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> _FakeAPI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, path: str, body: dict[str, Any], text: str) -> tuple[str, bytes]:
        """(content type, bytes) for one request."""
        raise NotImplementedError

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, kind: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._send("application/json", b'{"models": [], "data": []}')

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                text = raw.decode("utf-8", errors="replace")
                try:
                    body = json.loads(text)
                except ValueError:
                    body = {}
                with api._lock:
                    api.requests.append(body if isinstance(body, dict) else {})
                    api.paths.append(self.path)
                self._send(*api.answer(self.path, body, text))

        return Handler


class FakeGeminiAPI(_FakeAPI):
    """The Gemini API (``GOOGLE_GEMINI_BASE_URL``)."""

    def answer(self, path: str, body: dict[str, Any], text: str) -> tuple[str, bytes]:
        if ":countTokens" in path:
            return "application/json", b'{"totalTokens": 10}'
        tool, args = _marker(text)
        declared = {
            d.get("name")
            for t in body.get("tools") or []
            if isinstance(t, dict)
            for d in t.get("functionDeclarations") or []
            if isinstance(d, dict)
        }
        if tool in declared and '"functionResponse"' not in text:
            part: dict[str, Any] = {"functionCall": {"name": tool, "args": args}}
        else:
            part = {"text": "Done."}
        reply = {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 2,
                "totalTokenCount": 12,
            },
        }
        if "alt=sse" in path:
            return "text/event-stream", f"data: {json.dumps(reply)}\r\n\r\n".encode()
        return "application/json", json.dumps(reply).encode()


class FakeResponsesAPI(_FakeAPI):
    """The OpenAI Responses API (a Codex ``model_providers`` entry's ``base_url``)."""

    namespace = "mcp__rubi"

    def answer(self, path: str, body: dict[str, Any], text: str) -> tuple[str, bytes]:
        rid = f"resp_{next(self._ids)}"
        tool, args = _marker(text)
        item: dict[str, Any]
        if tool and '"tool_search_output"' not in text:
            item = {
                "type": "tool_search_call",
                "id": f"ts_{rid}",
                "call_id": f"call_ts_{rid}",
                "execution": "client",
                "status": "completed",
                "arguments": {"query": "rubi project memory search"},
            }
        elif tool and '"function_call_output"' not in text:
            item = {
                "type": "function_call",
                "id": f"fc_{rid}",
                "call_id": f"call_{rid}",
                "namespace": self.namespace,
                "name": tool,
                "arguments": json.dumps(args),
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_{rid}",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            }
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 2,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 12,
        }
        events = [
            {"type": "response.created", "response": {"id": rid}},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": {"id": rid, "usage": usage}},
        ]
        data = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
        return "text/event-stream", data.encode()
