"""SessionEnd run cold, as the plugin runs it (a process of its own within Claude Code's
1.5 s budget for SessionEnd hooks): a session whose prompts were all answered leaves the
cost-line pointer and loads nothing of rubi's facade (``rubi.app``: the search and
recall modules it imports); one that ended before an answer still captures the prompt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hooks.hookhelpers import base, hook
from rubi.claude.hooks.context import open_context

_COLD = """
import io, json, sys
before = set(sys.modules)
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook(["SessionEnd"], sys.stdin, out)
print(json.dumps([out.getvalue(), sorted(set(sys.modules) - before)]))
"""


def _cold_end(project: Path) -> tuple[str, set[str]]:
    transcript = project / "t.jsonl"
    transcript.write_text("", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", _COLD],
        input=json.dumps(base(project, "SessionEnd", reason="other")),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "RUBI_ENGINE": "0"},
        cwd=project,
    )
    output, loaded = json.loads(run.stdout)
    return output, set(loaded)


def test_a_session_end_with_every_prompt_answered_loads_no_facade_nor_search(
    project: Path,
) -> None:
    output, loaded = _cold_end(project)
    assert output == ""
    assert {"rubi.app", "rubi.app.recall", "rubi.app.searching"} & loaded == set()
    assert {m.split(".")[0] for m in loaded} & {"whoosh", "numpy", "logging", "typing"} == set()
    vault = open_context(base(project, "SessionEnd"), "SessionEnd").vault
    assert vault is not None
    pointer = json.loads((vault.index_dir / "hooks" / "ended.json").read_text(encoding="utf-8"))
    assert pointer["transcript_path"] == str(project / "t.jsonl")


def test_a_session_that_ended_before_an_answer_still_captures_its_prompt(
    project: Path,
) -> None:
    payload = base(project, "SessionEnd", reason="other")
    (project / "t.jsonl").write_text("", encoding="utf-8")
    context = open_context(payload, "SessionEnd")
    with context.session_state() as state:
        state.prompt = "why does the login token expire at midnight"
    assert hook("SessionEnd", payload) is None
    assert context.load_state().prompt == ""
