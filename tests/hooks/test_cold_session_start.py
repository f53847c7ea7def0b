"""SessionStart run cold as rubi's Claude Code plugin runs it (a process of its own,
every session, while Claude Code waits for its map): an indexed vault's map is given
without importing ``typing`` (about 2 ms of the hook's 30 ms of CPU), nor
``inspect``, ``logging``, Whoosh or numpy, none of which the answer uses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hooks.hookhelpers import base

from helpers import REPO

_COLD = """
import io, json, sys
before = set(sys.modules)
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook(["SessionStart"], sys.stdin, out)
print(json.dumps([out.getvalue(), sorted(set(sys.modules) - before)]))
"""


def test_session_start_in_the_plugin_gives_the_map_without_typing_or_the_search_stack(
    project: Path,
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", _COLD],
        input=json.dumps(base(project, "SessionStart", source="startup")),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "RUBI_ENGINE": "0", "CLAUDE_PLUGIN_ROOT": str(REPO)},
        cwd=project,
    )
    output, loaded = json.loads(run.stdout)
    assert "# Code map" in json.loads(output)["hookSpecificOutput"]["additionalContext"]
    tops = {m.split(".")[0] for m in loaded}
    assert tops & {"typing", "inspect", "logging", "whoosh", "numpy"} == set()
