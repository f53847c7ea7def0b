"""The snapshot :mod:`rubi.mcp.front` answers from: what the SDK answers to
``initialize``, ``server/discover``, the list requests and ``ping``, for every protocol
revision (the handshake era up to 2025-11-25, the per-request envelope of 2026-07-28).

Run ``python -m rubi.mcp.handshake`` after changing a tool (name, description,
arguments), the server's instructions, or the MCP SDK version; a test compares the
file with :func:`snapshot`.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["HANDSHAKE_FILE", "render", "snapshot"]

HANDSHAKE_FILE = "handshake.json"
"""Its name, next to this module."""


def _requests(version: str, modern: bool) -> list[dict[str, Any]]:
    """What a client sends first at ``version``: the ``initialize`` handshake then the
    list requests (up to 2025-11-25), or the same requests each with the per-request
    envelope (2026-07-28 on: ``server/discover`` first, no handshake)."""
    from rubi.mcp.front import CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LISTS, VERSION_KEY

    client = {"name": "rubi-handshake", "version": "0"}
    if modern:
        meta = {VERSION_KEY: version, CLIENT_INFO_KEY: client, CLIENT_CAPABILITIES_KEY: {}}
        methods = ("server/discover", *LISTS, "ping")
        return [
            {"jsonrpc": "2.0", "id": i, "method": m, "params": {"_meta": meta}}
            for i, m in enumerate(methods, start=1)
        ]
    return [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": client},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *({"jsonrpc": "2.0", "id": i, "method": m} for i, m in enumerate((*LISTS, "ping"), 1)),
    ]


async def _answers(version: str, modern: bool) -> dict[str, tuple[str, Any]]:
    """The SDK's answers on one connection at protocol ``version``, by method:
    ``("result", result)`` or ``("error", error)``."""
    import anyio
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCResponse, jsonrpc_message_adapter

    from rubi.core.paths import VaultPaths
    from rubi.mcp.server import build_server

    nowhere = Path("unused")  # the tools are only described, never called
    server = build_server(VaultPaths(root=nowhere, index_dir=nowhere))
    lowlevel = server._lowlevel_server
    sent = _requests(version, modern)
    methods = {m["id"]: m["method"] for m in sent if "id" in m}
    to_server, server_in = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    server_out, from_server = anyio.create_memory_object_stream[SessionMessage](16)
    answers: dict[str, tuple[str, Any]] = {}
    async with from_server, server_in, server_out, anyio.create_task_group() as tg:
        options = lowlevel.create_initialization_options()
        tg.start_soon(lowlevel.run, server_in, server_out, options)
        async with to_server:
            for message in sent:
                parsed = jsonrpc_message_adapter.validate_json(json.dumps(message), by_name=False)
                await to_server.send(SessionMessage(parsed))
            while len(answers) < len(methods):
                reply = (await from_server.receive()).message
                wire = json.loads(reply.model_dump_json(by_alias=True, exclude_unset=True))
                if "id" not in wire:
                    continue  # a notification
                kind = "result" if isinstance(reply, JSONRPCResponse) else "error"
                answers[methods[wire["id"]]] = (kind, wire[kind])
        tg.cancel_scope.cancel()
    return answers


def snapshot() -> dict[str, Any]:
    """The contents of :data:`HANDSHAKE_FILE` for the installed SDK and these tools:
    ``{"mcp", "latest", "modern": [revisions], "results": {method: {revision:
    result}}, "errors": {method: {revision: error}}}``."""
    from importlib.metadata import version as dist_version

    import anyio
    from mcp_types.version import (
        HANDSHAKE_PROTOCOL_VERSIONS,
        LATEST_HANDSHAKE_VERSION,
        MODERN_PROTOCOL_VERSIONS,
    )

    found: dict[str, dict[str, dict[str, Any]]] = {"result": {}, "error": {}}
    for revision in (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS):
        modern = revision in MODERN_PROTOCOL_VERSIONS
        for method, (kind, answer) in anyio.run(_answers, revision, modern).items():
            found[kind].setdefault(method, {})[revision] = answer
    return {
        "mcp": dist_version("mcp"),
        "latest": LATEST_HANDSHAKE_VERSION,
        "modern": list(MODERN_PROTOCOL_VERSIONS),
        "results": found["result"],
        "errors": found["error"],
    }


def render(data: dict[str, Any]) -> str:
    """The file's text, ending with a newline: every object's keys in the order the SDK
    writes them (the greeting answers from it, and its replies are the SDK's byte for
    byte: a tool's input schema lists its arguments as the tool declares them, an
    error its ``code``, ``message``, ``data``)."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    """Write the snapshot next to this module (in a source checkout)."""
    target = Path(str(resources.files("rubi.mcp").joinpath(HANDSHAKE_FILE)))
    target.write_text(render(snapshot()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
