"""A run that moves only code nodes writes the moves from the snapshot's code map
(``graph.codeback``, :mod:`rubi.sync.codeback`) and the flat graph, not the whole
snapshot; every reader (a run, a cold search, a new vault sync) reads the graph a full
index of the same tree gives, edit after edit, and a damaged, foreign or half-written
moves file, or two runs at once, cost a rebuild of the code nodes, never a wrong
graph."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rubi import app
from rubi.sync import forget_vault_syncs
from rubi.sync.codeback import CodeBack, code_back, read_back
from rubi.sync.snapshots import Snapshots
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_edits_as_full_index import _pages
from sync.test_cold_map_memory import ColdRepo, _answers, _flat_state, _fresh_copy, project

__all__ = ["project"]  # the fixture, shared

HANDLER = "web/src/main/java/org/demo/web/Handler.java"


def _edits(root: Path) -> list[tuple[str, str | None]]:
    """An import added, removed, a module renamed (a file moved), a file deleted, a
    file added."""
    handler = (root / HANDLER).read_text(encoding="utf-8")
    man = (root / "go/doc/man.go").read_text(encoding="utf-8")
    return [
        (HANDLER, handler.replace("import", "import org.demo.core.FileResource;\nimport")),
        (HANDLER, handler),
        ("go/doc/man.go", None),
        ("go/manual/man.go", man),
        ("py/pkg/cli.py", None),
        ("py/pkg/extra.py", "from .util import helper\n\n\ndef extra():\n    return helper(1)\n"),
    ]


def _files(root: Path) -> tuple[Path, Path]:
    graph_file = app.locate(root / ".rubi").graph_file
    return graph_file, graph_file.with_name("graph.codeback")


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_ino, st.st_mtime_ns


def _cold_graph(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The graph a new vault sync reads (the snapshot and the moves file), without the
    snapshot it would then write (so the next step still starts from the moves)."""
    forget_vault_syncs()
    with monkeypatch.context() as m:
        m.setattr(Snapshots, "write", lambda self, live, gen: None)
        return _graph_of(VaultSync(app.locate(root / ".rubi")))


def _vault_sync(root: Path) -> VaultSync:
    return VaultSync(app.locate(root / ".rubi"))


def _run(root: Path) -> None:
    forget_vault_syncs()
    VaultSync(app.locate(root / ".rubi")).run()


def test_code_edits_write_the_moves_and_read_as_a_full_index(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph_file, back_file = _files(project)
    snapshot = _stamp(graph_file)
    repo = ColdRepo(project)
    for n, (rel, text) in enumerate(_edits(project)):
        repo.write(rel, text)
        if n == 2:
            continue  # the rename's second half comes with the next step
        _run(project)
        assert _stamp(graph_file) == snapshot  # only the moves were written
        assert back_file.exists()
        fresh = _fresh_copy(project, tmp_path / f"fresh-{n}")
        assert _flat_state(project) == _flat_state(fresh)
        assert _pages(project) == _pages(fresh)
        assert _cold_graph(project, monkeypatch) == _scratch(_vault_sync(project))
    answers = _answers(project)
    assert all(answers) and answers == _answers(fresh)


def test_a_cold_reader_takes_the_moves_and_a_search_finds_the_moved_file(
    project: Path, tmp_path: Path
) -> None:
    """A cold search when the flat graph is gone reads the snapshot and the moves."""
    graph_file, _back_file = _files(project)
    repo = ColdRepo(project)
    edit = _edits(project)[0]
    repo.write(*edit)
    _run(project)
    graph_file.with_name("graph.flat").unlink()
    fresh = _fresh_copy(project, tmp_path / "fresh")
    answers = _answers(project)
    assert any(HANDLER in [hit[0] for hit in hits] for hits in answers)
    assert answers == _answers(fresh)


@pytest.mark.parametrize(
    "damage",
    [
        b"not json",
        b'{"format": 1}',
        b'{"format": 99, "base": "x"}',
        "wrong entries",
        "another base",
        "another head",
        "group-writable",
    ],
)
def test_a_damaged_or_foreign_moves_file_rebuilds_the_code_nodes(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes | str
) -> None:
    _graph_file, back_file = _files(project)
    repo = ColdRepo(project)
    edits = _edits(project)
    repo.write(*edits[0])
    _run(project)
    doc = json.loads(back_file.read_bytes())
    if damage == "wrong entries":  # the right ids, an entry of the wrong type
        doc["files"] = {HANDLER: [1, 2, 3, 4, 5, 6, 7]}
    elif damage == "another base":
        doc["base"] = "0" * 32
    elif damage == "another head":
        doc["head"] = "0" * 32
    if isinstance(damage, bytes):
        back_file.write_bytes(damage)
    else:
        back_file.write_text(json.dumps(doc), encoding="utf-8")
        if damage == "group-writable":
            os.chmod(back_file, 0o660)
    repo.write(*edits[1])
    _run(project)
    fresh = _fresh_copy(project, tmp_path / "fresh")
    assert _flat_state(project) == _flat_state(fresh)
    assert _cold_graph(project, monkeypatch) == _scratch(_vault_sync(project))


def test_a_run_killed_after_the_moves_leaves_a_readable_cache(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The moves written, the run dies before the flat graph: the next run and the
    readers read the tree's graph (the flat graph left behind is not read: its
    generation is behind the store's)."""
    _graph_file, back_file = _files(project)
    repo = ColdRepo(project)
    edits = _edits(project)
    repo.write(*edits[0])

    def killed(self: Snapshots, live: object, gen: int) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as m, pytest.raises(KeyboardInterrupt):
        m.setattr(Snapshots, "save_flat", killed)
        _run(project)
    assert back_file.exists()
    _run(project)
    fresh = _fresh_copy(project, tmp_path / "fresh")
    assert _cold_graph(project, monkeypatch) == _scratch(_vault_sync(project))
    assert _answers(project) == _answers(fresh)


_INDEX = "import sys\nsys.argv = ['rubi', 'index']\nfrom rubi.entry import main\nmain()\n"


def test_two_runs_at_once_leave_the_graph_of_the_tree(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = ColdRepo(project)
    for rel, text in _edits(project)[:2]:
        repo.write(rel, text)
        runs = [
            subprocess.Popen([sys.executable, "-c", _INDEX], cwd=project, env=os.environ.copy())
            for _ in range(2)
        ]
        assert [p.wait(timeout=120) for p in runs] == [0, 0]
    _run(project)
    fresh = _fresh_copy(project, tmp_path / "fresh")
    assert _flat_state(project) == _flat_state(fresh)
    assert _cold_graph(project, monkeypatch) == _scratch(_vault_sync(project))
    assert _answers(project) == _answers(fresh)


def test_the_moves_file_reads_back_what_was_written(project: Path) -> None:
    """:func:`code_back` of two maps, written and read, makes the base map again from
    the head: the same files, edges and module names."""
    vs = VaultSync(app.locate(project / ".rubi"))
    base = vs.code_map()
    assert base is not None
    ColdRepo(project).write(*_edits(project)[0])
    _run(project)
    head = VaultSync(app.locate(project / ".rubi")).code_map()
    assert head is not None and head.shape_id != base.shape_id
    back = code_back(base, head)
    assert isinstance(back, CodeBack) and back.files and back.edges
    _, back_file = _files(project)
    from rubi.sync.codeback import write_back

    write_back(back_file, back)
    read = read_back(back_file, base.shape_id)
    assert read == back
    made = read.base_map(head)
    assert made.shape_id == base.shape_id
    assert made.files == base.files and made.edges == base.edges
    assert list(made.modules) == list(base.modules)
    assert read_back(back_file, head.shape_id) is None
