"""Cold edits of a project in a row (``rubi index`` in a new process each: an import added,
then removed, then a module renamed), with a note named as a code file is, leave the flat
graph, the graph snapshot, the map pages and the search answers a full index of the same
tree gives: what any change to how the graph is kept between runs (the snapshot, the flat
graph, the code map) must keep."""

from __future__ import annotations

from pathlib import Path

from rubi import app
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
