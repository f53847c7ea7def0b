"""A query word's document frequency (:meth:`TermScorer.word_dfs`) is read from its
clauses' documents alone: equal to the union of their postings' documents, over
segments and deletions, without making the postings' weights at a length normalisation
the query did not ask for, and following the commits made after the index was opened."""

from __future__ import annotations

import random

import pytest

import rubi.index.deletions as deletions
import rubi.index.termscore as termscore
from rubi.core.paths import cache_home
from rubi.index.bm25params import BM25_PROSE_FIELD_B, BM25_PROSE_K1
from rubi.index.indexdoc import IndexDoc
from rubi.index.querymatch import query_clauses
from rubi.index.searchindex import SearchIndex
from rubi.index.termscore import TermQuery, TermScorer

WORDS = ["alpha", "beta", "gamma", "delta", "sync", "vault", "theta", "kappa"]
QUESTIONS = ["alpha beta", "sync vault theta", "how do I sync the vault", "kappa gamma delta"]


def _doc(i: int, version: int, rng: random.Random) -> IndexDoc:
    body = " ".join(rng.choice(WORDS) for _ in range(3 + (i * 7 + version) % 30))
    return IndexDoc(
        f"d{i:03d}",
        "note",
        f"d{i:03d}.md",
        "note",
        "active",
        {
            "title": f"Doc {i} {WORDS[i % len(WORDS)]}",
            "headings": WORDS[(i + version) % len(WORDS)] if i % 3 else "",
            "body": body,
        },
    )


def _union(scorer: TermScorer, clauses: list[TermQuery]) -> dict[int, int]:
    docs: dict[int, set[int]] = {}
    for c in clauses:
        if c.origin >= 0:
            docs.setdefault(c.origin, set()).update(scorer.postings(c).docs)
    return {w: len(d) for w, d in docs.items()}


@pytest.mark.parametrize("counted_with", ["sets", "numpy"])
def test_word_dfs_equal_the_union_of_their_postings(
    monkeypatch: pytest.MonkeyPatch, counted_with: str
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    if counted_with == "numpy":
        import numpy  # noqa: F401  (loaded: the counts use it)
    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 0 if counted_with == "numpy" else 10**9)
    rng = random.Random(7)
    index = SearchIndex(cache_home() / "dfs" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(200))
    for version in range(3):
        if version:  # edits: more segments, deleted documents
            index.apply([_doc(i, version, rng) for i in rng.sample(range(200), 30)], ["d005"])
        for text in QUESTIONS:
            clauses = query_clauses(text)
            got = index._read(lambda sc, cl=clauses: sc.word_dfs(cl))
            fresh = index._read(lambda sc: TermScorer(sc.reader, B=sc.B, K1=sc.K1))
            assert got == _union(fresh, clauses), (text, version)
            assert any(df > 1 for df in got.values())
    assert index.deleted_share() > 0
    index.close()


def test_a_question_at_its_own_b_reads_each_clause_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A plain-words question asks for the body's b at BM25_PROSE_FIELD_B; its word
    # frequencies need the documents only, not the postings weighted at the index's b.
    rng = random.Random(3)
    index = SearchIndex(cache_home() / "once" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(120))
    made: list[tuple[str, str]] = []
    real = termscore.TermScorer._read

    def counting(self: TermScorer, clause: TermQuery, B: float) -> termscore.Postings:
        made.append((clause.field, clause.text))
        return real(self, clause, B)

    monkeypatch.setattr(termscore.TermScorer, "_read", counting)
    for text in QUESTIONS:
        assert index.bm25(text, k1=BM25_PROSE_K1, field_b=BM25_PROSE_FIELD_B)
    assert made and len(made) == len(set(made))  # each term's postings made once
    index.close()


def test_a_kept_index_counts_a_document_committed_after_it_was_opened() -> None:
    rng = random.Random(4)
    directory = cache_home() / "dfcommit" / "whoosh"
    writer = SearchIndex(directory)
    writer.rebuild(_doc(i, 0, rng) for i in range(40))
    kept = SearchIndex(directory, keep_open=True)
    clauses = query_clauses("quokka alpha")
    assert kept.bm25("quokka alpha")
    before = kept._read(lambda sc: sc.word_dfs(clauses))
    note = IndexDoc("new", "note", "new.md", "note", "active", {"body": "quokka alpha"})
    writer.apply([note], [])
    assert "new" in [h.id for h in kept.bm25("quokka alpha")]
    after = kept._read(lambda sc: sc.word_dfs(clauses))
    assert sum(after.values()) == sum(before.values()) + 2  # one more for each word
    kept.close()
    writer.close()
