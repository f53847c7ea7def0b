"""BM25F across notes and code: shared fields keep one set of statistics for both."""

from __future__ import annotations

from pathlib import Path

from rubi.core.paths import index_dir_for
from rubi.index.indexdoc import IndexDoc
from rubi.index.querymatch import query_clauses
from rubi.index.schema import SOLO_FIELDS
from rubi.index.searchindex import SearchIndex


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


def test_a_title_word_most_documents_carry_weighs_its_document_idf(tmp_path: Path) -> None:
    # "note" is in every body and in nine titles; "math" in one heading. Scored with
    # the title field's own IDF, the nine titles came first for "math in a note".
    def note(i: int, title: str, headings: str = "Overview\nDetails") -> IndexDoc:
        body = f"a note about {title.lower()}, and what a note holds"
        fields = {"title": title, "headings": headings, "body": body}
        return IndexDoc(f"n{i}", "note", f"n{i}.md", "note", "active", fields)

    docs = [note(i, f"Note topic {i}") for i in range(9)]
    docs += [note(10 + i, f"Other {i}") for i in range(20)]
    docs.append(note(99, "Advanced formatting", headings="Math\nDiagrams"))
    index = SearchIndex(index_dir_for(tmp_path) / "whoosh")
    index.rebuild(docs)
    assert index.bm25("write math equations in a note")[0].id == "n99"
    # BM25F: one IDF per word, of the documents holding it in any field, and a
    # word's clauses in every field are one word.
    clauses = [c for c in query_clauses("math note") if c.field not in SOLO_FIELDS]
    assert len({c.word for c in clauses}) == 2
    assert {c.word for c in clauses if c.text == "note"} == {1}


def test_a_word_saturates_once_in_prose_fields_and_on_its_own_in_code_fields() -> None:
    clauses = query_clauses("parse config", kind="file", fields=["body", "symbols", "code_title"])
    body = {c.text: c.word for c in clauses if c.field == "body"}
    assert body["config"] == body["cfg"] != body["pars"]  # an abbreviation joins its word
    solo = [c.word for c in clauses if c.field != "body"]
    assert len(set(solo)) == len(solo) and not set(solo) & set(body.values())
