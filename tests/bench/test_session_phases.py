"""bench/session_phases.py: the plugin copy that records a real session's MCP stream
and command-hook payloads, and the session id a replay gives itself."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers import REPO


@pytest.fixture(scope="module")
def sp() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))
    import session_phases

    return session_phases


def test_the_capture_plugin_tees_the_server_stream_and_the_two_command_hooks(
    sp: ModuleType, tmp_path: Path
) -> None:
    caught = tmp_path / "caught"
    plugin = sp.capture_plugin(tmp_path / "plugin", caught)
    server = json.loads((plugin / ".mcp.json").read_text())["mcpServers"]["rubi"]
    assert server["args"] == ["-c", f"tee {caught}/mcp.jsonl | rubi serve"]
    shipped = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    copied = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]
    for event in ("SessionStart", "SessionEnd"):
        command = copied[event][0]["hooks"][0]["command"]
        assert f"tee {caught}/{event}.json | rubi hook {event}" in command
        assert "exec rubi" not in command
    assert "matcher" not in copied["SessionEnd"][0]  # captured at every end
    others = set(shipped) - {"SessionStart", "SessionEnd"}
    assert others and all(copied[e] == shipped[e] for e in others)  # mcp_tool hooks as shipped
    assert (plugin / ".claude-plugin" / "plugin.json").exists()


def test_a_replay_gets_a_session_id_of_its_own_and_keeps_the_transcript(
    sp: ModuleType,
) -> None:
    old, new = "6d230133-aaaa", "6d230133-0001"
    line = json.dumps(
        {"session_id": old, "transcript_path": f"/p/{old}.jsonl"}, separators=(",", ":")
    )
    spaced = json.dumps({"session_id": old, "transcript_path": f"/p/{old}.jsonl"})
    for text in (line, spaced):
        got = json.loads(sp._renamed(text, old, new))
        assert got == {"session_id": new, "transcript_path": f"/p/{old}.jsonl"}


def test_the_cold_recall_reads_the_session_s_first_prompt_as_a_command_hook_would(
    sp: ModuleType,
) -> None:
    def call(rid: int, **arguments: str) -> str:
        params = {"name": "hook", "arguments": arguments}
        return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})

    stream = [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}),
        call(1, event="PreToolUse", session_id="s", cwd="/p", tool_name="Read", tool_input="{}"),
        call(
            2,
            event="UserPromptSubmit",
            session_id="s",
            cwd="/p",
            prompt="why sqlite",
            transcript_path="",
        ),
        call(3, event="UserPromptSubmit", session_id="s", cwd="/p", prompt="a second one"),
    ]
    payload = json.loads(sp.cold_prompt(stream))
    assert payload == {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": "/p",
        "prompt": "why sqlite",
    }  # the first prompt's, its empty fields left out as payload_of leaves them
    assert sp.cold_prompt(stream[:2]) is None


def test_the_server_s_recall_text_is_the_first_tool_call_s_answer(sp: ModuleType) -> None:
    answers = [
        {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25"}},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "search"}]}},
        {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"text": "recalled", "type": "text"}]}},
        {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"text": "", "type": "text"}]}},
    ]
    raw = b"".join(json.dumps(a).encode() + b"\n" for a in answers)
    assert sp._hook_text(raw) == b"recalled"
    assert sp._hook_text(raw.split(b"\n", 2)[0]) == b""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux /proc only")
def test_the_cpu_per_thread_is_read_by_os_thread_name(sp: ModuleType) -> None:
    import ctypes
    import os
    import threading

    named, done = threading.Event(), threading.Event()

    def probe() -> None:
        ctypes.CDLL(None).prctl(15, b"probe-thread", 0, 0, 0)
        named.set()
        done.wait(10)

    thread = threading.Thread(target=probe)
    thread.start()
    try:
        assert named.wait(10)
        spent = sp._threads_cpu(os.getpid())
    finally:
        done.set()
        thread.join(10)
    assert {"thread main", "thread probe-thread"} <= set(spent)
    assert all(seconds >= 0.0 for seconds in spent.values())


def test_the_table_lists_a_phase_only_one_tree_has(
    sp: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    sp.print_phases(
        {
            "base": {"initialize": [0.07], "thread rubi-watch": [0.03, 0.05]},
            "new": {"initialize": [0.06]},
        }
    )
    rows = capsys.readouterr().out.splitlines()
    assert "| initialize | 70 (70-70) | 60 (60-60) |" in rows
    assert "| thread rubi-watch | 40 (30-50) | 0 (0-0) |" in rows


def test_a_tree_runs_the_session_end_command_only_for_the_reasons_its_plugin_matches(
    sp: ModuleType, tmp_path: Path
) -> None:
    def tree(groups: list[dict[str, object]]) -> str:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        (folder / "hooks").mkdir(parents=True)
        (folder / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {"SessionEnd": groups}}))
        return str(folder / "src")

    command = {"hooks": [{"type": "command", "command": "rubi hook SessionEnd"}]}
    every, some = tree([command]), tree([{**command, "matcher": "clear|resume"}])
    ended = json.dumps({"reason": "other"}).encode()
    cleared = json.dumps({"reason": "clear"}).encode()
    assert sp.runs_session_end(every, ended) and sp.runs_session_end(every, cleared)
    assert not sp.runs_session_end(some, ended) and sp.runs_session_end(some, cleared)
    assert not sp.runs_session_end(tree([]), ended)
    assert sp.runs_session_end(str(REPO / "src"), cleared)
    assert not sp.runs_session_end(str(REPO / "src"), ended)
