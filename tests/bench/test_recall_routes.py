"""The recall-routes bench: a handmade set dumped end to end (both routes recorded),
the written-word count, and the table's counts from hand-built rows."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO, write

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def rr() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import recall_routes

    return recall_routes


def test_written_words_count_each_word_once(rr: ModuleType) -> None:
    from rubi.app.recall import prompt_words
    from rubi.index.queryanalysis import QueryAnalysis

    question = "Per quante ore deve lievitare l'impasto della pizza?"
    terms = set(QueryAnalysis(question).terms(question, "it"))
    assert prompt_words(question, terms) == len(terms) == 10  # stems, surfaces, elisions
    assert rr.written_words_count(question, terms, "it") == 5  # ore deve lievitare impasto pizza
    english = "How do I compress a tarball with zstandard?"
    terms = set(QueryAnalysis(english).terms(english))
    assert rr.written_words_count(english, terms, "en") == prompt_words(english, terms) == 3


def _row(on: bool, shipped: int, written: int, relevant: bool, long_named: bool) -> dict[str, Any]:
    return {
        "set": "lang-x",
        "id": f"q{shipped}{on}{relevant}",
        "on": on,
        "found": 1 if on else None,
        "relevant": relevant,
        "coverage": 0.4,
        "significance": 1.0,
        "shipped": shipped,
        "written": written,
        "long_said": True,
        "long_answer": long_named,
        "short_said": relevant,
        "short_answer": relevant and long_named,
    }


def test_the_table_reads_the_route_each_count_picks(rr: ModuleType) -> None:
    rows = [
        _row(False, 11, 5, False, False),  # off-topic: long by terms, short by words
        _row(True, 14, 8, False, True),  # an answer the floor would hide on the short route
        _row(True, 14, 8, True, True),  # labelled relevant: named on either route
        _row(False, 4, 4, False, False),  # short either way: silent
    ]
    assert rr.outcome(rows[0], 11, 10) == (True, False)
    assert rr.outcome(rows[0], 5, 10) == (False, False)
    assert rr.counts(rows, "shipped", 10) == (1, 2, 2, 2)
    assert rr.counts(rows, "written", 10) == (2, 2, 1, 2)
    lines = rr.table(rows, 10, changes=True).splitlines()
    pooled = lines[-3].split()
    assert pooled == ["all", "1", "1", "->", "2", "of", "2", "2", "->", "1", "of", "2", "3"]
    assert len(lines) == 5 and "alphabetic" in lines[1]  # the two that change, below


def test_dump_records_both_routes(rr: ModuleType, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write(corpus / "zstd.md", "# Compress\n\nCompress a tarball with zstandard quickly.\n")
    write(corpus / "ls.md", "# Files\n\nShow the list of files in a folder.\n")
    sets = tmp_path / "set"
    source = {"repo": "a/b", "commit": "0" * 40}
    meta = {"name": "t", "kind": "notes", "description": "d", "sources": [source]}
    write(sets / "set.json", json.dumps(meta))
    from evalset import split_of

    dev = [f"q{i}" for i in range(100) if split_of("t", f"q{i}") == "dev"][:2]
    queries = [
        {"id": dev[0], "query": "compress a tarball with zstandard quickly"},
        {"id": dev[1], "query": "bake sourdough bread with a quickly rising starter"},
    ]
    for q, relevant in zip(queries, (["zstd.md"], []), strict=True):
        q.update(split="dev", lang="en", relevant=relevant)
    write(sets / "queries.jsonl", "".join(json.dumps(q) + "\n" for q in queries))
    out = tmp_path / "r.jsonl"
    assert rr.dump(sets, corpus, out) == 2
    on, off = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert on["short_answer"] and on["long_answer"] and on["relevant"]
    assert on["shipped"] == on["written"] == 4 and on["lang"] == "en"
    assert not off["on"] and not off["relevant"] and not off["short_said"]
