"""SessionStart run cold as rubi's Claude Code plugin runs it (a process of its own,
every session, while Claude Code waits for its map): an indexed vault's map is given
without importing ``typing`` (about 2 ms of the hook's 30-50 ms of CPU), nor
``inspect``, ``logging``, Whoosh or numpy, none of which the answer uses; in a first
session and in every later one, whose SessionStart also shows the cost line of the
session that ended last (the transcript read and priced)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook

from helpers import REPO

_COLD = """
import io, json, sys
before = set(sys.modules)
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook(["SessionStart"], sys.stdin, out)
print(json.dumps([out.getvalue(), sorted(set(sys.modules) - before)]))
"""


@pytest.mark.parametrize("after_a_session", [False, True], ids=["first", "cost-line"])
def test_session_start_in_the_plugin_gives_the_map_without_typing_or_the_search_stack(
    project: Path, after_a_session: bool
) -> None:
    if after_a_session:
        transcript = project / "t.jsonl"
        line = {"type": "user", "message": {"role": "user", "content": "hello"}, "uuid": "u1"}
        transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
        end = base(project, "SessionEnd", reason="exit", transcript_path=str(transcript))
        hook("SessionEnd", end)
    start = base(project, "SessionStart", source="startup")
    start["session_id"] = "99999999-8888-7777-6666-555555555555"
    run = subprocess.run(
        [sys.executable, "-c", _COLD],
        input=json.dumps(start),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "RUBI_ENGINE": "0", "CLAUDE_PLUGIN_ROOT": str(REPO)},
        cwd=project,
    )
    output, loaded = json.loads(run.stdout)
    answer = json.loads(output)
    assert "# Code map" in answer["hookSpecificOutput"]["additionalContext"]
    assert ("session 11111111" in answer.get("systemMessage", "")) is after_a_session
    tops = {m.split(".")[0] for m in loaded}
    assert tops & {"typing", "inspect", "logging", "whoosh", "numpy"} == set()
