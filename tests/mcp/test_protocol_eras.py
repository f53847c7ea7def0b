"""Both MCP eras on the fast path: a client of the ``initialize`` handshake
(2025-11-25) and a stateless client of 2026-07-28 (``server/discover``, ``_meta`` on
every request) are answered from the snapshot before the SDK is loaded, and see the
same capabilities and the same tools."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_project import small_project
from mcp_stdio import CLIENT, HANDSHAKE_ERA, MODERN_ERA, Served, envelope
from mcp_wire import INIT, Wire, request
from rubi.mcp.front import greet, load_handshake
from rubi.mcp.server import INSTRUCTIONS, NO_PROJECT_INSTRUCTIONS


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    yield w
    w.close()


def modern(rid: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return request(rid, method, {**(params or {}), "_meta": envelope()})


def test_a_2026_client_is_answered_from_the_snapshot(wire: Wire) -> None:
    call = modern(3, "tools/call", {"name": "search", "arguments": {"query": "x"}})
    wire.send(modern(1, "server/discover"), modern(2, "tools/list"), call)
    handover = greet(wire.reader, wire.writer, load_handshake())
    discovered, listed = wire.replies()
    assert discovered["id"] == 1 and listed["id"] == 2
    assert MODERN_ERA in discovered["result"]["supportedVersions"]
    assert {"search", "read", "register"} <= {t["name"] for t in listed["result"]["tools"]}
    # the SDK is shown the request that opened the era, then gets the call
    assert handover is not None and handover.answered_id == 1
    assert handover.answered == {"result": discovered["result"]}
    assert [json.loads(line) for line in handover.replay] == [modern(1, "server/discover"), call]


@pytest.mark.parametrize(
    "meta",
    [
        {**envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01"},
        {**envelope(), "progressToken": 7},
        {k: v for k, v in envelope().items() if not k.endswith("clientCapabilities")},
        {**envelope(), "io.modelcontextprotocol/clientInfo": {"name": 3}},
    ],
    ids=["unknown revision", "extra key", "no capabilities", "bad client info"],
)
def test_a_2026_request_of_another_shape_goes_to_the_sdk(wire: Wire, meta: dict[str, Any]) -> None:
    first = request(1, "server/discover", {"_meta": meta})
    wire.send(first)
    handover = greet(wire.reader, wire.writer, load_handshake())
    assert wire.replies() == []
    assert handover is not None and [json.loads(x) for x in handover.replay] == [first]


def test_a_handshake_after_a_2026_request_goes_to_the_sdk(wire: Wire) -> None:
    wire.send(modern(1, "server/discover"), request(2, "initialize", INIT))
    handover = greet(wire.reader, wire.writer, load_handshake())
    assert [r["id"] for r in wire.replies()] == [1]
    assert handover is not None and json.loads(handover.replay[-1])["method"] == "initialize"


SERVER_INFO = "io.modelcontextprotocol/serverInfo"
"""Where a 2026-07-28 ``server/discover`` result names the server (its ``_meta``)."""


def era_view(project: Path, era: str) -> dict[str, Any]:
    """What a client of ``era`` is told when it opens a connection and lists the tools:
    capabilities, instructions, server info, tools and the tools list's ``ttlMs``."""
    with Served(project, era) as served:
        opened = served.open()
        listed = served.ask("tools/list")["result"]
    info = opened.get("serverInfo") or opened.get("_meta", {}).get(SERVER_INFO)
    return {
        "capabilities": opened["capabilities"],
        "instructions": opened.get("instructions"),
        "server": info,
        "tools": listed["tools"],
        "ttl": listed.get("ttlMs"),
    }


@pytest.mark.slow
def test_both_eras_see_the_same_capabilities_instructions_and_tools(tmp_path: Path) -> None:
    project = small_project(tmp_path / "proj")
    old, new = era_view(project, HANDSHAKE_ERA), era_view(project, MODERN_ERA)
    assert new["capabilities"] == old["capabilities"] == {"tools": {"listChanged": False}}
    assert new["instructions"] == old["instructions"] == INSTRUCTIONS
    assert new["server"] == old["server"] and old["server"]["name"] == "rubi"
    assert new["tools"] == old["tools"]
    assert {t["name"] for t in old["tools"]} >= {"search", "read", "timeline", "register"}
    assert isinstance(new["ttl"], int) and new["ttl"] > 0  # the list never changes


@pytest.mark.slow
def test_both_eras_are_told_alike_outside_a_project(tmp_path: Path) -> None:
    """No ``.rubi/`` here: the personal vault is served, and both eras are told so."""
    folder = tmp_path / "no-project"
    folder.mkdir()
    old, new = era_view(folder, HANDSHAKE_ERA), era_view(folder, MODERN_ERA)
    assert new["instructions"] == old["instructions"] == NO_PROJECT_INSTRUCTIONS
    assert new["capabilities"] == old["capabilities"]
    assert new["tools"] == old["tools"]


@pytest.mark.slow
def test_the_sdk_serves_a_2026_client_after_the_greeting(tmp_path: Path) -> None:
    project = small_project(tmp_path / "proj")
    with Served(project, MODERN_ERA) as served:
        served.open()
        # a string for an integer: the SDK's model coerces it, so the SDK answers
        result = served.call("search", {"query": "trie", "budget_tokens": "800"})
        assert result["isError"] is False
        assert result["resultType"] == "complete"
        assert "decision-route-with-a-trie" in result["content"][0]["text"]
        again = served.ask("server/discover")["result"]
        handshake = {"protocolVersion": HANDSHAKE_ERA, "capabilities": {}, "clientInfo": CLIENT}
        served.send(request(50, "initialize", handshake))
        refused = served.reply(50)
    assert again["capabilities"] == {"tools": {"listChanged": False}}
    assert refused["error"]["data"]["supported"] == [MODERN_ERA]  # no handshake in this era
