"""A cold hook leaves its process as soon as its answer is out (no interpreter
teardown), PreCompact and SessionStart included: their index runs and records are
written by then."""

from __future__ import annotations

import json
import re
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
    # the hook's own answer has no newline: "left" may end its line
    return re.findall(r"left \d+$", done.stdout, re.M)


@pytest.mark.parametrize("event", ["PreCompact", "Stop", "SessionEnd"])
def test_a_cold_hook_leaves_once_its_work_is_done(project: Path, event: str) -> None:
    assert exits(event, project) == ["left 0"]


@pytest.mark.timeout(120)
def test_a_cold_session_start_leaves_once_the_index_is_caught_up(project: Path) -> None:
    """Without the plugin it brings the index up to date first: a note added since the
    last run is indexed by the time the process leaves."""
    from rubi import app

    note = project / ".rubi" / "notes" / "gotcha-night-tokens.md"
    note.write_text("# Night tokens\n\nThe night shift's tokens roll over.\n", encoding="utf-8")
    assert exits("SessionStart", project) == ["left 0"]
    hits = app.search(app.locate(project / ".rubi"), "night shift tokens roll over").hits
    assert any(h.id.endswith("gotcha-night-tokens") for h in hits)
