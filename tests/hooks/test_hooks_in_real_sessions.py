"""Hooks under the conditions of real sessions: parallel tool
calls, Claude Code's compaction point, ``/clear``, and the read guard's second try."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.claude.hooks.compaction import ENV_READ, compaction_point, model_window
from rubi.claude.hooks.meter import MIN_HEADROOM, headroom
from rubi.engine.protocol import ENV_KEYS

from helpers import write


def _read_state(project: Path, session: str = "11111111-2222-3333-4444-555555555555") -> dict:
    path = app.locate(project / ".rubi").index_dir / "hooks" / f"{session}.json"
    data: dict = json.loads(path.read_text(encoding="utf-8"))
    return data


# -- 1. parallel tool hooks ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("event", "tool"),
    [("PostToolUse", "Grep"), ("PreToolUse", "Read")],
    ids=["searches-after", "reads-before"],
)
def test_eight_concurrent_hook_processes_count_eight(project: Path, event: str, tool: str) -> None:
    rubi = str(Path(sys.executable).with_name("rubi"))
    payload = json.dumps(base(project, event, tool_name=tool, tool_input={}, tool_response={}))
    procs = [
        subprocess.Popen(
            [rubi, "hook", event],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "RUBI_ENGINE": "0"},
        )
        for _ in range(8)
    ]
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(payload)
        p.stdin.close()
    for p in procs:
        assert p.wait(timeout=120) == 0
    assert _read_state(project)["explorations"] == 8


def test_threads_in_one_process_count_every_call(project: Path) -> None:
    """The engine answers one hook at a time in its process while cold ones run
    beside it: the lock holds in process too."""
    payload = base(project, "PostToolUse", tool_name="Grep", tool_input={}, tool_response={})
    threads = [threading.Thread(target=hook, args=("PostToolUse", payload)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _read_state(project)["explorations"] == 8


# -- 2. where Claude Code compacts ----------------------------------------------------------
@pytest.fixture
def claude_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key in ENV_READ:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    return tmp_path / "claude"


def test_compaction_point_of_install_settings(claude_home: Path, tmp_path: Path) -> None:
    write(claude_home / "settings.json", json.dumps({"autoCompactWindow": 150_000}))
    point = compaction_point(tmp_path, "claude-opus-4-8")
    # measured: effectiveWindow=130000 in the debug log, PreCompact past 117k
    assert (point.at, point.window, point.source, point.auto) == (
        117_000,
        150_000,
        "settings",
        True,
    )


def test_compaction_point_follows_claude_codes_precedence(
    claude_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(claude_home / "settings.json", json.dumps({"autoCompactWindow": 150_000}))
    write(tmp_path / ".claude" / "settings.local.json", json.dumps({"autoCompactWindow": 300_000}))
    assert compaction_point(tmp_path, "claude-opus-4-8").window == 300_000  # local wins
    monkeypatch.setenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "500000")
    assert compaction_point(tmp_path, "claude-opus-4-8").source == "env"
    assert compaction_point(tmp_path, "claude-sonnet-4-5").window == 200_000  # model cap
    monkeypatch.setenv("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "50")
    assert compaction_point(tmp_path, "claude-opus-4-8").at == 240_000
    monkeypatch.setenv("DISABLE_AUTO_COMPACT", "1")
    assert not compaction_point(tmp_path, "claude-opus-4-8").auto


def test_compaction_point_passes_over_a_fifo_settings_file(tmp_path: Path) -> None:
    """A project's ``.claude/settings.json`` that is a FIFO (a cloned repository's) is
    read as no settings: its open must not wait for a writer, the tool hook that asks
    for the compaction point would hang until Claude Code's timeout."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (tmp_path / ".claude").mkdir()
    os.mkfifo(tmp_path / ".claude" / "settings.json")
    probe = (
        "import sys; from pathlib import Path; "
        "from rubi.claude.hooks.compaction import compaction_point; "
        "print(compaction_point(Path(sys.argv[1]), 'claude-sonnet-4-5').at)"
    )
    env = {**os.environ, "HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
        check=True,
    )
    assert done.stdout.strip() == "167000"


def test_compaction_point_of_models_without_a_window(claude_home: Path, tmp_path: Path) -> None:
    assert compaction_point(tmp_path, "claude-opus-4-8").at == 967_000  # native 1M
    assert compaction_point(tmp_path, "claude-sonnet-4-5[1m]").at == 967_000
    assert compaction_point(tmp_path, "claude-sonnet-4-5").at == 167_000
    assert compaction_point(tmp_path, "", observed=250_000).at == 967_000  # seen past 200k
    assert model_window("claude-haiku-4-5") == 200_000


def test_the_engine_compares_every_variable_the_meter_reads() -> None:
    """The compaction rule's variables are one tuple, which the engine's fingerprint
    takes whole, and the rule reads no variable outside it."""
    from rubi.claude.hooks import compactenv, compaction

    assert ENV_READ is compactenv.COMPACTION_ENV
    assert set(ENV_READ) <= set(ENV_KEYS)
    tree = ast.parse(Path(compaction.__file__).read_text(encoding="utf-8"))
    read = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and ast.unparse(node.func.value) == "os.environ"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    assert read and read <= set(ENV_READ) | {"CLAUDE_CONFIG_DIR"}
    assert "CLAUDE_CONFIG_DIR" in ENV_KEYS


def _transcript(path: Path, tokens: int, model: str = "claude-opus-4-8") -> Path:
    line = {"type": "assistant", "message": {"model": model, "usage": {"input_tokens": tokens}}}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("settings", "below", "above"),
    [({"autoCompactWindow": 150_000}, 91_000, 92_500), ({}, 860_000, 871_000)],
    ids=["install-window", "1m-no-window"],
)
def test_meter_asks_before_the_compaction_point(
    project: Path, tmp_path: Path, claude_home: Path, settings: dict, below: int, above: int
) -> None:
    write(claude_home / "settings.json", json.dumps(settings))
    t = tmp_path / "t.jsonl"
    payload = base(
        project,
        "PostToolUse",
        transcript_path=str(t),
        tool_name="Bash",
        tool_input={"command": "make"},
        tool_response={},
    )
    _transcript(t, below)
    assert hook("PostToolUse", payload) is None
    _transcript(t, above)
    out = hook("PostToolUse", payload)
    assert out is not None and "Claude Code compacts at about" in json.dumps(out)
    assert hook("PostToolUse", payload) is None  # once


def test_headroom() -> None:
    assert headroom(117_000) == MIN_HEADROOM
    assert headroom(967_000) == 96_700


# -- 3. /clear -----------------------------------------------------------------------------
def test_clear_restores_the_cleared_sessions_record(project: Path, tmp_path: Path) -> None:
    old, new = "aaaaaaaa-0000-0000-0000-000000000001", "bbbbbbbb-0000-0000-0000-000000000002"
    folder = tmp_path / "transcripts"
    folder.mkdir()
    t_old = folder / f"{old}.jsonl"
    read = {
        "type": "assistant",
        "message": {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "Read",
                    "input": {"file_path": str(project / "src" / "auth.py")},
                }
            ],
        },
    }
    prompt = {"type": "user", "message": {"role": "user", "content": "fix the login bug"}}
    t_old.write_text(json.dumps(prompt) + "\n" + json.dumps(read) + "\n", encoding="utf-8")
    t_new = folder / f"{new}.jsonl"
    t_new.write_text("", encoding="utf-8")
    end = dict(base(project, "SessionEnd", reason="clear"), session_id=old)
    hook("SessionEnd", dict(end, transcript_path=str(t_old)))
    start = dict(base(project, "SessionStart", source="clear"), session_id=new)
    out = hook("SessionStart", dict(start, transcript_path=str(t_new)))
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "Latest session record" in context and "src/auth.py" in context
    assert "before /clear" in context


def test_clear_without_a_pointer_finds_the_sibling_transcript(
    project: Path, tmp_path: Path
) -> None:
    from rubi.claude.hooks.context import open_context
    from rubi.claude.hooks.previous import find_previous

    folder = tmp_path / "transcripts"
    folder.mkdir()
    (folder / "aaaa-1.jsonl").write_text("{}\n", encoding="utf-8")
    current = folder / "bbbb-2.jsonl"
    current.write_text("", encoding="utf-8")
    payload = dict(base(project, "SessionStart", source="clear"), session_id="bbbb-2")
    ctx = open_context(dict(payload, transcript_path=str(current)), "SessionStart")
    found = find_previous(ctx)
    assert found is not None and found.session_id == "aaaa-1"


# -- 4. the read guard -----------------------------------------------------------------------
def test_second_identical_whole_read_goes_through_with_an_outline_first(project: Path) -> None:
    text = "".join(f"def handler_{i}(request):\n    return {i}\n\n\n" for i in range(400))
    big = write(project / "src" / "big.py", text)
    app.index(app.locate(project / ".rubi"))
    payload = base(project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(big)})
    first = hook("PreToolUse", payload)
    assert first is not None
    reason = first["hookSpecificOutput"]["permissionDecisionReason"]
    assert "function handler_0: lines 1-4" in reason and "smaller symbols not listed" in reason
    assert hook("PreToolUse", payload) is None  # asked again: it reads
    assert hook("PreToolUse", payload) is not None  # a later whole read is denied again
    ranged = dict(payload, tool_input={"file_path": str(big), "offset": 1, "limit": 2000})
    assert hook("PreToolUse", ranged) is not None  # another read: its own first denial
