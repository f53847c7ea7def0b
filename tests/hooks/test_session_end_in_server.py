"""SessionEnd's work done by the plugin's server (:mod:`rubi.engine.sessionend`): the
cost-line pointer before the first hook of each session, and at the server's end the
pointer again and a prompt that got no answer, captured, whether the server ends by
its stdin closing or by Claude Code's ``SIGINT``."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from hooks.hookhelpers import base, hook
from mcp_stdio import HANDSHAKE_ERA, Served
from rubi.claude.hooks.context import open_context
from rubi.claude.pluginhooks import PLUGIN_MATCHERS, plugin_hook_groups
from rubi.engine.sessionend import END_REASON, SessionEnds
from rubi.mcp.hooktool import HOOK_TOOL

SESSION = "11111111-2222-3333-4444-555555555555"
PROMPT = "why does the login token expire at midnight"


def _pointer(project: Path) -> dict[str, Any] | None:
    vault = open_context(base(project, "SessionEnd"), "SessionEnd").vault
    assert vault is not None
    path = vault.index_dir / "hooks" / "ended.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _hook(project: Path, event: str, session: str = SESSION, **extra: str) -> dict[str, Any]:
    (project / f"{session}.jsonl").touch()
    return {
        "event": event,
        "session_id": session,
        "transcript_path": str(project / f"{session}.jsonl"),
        "cwd": str(project),
        **extra,
    }


def test_the_first_hook_of_a_session_leaves_the_pointer_before_it_is_answered(
    project: Path,
) -> None:
    seen: list[Any] = []

    def answer(arguments: Any) -> str:
        seen.append((arguments, _pointer(project)))
        return "answered"

    ends = SessionEnds(answer)
    first = _hook(project, "UserPromptSubmit", prompt=PROMPT)
    Path(first["transcript_path"]).unlink()  # not written yet: no pointer
    assert ends(first) == "answered"
    second = _hook(project, "PreToolUse", tool_name="Read", tool_input="{}")
    assert ends(second) == "answered"
    assert ends(first) == "answered"
    assert seen == [
        (first, None),
        (second, {"session_id": SESSION, "transcript_path": first["transcript_path"]}),
        (first, {"session_id": SESSION, "transcript_path": first["transcript_path"]}),
    ]
    # a second session in the same server: its own pointer; not a hook: nothing
    assert ends(_hook(project, "Stop", session="s-2")) == "answered"
    assert _pointer(project) == {"session_id": "s-2", "transcript_path": str(project / "s-2.jsonl")}
    assert ends({"event": "SessionEnd"}) == "answered"
    assert ends(["not", "a", "hook"]) == "answered"


def test_close_ends_the_last_session_once(project: Path) -> None:
    ends = SessionEnds(lambda arguments: "")
    ends.close()  # no session seen: nothing written
    assert _pointer(project) is None
    ends(_hook(project, "UserPromptSubmit", prompt=PROMPT))
    context = open_context(base(project, "SessionEnd", session_id=SESSION), "SessionEnd")
    with context.session_state() as state:  # as the UserPromptSubmit handler leaves it
        state.prompt = PROMPT
    context.vault.index_dir.joinpath("hooks", "ended.json").unlink()  # type: ignore[union-attr]
    ends.close()
    assert _pointer(project) == {
        "session_id": SESSION,
        "transcript_path": str(project / f"{SESSION}.jsonl"),
    }
    assert context.load_state().prompt == ""
    (record,) = (project / ".rubi" / "sessions").glob("*.md")
    text = record.read_text(encoding="utf-8")
    assert PROMPT in text and "(the session ended before an answer)" in text
    context.vault.index_dir.joinpath("hooks", "ended.json").unlink()  # type: ignore[union-attr]
    ends.close()
    assert _pointer(project) is None


@pytest.mark.slow
@pytest.mark.parametrize("how", ["stdin closed", "SIGINT", "SIGINT, then SIGTERM"])
def test_rubi_serve_does_session_ends_work_when_it_stops(project: Path, how: str) -> None:
    """Claude Code stops a plugin's server with ``SIGINT`` (then ``SIGTERM`` 100 ms
    later): a prompt the session sent and never got an answer to is in the session
    record once the server has ended, as the SessionEnd command captured it."""
    with Served(project, HANDSHAKE_ERA) as served:
        served.open()
        result = served.call(HOOK_TOOL, _hook(project, "UserPromptSubmit", prompt=PROMPT))
        assert result["isError"] is False
        if how.startswith("SIGINT"):
            served.proc.send_signal(signal.SIGINT)
            if how.endswith("SIGTERM"):  # Claude Code's SIGTERM, 100 ms after its SIGINT
                time.sleep(0.1)
                served.proc.send_signal(signal.SIGTERM)
            served.proc.wait(timeout=30)
    assert _pointer(project) == {
        "session_id": SESSION,
        "transcript_path": str(project / f"{SESSION}.jsonl"),
    }
    (record,) = (project / ".rubi" / "sessions").glob("*.md")
    assert "(the session ended before an answer)" in record.read_text(encoding="utf-8")


def test_the_plugin_runs_session_end_only_where_its_server_lives_on() -> None:
    groups = plugin_hook_groups()
    assert groups["SessionEnd"]["matcher"] == PLUGIN_MATCHERS["SessionEnd"] == "clear|resume"
    assert END_REASON not in PLUGIN_MATCHERS["SessionEnd"].split("|")
    plugin = Path(__file__).resolve().parents[2] / "hooks" / "hooks.json"
    hooks = json.loads(plugin.read_text(encoding="utf-8"))["hooks"]
    assert hooks["SessionEnd"] == [groups["SessionEnd"]]


def test_the_next_session_start_captures_what_a_killed_server_left(project: Path) -> None:
    """A server killed before its end (``SIGKILL``) left the pointer (written at the
    session's first hooks) and the prompt pending: the next SessionStart captures it."""
    ends = SessionEnds(lambda arguments: "")
    ends(_hook(project, "UserPromptSubmit", prompt=PROMPT))  # pointer; then no close()
    killed = open_context(base(project, "SessionEnd", session_id=SESSION), "SessionEnd")
    with killed.session_state() as state:
        state.prompt = PROMPT
    nxt = base(project, "SessionStart", session_id="22222222-2222-3333-4444-555555555555")
    hook("SessionStart", {**nxt, "source": "startup"})
    assert killed.load_state().prompt == ""
    records = [p.read_text(encoding="utf-8") for p in (project / ".rubi" / "sessions").glob("*")]
    assert [r for r in records if PROMPT in r and "(the session ended before an answer)" in r]
    assert _pointer(project) is None  # the line was shown once


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
def test_a_signal_during_session_end_s_work_waits_for_its_end(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code's SIGTERM comes 100 ms after its SIGINT: on a loaded machine it came
    while SessionEnd's work ran, and its handler's exception cut that work short."""
    import os

    from rubi.cli.terminated import Terminated, stopped_by_signals
    from rubi.engine import sessionend

    done: list[str] = []

    def end(payload: dict[str, Any]) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # arrives in the middle of the work
        for _ in range(1000):  # the handler runs between two of these bytecodes
            pass
        done.append(payload["session_id"])

    monkeypatch.setattr(sessionend, "_end", end)
    ends = SessionEnds(lambda arguments: "")
    ends(_hook(project, "Stop"))
    # the server has other threads (the watcher, the engine): the system may deliver
    # the signal to one of them, and Python still runs its handler in the main thread
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        with pytest.raises(Terminated), stopped_by_signals():
            ends.close()
    finally:
        stop.set()
    assert done == [SESSION]


def test_close_points_to_a_transcript_claude_code_has_not_written_yet(project: Path) -> None:
    # `claude -p` writes the session's transcript after it stops its servers: at the
    # server's end the file may not exist yet, and the pointer must name it all the same
    ends = SessionEnds(lambda arguments: "")
    first = _hook(project, "UserPromptSubmit", prompt=PROMPT)
    Path(first["transcript_path"]).unlink()
    ends(first)
    ends.close()
    assert _pointer(project) == {"session_id": SESSION, "transcript_path": first["transcript_path"]}
    # a path that is no transcript (relative, not .jsonl) is never written
    other = SessionEnds(lambda arguments: "")
    other({**first, "session_id": "s-3", "transcript_path": "relative/s-3.jsonl"})
    other.close()
    assert _pointer(project) == {"session_id": SESSION, "transcript_path": first["transcript_path"]}
