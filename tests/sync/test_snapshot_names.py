"""The graph snapshot leaves the merged exact-name table out (format 15): it is the notes'
table and the code's merged key by key, both of which the snapshot holds, and is merged
again when read. Cold edits of a project (an import added, removed, a module renamed)
then leave the flat graph, the snapshot, the map pages and the answers of a full index
of the same tree; a snapshot of the format before is rebuilt, never misread."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rubi import app
from rubi.graph import snapshot
from rubi.graph.snapshot import load_snapshot, save_snapshot
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_index_frozen import _cold_index
from sync.test_cold_map_memory import ColdRepo, _answers, _flat_state, _fresh_copy, project

__all__ = ["project"]  # the fixture, shared

HANDLER = "web/src/main/java/org/demo/web/Handler.java"
NOTE = (
    "---\nfiles: [core/src/main/java/org/demo/core/Loader.java]\n---\n"
    "# Loader.java\n\nHow it loads.\n"
)
"""A note named as a code file is (the key ``loader.java`` holds a note and a path)."""


def _with_note(project: Path) -> Path:
    (project / ".rubi" / "notes" / "loader.md").write_text(NOTE, encoding="utf-8")
    app.index(app.locate(project / ".rubi"), full=True)
    return project


def _pages(root: Path) -> dict[str, str]:
    vault = root / ".rubi"
    pages = [vault / "map.md", *sorted((vault / "modules").glob("*.md"))]
    return {p.name: p.read_text(encoding="utf-8") for p in pages}


def test_the_snapshot_leaves_the_merged_names_out_and_reads_them_back(project: Path) -> None:
    paths = app.locate(_with_note(project) / ".rubi")
    live, _ = load_snapshot(paths.graph_file)
    names = live.build.names
    assert names["loader.java"][0] == "notes/loader"  # the note first, then the code
    assert "core/src/main/java/org/demo/core/Loader.java" in names["loader.java"]
    assert live.__getstate__()["build"].names == {}  # not written ...
    assert live.build.names is names  # ... and the graph's own table untouched
    save_snapshot(paths.graph_file, live, 1)
    again, _ = load_snapshot(paths.graph_file)
    assert again.build.names == names
    assert all(again.build.names.values())


def _edits(project: Path) -> list[tuple[str, str | None]]:
    handler = (project / HANDLER).read_text(encoding="utf-8")
    man = "go/doc/man.go"
    man_text = (project / man).read_text(encoding="utf-8")
    return [
        (HANDLER, handler.replace("import", "import org.demo.core.FileResource;\nimport")),
        (HANDLER, handler),
        (man, None),  # the module go/doc renamed go/manual: its one file moved
        ("go/manual/man.go", man_text),
    ]


def _assert_as_full_index(project: Path, fresh_at: Path) -> None:
    fresh = _fresh_copy(project, fresh_at)
    assert _flat_state(project) == _flat_state(fresh)
    assert _pages(project) == _pages(fresh)
    answers = _answers(project)
    assert all(answers) and answers == _answers(fresh)
    cold = VaultSync(app.locate(project / ".rubi"))  # the cold runs' snapshot
    assert _graph_of(cold) == _scratch(cold)


def test_cold_edits_leave_what_a_full_index_of_the_tree_gives(
    project: Path, tmp_path: Path
) -> None:
    repo = ColdRepo(_with_note(project))
    for n, (rel, text) in enumerate(_edits(project)):
        repo.write(rel, text)
        if text is None:
            continue  # the rename's second half comes with the next step
        assert _cold_index(project) == "False True"  # read frozen, no networkx
        _assert_as_full_index(project, tmp_path / f"fresh-{n}")


def test_a_snapshot_of_the_format_before_is_rebuilt(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(_with_note(project) / ".rubi")
    live, gen = load_snapshot(paths.graph_file)
    with monkeypatch.context() as patched:
        patched.setattr(snapshot, "GRAPH_FORMAT", 14)
        save_snapshot(paths.graph_file, live, gen)  # the header an older rubi wrote
    repo = ColdRepo(project)
    edit, text = _edits(project)[0]
    repo.write(edit, text)
    _cold_index(project)  # rebuilds the graph from the notes and the map
    assert load_snapshot(paths.graph_file)[0].build.names  # written again, this format
    _assert_as_full_index(project, tmp_path / "fresh")
    shutil.rmtree(tmp_path / "fresh")
