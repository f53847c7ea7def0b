"""A do-nothing MCP server for the session bench's floor plugin (:mod:`floor_plugin`):
newline-delimited JSON-RPC on stdin and stdout (the MCP stdio transport), standard
library only, so what Claude Code spends on it is the client side of any stdio server.

It answers ``initialize`` (the client's protocol version echoed, a ``tools``
capability, no instructions), ``tools/list`` (one tool, ``hook``, that takes any
object) and ``tools/call`` (an empty text: a hook with nothing to say), ``{}`` to any
other request, and nothing to notifications or lines that are not JSON objects. It
ends at the end of its input.

Usage (what the floor plugin's ``.mcp.json`` runs)::

    python -S -E bench/floor_mcp.py
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

TOOL = {
    "name": "hook",
    "description": "Answers every hook with nothing.",
    "inputSchema": {"type": "object", "properties": {}, "additionalProperties": True},
}
"""The server's one tool: the name the plugin's ``mcp_tool`` hooks call."""


def answer(message: Any) -> dict[str, Any] | None:
    """The JSON-RPC response to one parsed message; None for a notification or
    anything that is not a request (no ``id`` or no ``method``)."""
    if not isinstance(message, dict) or "id" not in message or "method" not in message:
        return None
    method = message["method"]
    result: dict[str, Any]
    if method == "initialize":
        params = message.get("params") or {}
        version = params.get("protocolVersion") if isinstance(params, dict) else None
        result = {
            "protocolVersion": version if isinstance(version, str) else "2025-11-25",
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "floor", "version": "0"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": ""}], "isError": False}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def serve(lines: TextIO, out: TextIO) -> int:
    """Answer each line of ``lines`` on ``out`` until the input ends; the count of
    responses written."""
    sent = 0
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        response = answer(message)
        if response is not None:
            out.write(json.dumps(response, separators=(",", ":")) + "\n")
            out.flush()
            sent += 1
    return sent


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
