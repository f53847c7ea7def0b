"""The snapshot :mod:`rubi.mcp.front` answers from: what the SDK answers to
``initialize`` and the list requests, for every protocol revision with a handshake.

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


async def _answers(version: str) -> dict[str, Any]:
    """The SDK's results, by method, on one connection at protocol ``version``."""
    import anyio
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCResponse, jsonrpc_message_adapter

    from rubi.core.paths import VaultPaths
    from rubi.mcp.front import LISTS
    from rubi.mcp.server import build_server

    nowhere = Path("unused")  # the tools are only described, never called
    server = build_server(VaultPaths(root=nowhere, index_dir=nowhere))
    lowlevel = server._lowlevel_server
    client = {"name": "rubi-handshake", "version": "0"}
    sent: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": client},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        *({"jsonrpc": "2.0", "id": i, "method": m} for i, m in enumerate(LISTS, start=1)),
    ]
    methods = {m["id"]: m["method"] for m in sent if "id" in m}
    to_server, server_in = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    server_out, from_server = anyio.create_memory_object_stream[SessionMessage](16)
    results: dict[str, Any] = {}
    async with from_server, server_in, server_out, anyio.create_task_group() as tg:
        options = lowlevel.create_initialization_options()
        tg.start_soon(lowlevel.run, server_in, server_out, options)
        async with to_server:
            for message in sent:
                parsed = jsonrpc_message_adapter.validate_json(json.dumps(message), by_name=False)
                await to_server.send(SessionMessage(parsed))
            while len(results) < len(methods):
                reply = (await from_server.receive()).message
                wire = json.loads(reply.model_dump_json(by_alias=True, exclude_unset=True))
                method = methods[wire["id"]]
                results[method] = wire["result"] if isinstance(reply, JSONRPCResponse) else None
    return {m: r for m, r in results.items() if r is not None}


def snapshot() -> dict[str, Any]:
    """The contents of :data:`HANDSHAKE_FILE` for the installed SDK and these tools."""
    from importlib.metadata import version as dist_version

    import anyio
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    results: dict[str, dict[str, Any]] = {}
    for revision in HANDSHAKE_PROTOCOL_VERSIONS:
        for method, result in anyio.run(_answers, revision).items():
            results.setdefault(method, {})[revision] = result
    return {"mcp": dist_version("mcp"), "latest": LATEST_HANDSHAKE_VERSION, "results": results}


def render(data: dict[str, Any]) -> str:
    """The file's text: stable order, one revision a line group, ends with a newline."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    """Write the snapshot next to this module (in a source checkout)."""
    target = Path(str(resources.files("rubi.mcp").joinpath(HANDSHAKE_FILE)))
    target.write_text(render(snapshot()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
