"""A cold ``rubi index`` killed mid-run (``os._exit`` at a step, as ``kill -9`` would
stop it) after it kept the new code map, then a cold ``rubi index`` again: the flat
graph, the map pages and the search answers are those of a full index of the same tree.
Found by the twenty-ninth pass's review: killed after the map was kept and before the
graph took it, the next run saw the kept map as current and left the import edge out of
the graph for good."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rubi import app
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_edits_as_full_index import HANDLER, _pages
from sync.test_cold_index_frozen import _cold_index
from sync.test_cold_map_memory import ColdRepo, _answers, _flat_state, _fresh_copy, project

__all__ = ["project"]  # the fixture, shared

_KILLED = (
    "import os, sys\n"
    "import {module} as m\n"
    "def killed(*args, **kwargs):\n"
    "    os._exit(9)\n"
    "setattr(m.{owner}, {name!r}, killed)\n"
    "sys.argv = ['rubi', 'index']\n"
    "from rubi.entry import main\n"
    "main()\n"
)
"""``rubi index`` in a fresh process that dies as it reaches ``owner.name``."""

STEPS = {
    "before the rows": ("rubi.sync.steps", "SyncRun", "index_text"),
    "before the graph": ("rubi.sync.livegraph", "GraphKeeper", "update"),
}
"""Where a run is killed: after the map and its pages are kept, before the text index
and the store's rows are written; after the rows, before the graph takes the map."""


def _killed_index(root: Path, module: str, owner: str, name: str) -> int:
    code = _KILLED.format(module=module, owner=owner, name=name)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=root).returncode


@pytest.mark.parametrize("step", list(STEPS))
def test_a_run_killed_after_the_map_was_kept_leaves_no_edge_out(
    project: Path, tmp_path: Path, step: str
) -> None:
    repo = ColdRepo(project)
    original = (project / HANDLER).read_text(encoding="utf-8")
    repo.write(HANDLER, original.replace("import", "import org.demo.core.FileResource;\nimport"))
    assert _killed_index(project, *STEPS[step]) == 9
    assert _cold_index(project).endswith("True")  # the next run, read frozen as ever
    fresh = _fresh_copy(project, tmp_path / "fresh")
    assert _pages(project) == _pages(fresh)
    answers = _answers(project)  # a reader: it writes a flat graph left behind the store
    assert all(answers) and answers == _answers(fresh)
    assert _flat_state(project) == _flat_state(fresh)
    cold = VaultSync(app.locate(project / ".rubi"))
    assert _graph_of(cold) == _scratch(cold)
