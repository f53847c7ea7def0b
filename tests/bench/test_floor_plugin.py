"""bench/floor_plugin.py and bench/floor_mcp.py: the session bench's do-nothing plugin
of rubi's shape (the same hooks with no work, a one-tool server with empty answers)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers import REPO


@pytest.fixture(scope="module")
def floor() -> tuple[ModuleType, ModuleType]:
    sys.path.insert(0, str(REPO / "bench"))
    import floor_mcp
    import floor_plugin

    return floor_plugin, floor_mcp


def test_the_floor_plugin_has_rubis_hooks_with_no_command_left(
    floor: tuple[ModuleType, ModuleType], tmp_path: Path
) -> None:
    floor_plugin, _ = floor
    dest = floor_plugin.make_floor_plugin(tmp_path / "floor", REPO)
    ours = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    got = json.loads((dest / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    assert list(got) == list(ours)
    for event, groups in ours.items():
        assert [g.get("matcher") for g in got[event]] == [g.get("matcher") for g in groups]
        for mine, theirs in zip(got[event], groups, strict=True):
            for h, o in zip(mine["hooks"], theirs["hooks"], strict=True):
                assert h["type"] == o["type"] and h.get("timeout") == o.get("timeout")
                if o["type"] == "command":
                    assert h["command"] == "true"
                else:
                    assert h == o  # mcp_tool routes: the same server, tool and input
    manifest = json.loads((dest / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "rubi"  # the routes name plugin:rubi:rubi
    server = json.loads((dest / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["rubi"]
    assert server["args"][-1].endswith("floor_mcp.py")
    assert not (dest / "skills").exists() and not (dest / "agents").exists()
    with pytest.raises(FileExistsError):
        floor_plugin.make_floor_plugin(dest, REPO)


def test_floor_hooks_refuses_a_document_without_hooks(
    floor: tuple[ModuleType, ModuleType],
) -> None:
    floor_plugin, _ = floor
    with pytest.raises(ValueError):
        floor_plugin.floor_hooks({"description": "no hooks"})


def test_the_floor_server_answers_the_handshake_the_list_and_a_call_with_nothing(
    floor: tuple[ModuleType, ModuleType],
) -> None:
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "X"}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "hook"}},
        {"jsonrpc": "2.0", "id": 4, "method": "ping"},
    ]
    stdin = "\n".join(json.dumps(m) for m in lines) + "\nnot json\n[1]\n"
    done = subprocess.run(
        [sys.executable, "-S", "-E", str(REPO / "bench" / "floor_mcp.py")],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert [m["id"] for m in got] == [1, 2, 3, 4]
    assert got[0]["result"]["protocolVersion"] == "X"
    assert "instructions" not in got[0]["result"]
    assert [t["name"] for t in got[1]["result"]["tools"]] == ["hook"]
    assert got[2]["result"]["content"] == [{"type": "text", "text": ""}]
    assert got[3]["result"] == {}
