"""A cold hook leaves its process as soon as its answer is out (no interpreter
teardown), PreCompact included; SessionStart, which may index at length, exits as
usual."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

_RUN = """
import sys
import rubi.entry as entry
def leave(code):
    print("left", code)
    sys.stdout.flush()
entry._leave = leave
sys.argv = ["rubi", "hook", sys.argv[1]]
entry.main()
"""


def exits(event: str, project: Path) -> list[str]:
    payload = {
        "session_id": "s1",
        "cwd": str(project),
        "hook_event_name": event,
        "transcript_path": str(project / "none.jsonl"),
        "trigger": "auto",
        "source": "startup",
    }
    done = subprocess.run(
        [sys.executable, "-c", _RUN, event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line.startswith("left")]


@pytest.mark.parametrize("event", ["PreCompact", "Stop", "SessionEnd"])
def test_a_cold_hook_leaves_once_its_work_is_done(project: Path, event: str) -> None:
    assert exits(event, project) == ["left 0"]


@pytest.mark.timeout(120)
def test_a_cold_session_start_ends_with_the_usual_exit(project: Path) -> None:
    assert exits("SessionStart", project) == []
