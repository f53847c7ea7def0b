from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi import app
from rubi.core.model import Note
from rubi.index import documents
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex
from rubi.sync import graph_for

from helpers import write


def _ids(vault: Path) -> set[str]:
    g = graph_for(app.locate(vault)).graph
    return {n for n, a in g.nodes(data=True) if a["kind"] == "note"}


def _hits(vault: Path, query: str) -> list[str]:
    return [h.id for h in app.search(app.locate(vault), query, refresh=False).hits]


def test_first_run_indexes_everything_second_run_nothing(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    first = app.index(paths)
    assert first.full and first.added == 173 and not first.warnings
    second = app.index(paths)
    assert not second.full and not second.changed and second.unchanged == 173
    assert not second.graph_rebuilt


def test_add_edit_rename_delete(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "# Alpha\n\nLinks to [[b]] and [[ghost]].\n")
    write(vault / "b.md", "# Beta\n\nplain words\n")
    paths = app.locate(vault)
    app.index(paths)
    assert _ids(vault) == {"a", "b"}

    write(vault / "c.md", "# Gamma\n\nzebrafish [[a]]\n")
    rep = app.index(paths)
    assert (rep.added, rep.updated, rep.deleted) == (1, 0, 0)
    assert _hits(vault, "zebrafish") == ["c", "a"]  # a: linked from c, b: two hops away

    write(vault / "b.md", "# Beta\n\nnow about quasars\n")
    os.utime(vault / "b.md", ns=(1, 1))  # a new mtime whatever the clock
    rep = app.index(paths)
    assert (rep.added, rep.updated) == (0, 1)
    assert _hits(vault, "quasars")[0] == "b"
    assert "b" not in _hits(vault, "plain words")

    (vault / "sub").mkdir()
    (vault / "c.md").rename(vault / "sub" / "c2.md")
    rep = app.index(paths)
    assert (rep.added, rep.deleted) == (1, 1)
    assert _ids(vault) == {"a", "b", "sub/c2"}
    assert _hits(vault, "zebrafish")[0] == "sub/c2"
    assert [lv.id for lv in app.backlinks(paths, "a")] == ["sub/c2"]

    (vault / "b.md").unlink()
    rep = app.index(paths)
    assert rep.deleted == 1
    assert "b" not in _hits(vault, "quasars")
    g = graph_for(paths).graph
    assert "b" not in g and "dangling:b" in g  # the link from a now dangles


def test_touch_without_change_is_not_reindexed(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "hello")
    paths = app.locate(vault)
    app.index(paths)
    os.utime(vault / "a.md", ns=(5, 5))
    rep = app.index(paths)
    assert not rep.changed and rep.unchanged == 1


def test_new_note_resolves_a_dangling_link(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "see [[Later note]]")
    paths = app.locate(vault)
    app.index(paths)
    assert [lv.kind for lv in app.links(paths, "a")] == ["dangling"]
    write(vault / "Later note.md", "here now")
    app.index(paths)
    assert [(lv.id, lv.kind) for lv in app.links(paths, "a")] == [("Later note", "note")]


def test_full_rebuild_from_files_alone(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    before = _hits(help_vault, "embed")
    import shutil

    shutil.rmtree(paths.index_dir)
    rep = app.index(paths)
    assert rep.full and rep.added == 173
    assert _hits(help_vault, "embed") == before


def test_indexing_never_modifies_notes(help_vault: Path) -> None:
    stamp = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in help_vault.rglob("*.md")}
    app.index(app.locate(help_vault), full=True)
    assert stamp == {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in help_vault.rglob("*.md")}


def test_interrupted_full_rebuild_keeps_the_old_index(
    help_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    before = _hits(help_vault, "sync")
    assert before
    calls = {"n": 0}
    real = documents.note_document

    def crash_midway(note: Note) -> IndexDoc:
        calls["n"] += 1
        if calls["n"] == 100:
            raise KeyboardInterrupt
        return real(note)

    monkeypatch.setattr(documents, "note_document", crash_midway)
    with pytest.raises(KeyboardInterrupt):
        app.index(paths, full=True)
    assert _hits(help_vault, "sync") == before  # old index untouched
    monkeypatch.setattr(documents, "note_document", real)
    assert not app.index(paths).changed
    assert _hits(help_vault, "sync") == before
    assert [p.name for p in paths.index_dir.iterdir() if "building" in p.name] == []


def test_index_emptied_behind_our_back_is_rebuilt(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)
    SearchIndex(paths.whoosh_dir).rebuild([])  # an index that lost every document
    rep = app.index(paths)
    assert rep.full and rep.added == 173
    assert _hits(help_vault, "sync")
