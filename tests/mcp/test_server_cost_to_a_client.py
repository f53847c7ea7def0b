"""What the server costs a client and where it starts: tools
only (no prompts or resources advertised, so Claude Code adds no resource tools),
short schemas, and a server that starts in a folder without ``.rubi/``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_wire import INIT, Wire, request
from rubi.mcp.front import greet, load_handshake
from rubi.mcp.server import INSTRUCTIONS, NO_PROJECT_INSTRUCTIONS, open_vault
from rubi.mcp.toolschema import compact_schema


def test_only_tools_are_advertised() -> None:
    handshake = load_handshake()
    assert handshake is not None
    for result in handshake.results["initialize"].values():
        assert set(result["capabilities"]) == {"tools"}


def test_the_greeting_refuses_lists_it_does_not_serve() -> None:
    handshake = load_handshake()
    wire = Wire()
    try:
        wire.send(
            request(1, "initialize", INIT),
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            request(2, "resources/list"),
            request(3, "prompts/list"),
            request(4, "tools/list"),
        )
        wire.end()
        assert greet(wire.reader, wire.writer, handshake) is None
        replies = {r["id"]: r for r in wire.replies()}
    finally:
        wire.close()
    assert replies[2]["error"]["code"] == -32601 and replies[3]["error"]["code"] == -32601
    assert [t["name"] for t in replies[4]["result"]["tools"]][:3] == ["search", "read", "map"]


def test_schemas_drop_titles_and_null_options_only() -> None:
    schema = {
        "title": "registerArguments",
        "type": "object",
        "properties": {
            "title": {"title": "Title", "type": "string"},
            "files": {
                "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
                "default": None,
                "title": "Files",
            },
            "scope": {"default": "project", "enum": ["project", "personal"], "title": "Scope"},
        },
        "required": ["title"],
    }
    assert compact_schema(schema) == {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "files": {"type": "array", "items": {"type": "string"}},
            "scope": {"default": "project", "enum": ["project", "personal"]},
        },
        "required": ["title"],
    }


def test_tool_schemas_stay_small() -> None:
    handshake = load_handshake()
    assert handshake is not None
    tools = handshake.answer("tools/list", "2025-11-25")["tools"]
    text = json.dumps([{k: t[k] for k in ("name", "description", "inputSchema")} for t in tools])
    assert len(text) / 4 < 800
    assert len(INSTRUCTIONS) / 4 < 100


def test_a_folder_without_rubi_serves_the_personal_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.chdir(plain)
    paths, instructions = open_vault(None)
    assert instructions == NO_PROJECT_INSTRUCTIONS and "rubi init" in instructions
    assert paths.root.is_dir() and not (plain / ".rubi").exists()
    handshake = load_handshake()
    assert handshake is not None
    told = handshake.with_instructions(instructions).answer("initialize", "2025-06-18")
    assert told["instructions"] == NO_PROJECT_INSTRUCTIONS
