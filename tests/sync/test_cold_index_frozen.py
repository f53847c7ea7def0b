"""A cold ``rubi index`` (a new process) reads the graph snapshot frozen: an edit that
moves import edges moves the code nodes in networkx's dicts without importing
networkx, and leaves the flat graph, the snapshot and the search answers of a full
index of the same tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rubi import app
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_map_memory import ColdRepo, _answers, _flat_state, _fresh_copy, project

__all__ = ["project"]  # the fixture, shared

_INDEX = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('networkx' in sys.modules, sys.modules['rubi.graph.readmode']"
    "._frozen))\n"
    "sys.argv = ['rubi', 'index']\n"
    "from rubi.entry import main\n"
    "main()\n"
)
"""``rubi index`` in a fresh process, then whether it imported networkx and read frozen."""


def _cold_index(root: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _INDEX], capture_output=True, text=True, check=True, cwd=root
    )
    return done.stdout.strip().splitlines()[-1]


def test_a_cold_project_import_edit_moves_the_graph_without_networkx(
    project: Path, tmp_path: Path
) -> None:
    repo = ColdRepo(project)
    handler = "web/src/main/java/org/demo/web/Handler.java"
    original = (project / handler).read_text(encoding="utf-8")
    states = [_flat_state(project)]
    for n, text in enumerate(
        (original.replace("import", "import org.demo.core.FileResource;\nimport"), original)
    ):
        repo.write(handler, text)
        assert _cold_index(project) == "False True"
        fresh = _fresh_copy(project, tmp_path / f"fresh-{n}")
        state = _flat_state(project)
        assert state != states[-1]  # an edge moved: the flat graph was written again
        states.append(state)
        assert state == _flat_state(fresh)
        answers = _answers(project)
        assert all(answers) and answers == _answers(fresh)
    cold = VaultSync(app.locate(project / ".rubi"))  # the cold runs' snapshot, read by networkx
    assert _graph_of(cold) == _scratch(cold)
