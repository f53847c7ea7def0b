"""Claude Code (2.1.197) as a client of ``rubi serve --http``'s front: its session as
it sends it (its ``initialize``, then a tool call whose ``_meta`` holds a progress
token and ``claudecode/toolUseId``, as every call of its carries) is answered before
the MCP SDK is built, with the SDK's answer; a ``_meta`` the SDK could read otherwise
is the SDK's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from rubi.core.paths import VaultPaths
from rubi.mcp.httpfront import HttpFront
from rubi.mcp.shapes import handshake_meta

from httpfronts import CLAUDE_CODE_INIT, TOKEN, asgi_client, make_front, trie_project

ERA = "2025-11-25"
HEADERS = {  # Claude Code's, as it sends them
    "Accept": "application/json, text/event-stream",
    "Accept-Encoding": "identity",
    "Authorization": f"Bearer {TOKEN}",
    "Content-Type": "application/json",
    "User-Agent": "claude-code/2.1.197 (sdk-cli)",
}
INITIALIZE = {"method": "initialize", "params": CLAUDE_CODE_INIT, "jsonrpc": "2.0", "id": 0}
CC_META = {"claudecode/toolUseId": "toolu_01", "progressToken": 2}


def _call(rid: int, meta: Any) -> dict[str, Any]:
    params = {"name": "search", "arguments": {"query": "trie"}, "_meta": meta}
    return {"method": "tools/call", "params": params, "jsonrpc": "2.0", "id": rid}


CC_SESSION = [
    {"method": "notifications/initialized", "jsonrpc": "2.0"},
    {"method": "tools/list", "jsonrpc": "2.0", "id": 1},
    _call(2, CC_META),
    _call(3, {"progressToken": "p"}),
]


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    return trie_project(tmp_path)


async def _session(front: HttpFront, messages: list[dict[str, Any]]) -> list[Any]:
    """Claude Code's session: status, content type and body of each answer."""
    got: list[Any] = []
    async with asgi_client(front) as c:
        r = await c.post("/mcp", content=json.dumps(INITIALIZE), headers=HEADERS)
        sid = r.headers["mcp-session-id"]
        headers = {**HEADERS, "mcp-protocol-version": ERA, "mcp-session-id": sid}
        for msg in messages:
            r = await c.post("/mcp", content=json.dumps(msg), headers=headers)
            text = r.text
            body = json.loads(text.split("data: ", 1)[1]) if "data: " in text else text
            got.append((r.status_code, r.headers.get("content-type"), body))
    return got


@pytest.mark.timeout(120)
def test_claude_codes_tool_call_is_answered_before_the_sdk_is_built(project: VaultPaths) -> None:
    front = make_front(project)
    by_front = asyncio.run(_session(front, CC_SESSION))
    assert front._sdk is None  # no SDK was built: every answer was the front's
    assert front.answered == 1 + len(CC_SESSION)
    by_sdk = asyncio.run(_session(make_front(project, answer=False), CC_SESSION))
    assert by_front == by_sdk
    assert "decision-route-with-a-trie" in json.dumps(by_front[2])
    assert by_front[2][2]["result"]["isError"] is False


SDKS_META = [
    None,
    [],
    {"progressToken": True},
    {"progressToken": None},
    {"progressToken": 1.5},
    {"progressToken": {"a": 1}},
    {"io.modelcontextprotocol/protocolVersion": ERA},
    {"io.modelcontextprotocol/related-task": {"taskId": "t"}},
]


@pytest.mark.parametrize("meta", SDKS_META)
def test_a_meta_the_sdk_may_read_otherwise_is_the_sdks(meta: Any) -> None:
    assert not handshake_meta(meta)


@pytest.mark.parametrize("meta", [{}, CC_META, {"progressToken": "p"}, {"x/y": [1, None]}])
def test_a_meta_the_sdk_reads_as_none_is_plain(meta: Any) -> None:
    assert handshake_meta(meta)


@pytest.mark.timeout(120)
def test_a_call_with_a_meta_the_sdk_reads_is_the_sdks(project: VaultPaths) -> None:
    session = [CC_SESSION[0], _call(2, {"progressToken": True})]
    front = make_front(project)
    by_front = asyncio.run(_session(front, session))
    assert front._sdk is not None  # handed over
    assert by_front == asyncio.run(_session(make_front(project, answer=False), session))
