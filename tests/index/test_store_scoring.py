"""BM25F across notes and code: shared fields keep one set of statistics for both."""

from __future__ import annotations

from pathlib import Path

from rubi.core.paths import index_dir_for
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
            {"body": " ".join(["def handler(x): return x"] * 40)},
        )
        for i in range(30)
    ]
    mention = IndexDoc(
        "src/engine.py",
        "file",
        "src/engine.py",
        "python",
        "active",
        {"body": "# sqlite whoosh " + " ".join(["value = compute(value)"] * 20)},
    )
    return [note, mention, *files]


def test_notes_are_not_penalised_for_being_few(tmp_path: Path) -> None:
    index = SearchIndex(index_dir_for(tmp_path) / "whoosh")
    index.rebuild(_docs())
    hits = index.bm25("why Whoosh and not SQLite FTS5")
    assert [h.id for h in hits[:2]] == ["notes/why-whoosh", "src/engine.py"]
