"""BM25F statistics when notes and code files have fields of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

import rubi.index.store as store
from rubi.index.store import IndexDoc, SearchIndex


def _docs() -> list[IndexDoc]:
    # A note that answers the question, and code files that mention the same words in
    # longer text; code files outnumber notes, as in most projects.
    note = IndexDoc(
        "notes/why-whoosh",
        "note",
        "notes/why-whoosh.md",
        "decision",
        "active",
        {"title": "Use Whoosh", "body": "Whoosh rather than SQLite FTS5: pure Python, BM25F."},
    )
    files = [
        IndexDoc(
            f"src/mod{i}.py",
            "file",
            f"src/mod{i}.py",
            "python",
            "active",
            {"code_body": " ".join(["def handler(x): return x"] * 40)},
        )
        for i in range(30)
    ]
    mention = IndexDoc(
        "src/engine.py",
        "file",
        "src/engine.py",
        "python",
        "active",
        {"code_body": "# sqlite whoosh " + " ".join(["value = compute(value)"] * 20)},
    )
    return [note, mention, *files]


def test_notes_are_not_penalised_for_being_few(tmp_path: Path) -> None:
    index = SearchIndex(tmp_path / "whoosh")
    index.rebuild(_docs())
    hits = index.bm25("why Whoosh and not SQLite FTS5")
    assert [h.id for h in hits[:2]] == ["notes/why-whoosh", "src/engine.py"]


def test_plain_whoosh_averages_would_bury_the_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reason for KindBM25F: Whoosh divides each field's length by every document.
    monkeypatch.setattr(store, "KindBM25F", store.BM25F)
    index = SearchIndex(tmp_path / "whoosh")
    index.rebuild(_docs())
    assert index.bm25("why Whoosh and not SQLite FTS5")[0].id == "src/engine.py"
