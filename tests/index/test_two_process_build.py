"""A first build in two processes answers exactly as a build in one (rubi.index.twoprocess)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from whoosh import index as windex

from rubi.core import forked
from rubi.core.paths import cache_home
from rubi.index import twoprocess
from rubi.index.documents import note_document
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex
from rubi.markdown.parse import parse_note

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or (os.cpu_count() or 1) < 2, reason="two processes: Linux only"
)

QUERIES = ["canvas", "sync settings", "link to a heading", "plugin", "graph view", "embed"]


def _docs(vault: Path) -> list[IndexDoc]:
    paths = sorted(vault.rglob("*.md"))
    return [
        note_document(parse_note(p.read_text(encoding="utf-8"), p.relative_to(vault).as_posix()))
        for p in paths
    ]


def _build(name: str, docs: list[IndexDoc]) -> SearchIndex:
    index = SearchIndex(cache_home() / "two-process-test" / name)
    assert index.rebuild(docs) == len(docs)
    return index


def _answers(index: SearchIndex) -> list[list[tuple[str, float]]]:
    return [[(h.id, h.score) for h in index.bm25(q, limit=30)] for q in QUERIES]


def test_two_processes_give_the_one_process_index(
    help_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _docs(help_vault)
    monkeypatch.setenv(forked.PROCS_ENV, "1")
    one = _build("one", docs)
    monkeypatch.delenv(forked.PROCS_ENV)
    monkeypatch.setattr(twoprocess, "MIN_TEXT_BYTES", 1000)
    assert twoprocess.wanted(docs)
    two = _build("two", docs)
    segments = windex.open_dir(str(two.directory))._segments()
    assert len(segments) == 2  # the child's and this process's, not merged
    assert windex.open_dir(str(one.directory))._segments()[0].doc_count() == len(docs)
    assert two.doc_count() == one.doc_count() == len(docs)
    assert _answers(two) == _answers(one)
    # every document keeps its number: the child wrote the first part
    ids_one = [f["id"] for f in windex.open_dir(str(one.directory)).reader().all_stored_fields()]
    ids_two = [f["id"] for f in windex.open_dir(str(two.directory)).reader().all_stored_fields()]
    assert ids_two == ids_one
    # later edits go on as on any index
    two.apply([docs[0]], [docs[1].id])
    assert two.doc_count() == len(docs) - 1


def test_a_failing_child_leaves_the_build_to_this_process(
    help_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _docs(help_vault)
    monkeypatch.setattr(twoprocess, "MIN_TEXT_BYTES", 1000)
    parent = os.getpid()
    real = twoprocess.write_in_two

    def child_fails(ix, docs, new_writer, add_docs, mergetype):  # type: ignore[no-untyped-def]
        def add(writer, part, whole):  # type: ignore[no-untyped-def]
            if os.getpid() != parent:
                raise OSError("disk full")
            return add_docs(writer, part, whole)

        return real(ix, docs, new_writer, add, mergetype)

    monkeypatch.setattr(twoprocess, "write_in_two", child_fails)
    index = _build("fallback", docs)
    assert index.doc_count() == len(docs)
    assert len(windex.open_dir(str(index.directory))._segments()) == 1


def test_small_builds_and_the_switch_stay_in_one_process(
    help_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = _docs(help_vault)
    assert not twoprocess.wanted(docs)  # Obsidian Help: 1 MB of text
    monkeypatch.setattr(twoprocess, "MIN_TEXT_BYTES", 1000)
    monkeypatch.setenv(forked.PROCS_ENV, "1")
    assert not twoprocess.wanted(docs)


def test_the_split_halves_the_text() -> None:
    def doc(size: int) -> IndexDoc:
        return IndexDoc("x", "note", "x.md", "note", "active", {"body": "a" * size})

    assert twoprocess.split_at([doc(10), doc(10)]) == 1
    assert twoprocess.split_at([doc(100), doc(1), doc(1), doc(1)]) == 1
    assert twoprocess.split_at([doc(1), doc(1), doc(1), doc(100)]) == 3
    assert twoprocess.split_at([doc(5)] * 10) == 5
