"""A plugin enabled for every project runs rubi's hooks in folders without ``.rubi/``
too. The events whose handlers do nothing there end in the console script, before any
handler is loaded; the Read guard, which works in any folder, still runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hooks.hookhelpers import base, hook
from rubi.claude.hookevents import HOOK_EVENTS, PROJECT_EVENTS
from rubi.claude.hooks.event import event_key

_RUN = """
import io, json, sys
from rubi.entry import _run_hook
out = io.StringIO()
status, leaves = _run_hook([sys.argv[1]], sys.stdin, out)
loaded = sorted(m for m in sys.modules if m.startswith("rubi.claude.hooks."))
print(json.dumps([status, leaves, out.getvalue(), loaded]))
"""


def _payload(folder: Path, event: str, transcript: Path) -> dict[str, Any]:
    """A payload of ``event`` with every field its handler reads."""
    return base(
        folder,
        event,
        transcript_path=str(transcript),
        source="startup",
        prompt="why does the login token expire at midnight?",
        tool_name="Grep",
        tool_input={"pattern": "token"},
        tool_response={},
        stop_hook_active=False,
        last_assistant_message="Done.",
        trigger="auto",
        reason="clear",
    )


def _plain_folder(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "plain" / "src"
    folder.mkdir(parents=True)
    transcript = tmp_path / "t.jsonl"
    usage = {"input_tokens": 900_000, "output_tokens": 10}
    line = {"type": "assistant", "message": {"model": "claude-opus-4-8", "usage": usage}}
    transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return folder, transcript


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


def test_the_project_events_are_the_events_but_pretooluse() -> None:
    assert {event_key(e) for e in HOOK_EVENTS} - PROJECT_EVENTS == {"pretooluse"}


@pytest.mark.parametrize("event", [e for e in HOOK_EVENTS if event_key(e) in PROJECT_EVENTS])
def test_a_project_event_does_nothing_outside_a_project(
    tmp_path: Path, isolated_home: Path, event: str
) -> None:
    """What makes the shortcut exact: in process, with every field its handler reads,
    the handler answers nothing and writes nothing outside a project."""
    folder, transcript = _plain_folder(tmp_path)
    before = _files(isolated_home) | _files(tmp_path)
    assert hook(event, _payload(folder, event, transcript)) is None
    assert _files(isolated_home) | _files(tmp_path) == before


@pytest.mark.parametrize("event", [e for e in HOOK_EVENTS if event_key(e) in PROJECT_EVENTS])
def test_the_console_script_ends_a_project_event_outside_a_project_unloaded(
    tmp_path: Path, event: str
) -> None:
    folder, transcript = _plain_folder(tmp_path)
    status, leaves, output, loaded = _run(folder, event, _payload(folder, event, transcript))
    assert (status, leaves, output) == (0, True, "")
    # the payload's checks alone: no handler, no hook context, no settings
    assert loaded == ["rubi.claude.hooks.payload"]


def test_the_read_guard_still_runs_outside_a_project(tmp_path: Path) -> None:
    folder, _ = _plain_folder(tmp_path)
    big = folder / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    payload = base(folder, "PreToolUse", tool_name="Read", tool_input={"file_path": str(big)})
    _status, _leaves, output, loaded = _run(folder, "PreToolUse", payload)
    assert json.loads(output)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "rubi.claude.hooks.guard" in loaded


def test_a_project_event_in_a_project_still_runs(project: Path) -> None:
    stop = base(project, "Stop", stop_hook_active=False, last_assistant_message="Done.")
    _status, _leaves, _output, loaded = _run(project, "Stop", stop)
    assert "rubi.claude.hooks.stop" in loaded


def _run(cwd: Path, event: str, payload: dict[str, Any]) -> tuple[int, bool, str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _RUN, event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, "RUBI_ENGINE": "0"},
        cwd=cwd,
        timeout=60,
        check=True,
    )
    status, leaves, output, loaded = json.loads(done.stdout)
    return status, leaves, output, loaded
