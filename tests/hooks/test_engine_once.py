"""A hook runs once: a hook the engine acknowledged never also runs cold, one it did not
acknowledge never also runs in the engine, a stuck hook does not make others wait, and
a turn captured twice (the same Stop run twice, two processes racing) is written once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rubi.claude.hooks import entry as hook_entry
from rubi.engine import client, server
from rubi.engine.server import Engine

from .test_engine import cold, through_entry
from helpers import engine_answer, serving

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("runtime")]

ANSWER = "The login token now expires at midnight UTC."


@pytest.fixture
def engine(project: Path) -> Iterator[Engine]:
    with serving(project) as running:
        yield running


def _stalled(monkeypatch: pytest.MonkeyPatch, stall_s: float) -> list[threading.Event]:
    """Make the engine stall ``stall_s`` seconds after acknowledging each hook, before
    running it; each hook's event is set once it has run."""
    real = server._run_hook
    done: list[threading.Event] = []

    def slow(event: str, *args: Any) -> str:
        finished = threading.Event()
        done.append(finished)
        time.sleep(stall_s)
        try:
            return real(event, *args)
        finally:
            finished.set()

    monkeypatch.setattr(server, "_run_hook", slow)
    return done


def _captured(project: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in (project / ".rubi").glob("sessions/*.md"))


def _stop(project: Path, transcript: Path | None = None) -> str:
    return json.dumps(
        {
            "session_id": "s-once",
            "cwd": str(project),
            "hook_event_name": "Stop",
            "stop_hook_active": False,
            "last_assistant_message": ANSWER,
            **({"transcript_path": str(transcript)} if transcript else {}),
        }
    )


def _prompt(project: Path) -> str:
    return json.dumps(
        {"session_id": "s-once", "cwd": str(project), "prompt": "when do login tokens expire?"}
    )


def test_a_stop_the_engine_acknowledged_never_also_runs_cold(
    project: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine stalls 4 s after acknowledging a Stop, longer than the client waits:
    the client prints nothing, does not run the hook itself, and the turn is captured
    once, by the engine."""
    cold("UserPromptSubmit", _prompt(project))
    done = _stalled(monkeypatch, 4.0)
    monkeypatch.setattr(client, "HOOK_BUDGET_S", {"stop": 1.0}, raising=False)
    ran_cold: list[object] = []
    here = threading.current_thread()
    real_respond = hook_entry.respond

    def respond(*a: Any, **k: Any) -> int:
        if threading.current_thread() is here:  # not the engine's thread
            ran_cold.append(a)
        return real_respond(*a, **k)

    monkeypatch.setattr(hook_entry, "respond", respond)
    monkeypatch.setattr(hook_entry, "main", lambda *a, **k: ran_cold.append(a) or 0)
    assert through_entry("Stop", _stop(project)) == ""
    assert ran_cold == []
    assert done and done[0].wait(20)
    assert _captured(project).count(ANSWER) == 1


def test_an_acknowledged_hook_that_answers_late_prints_nothing(
    project: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = _stalled(monkeypatch, 1.0)
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "tool_name": "Grep"})
    assert engine_answer("PostToolUse", raw, reply_timeout_s=0.3) == ""
    assert done and done[0].wait(20)


def test_a_hook_the_engine_did_not_acknowledge_runs_cold_and_never_in_the_engine(
    project: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's hook slot is taken: the client sees no acknowledgement, runs the
    Stop cold; when the slot frees, the engine finds the client gone and runs nothing."""
    ran: list[str] = []
    real = server._run_hook
    monkeypatch.setattr(server, "_run_hook", lambda e, *a: ran.append(e) or real(e, *a))
    cold("UserPromptSubmit", _prompt(project))
    slot = engine._slot
    assert slot.take(5)
    try:
        started = time.monotonic()
        assert engine_answer("Stop", _stop(project), ack_timeout_s=0.3) is None
        assert time.monotonic() - started < server.HOOK_WAIT_S
        assert cold("Stop", _stop(project)) == ""
    finally:
        slot.give()
    deadline = time.monotonic() + 10
    while engine._slots._value < server.MAX_CONNECTIONS and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.05)
    assert ran == []
    assert _captured(project).count(ANSWER) == 1


def test_a_stuck_hook_makes_no_later_hook_wait(
    project: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real = server._run_hook

    def stuck(event: str, *args: Any) -> str:
        release.wait(30)
        return real(event, *args)

    monkeypatch.setattr(server, "_run_hook", stuck)
    monkeypatch.setattr(server, "OVERRUN_S", 0.3, raising=False)
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "tool_name": "Grep"})
    try:
        assert engine_answer("PostToolUse", raw, reply_timeout_s=0.5) == ""
        started = time.monotonic()
        assert engine_answer("PostToolUse", raw, ack_timeout_s=5.0) is None  # busy: cold
        assert time.monotonic() - started < 1.0
    finally:
        release.set()


def _transcript(tmp_path: Path) -> Path:
    lines = [
        {"type": "user", "uuid": "u-1", "message": {"role": "user", "content": "when?"}},
        {
            "type": "assistant",
            "uuid": "a-1",
            "message": {"role": "assistant", "content": [{"type": "text", "text": ANSWER}]},
        },
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_same_stop_run_twice_captures_the_turn_once(project: Path, tmp_path: Path) -> None:
    transcript = _transcript(tmp_path)
    cold("UserPromptSubmit", _prompt(project))
    cold("Stop", _stop(project, transcript))
    cold("Stop", _stop(project, transcript))
    cold("SessionEnd", json.dumps({"session_id": "s-once", "cwd": str(project)}))
    text = _captured(project)
    assert text.count(ANSWER) == 1 and text.count("when do login tokens expire?") == 1
    cold("UserPromptSubmit", _prompt(project))  # a new turn with the same answer text
    cold("Stop", _stop(project, transcript))
    assert _captured(project).count(ANSWER) == 2


def test_two_processes_capturing_the_same_turn_write_it_once(project: Path, tmp_path: Path) -> None:
    transcript = _transcript(tmp_path)
    cold("UserPromptSubmit", _prompt(project))
    script = "from rubi.entry import main; main()"  # the console script: `rubi hook Stop`
    env = {**os.environ, "RUBI_ENGINE": "0", "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, "hook", "Stop"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=project,
            env=env,
            text=True,
        )
        for _ in range(2)
    ]
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(_stop(project, transcript))
        proc.stdin.close()
    for proc in procs:
        assert proc.stdout is not None and proc.stderr is not None
        with proc.stdout, proc.stderr:
            assert proc.wait(60) == 0, proc.stderr.read()
    assert _captured(project).count(ANSWER) == 1
