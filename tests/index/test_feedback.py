"""RM3 pseudo-relevance feedback: the relevance model, its weights and its clauses."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.core.paths import index_dir_for
from rubi.index.feedback import expansion_clauses, expansion_weights, relevance_model, rm3
from rubi.index.searchindex import IndexDoc, SearchIndex
from rubi.index.termscore import TermQuery


def test_relevance_model_weighs_terms_by_document_score_and_share() -> None:
    docs = [(3.0, ["alpha", "beta", "beta", "gamma"]), (1.0, ["beta", "delta"])]
    model = relevance_model(docs, lambda _t: 1, 100, terms=10)
    # P(w|R) ∝ sum_d score(d)/total * tf(w,d)/|d|: beta 0.75*0.5 + 0.25*0.5 = 0.5
    assert model["beta"] == pytest.approx(0.5)
    assert model["alpha"] == pytest.approx(0.75 * 0.25)
    assert model["delta"] == pytest.approx(0.25 * 0.5)
    assert sum(model.values()) == pytest.approx(1.0)
    assert next(iter(model)) == "beta"


def test_relevance_model_keeps_the_heaviest_terms_renormalised() -> None:
    docs = [(1.0, ["a1", "a1", "a1", "b2", "b2", "c3"])]
    model = relevance_model(docs, lambda _t: 1, 100, terms=2)
    assert list(model) == ["a1", "b2"]
    assert model["a1"] == pytest.approx(0.6)


def test_relevance_model_drops_common_skipped_numeric_and_short_terms() -> None:
    docs = [(1.0, ["common", "asked", "2024", "x", "rare", "语言"])]
    dfs = {"common": 50}
    model = relevance_model(docs, lambda t: dfs.get(t, 1), 100, terms=10, skip={"asked"})
    assert set(model) == {"rare", "语言"}


def test_relevance_model_without_scores_is_empty() -> None:
    assert relevance_model([(0.0, ["word"])], lambda _t: 1, 10, terms=5) == {}
    assert relevance_model([(1.0, ["word"])], lambda _t: 1, 10, terms=0) == {}


def test_expansion_weights_follow_rm3_interpolation() -> None:
    # alpha 0.5, 4 question words (each 1/4 of P(w|Q)): scaled so a question word is 1
    assert expansion_weights({"a": 0.5, "b": 0.5}, 4, 0.5) == {"a": 2.0, "b": 2.0}
    assert expansion_weights({"a": 1.0}, 2, 0.8) == {"a": pytest.approx(0.5)}
    assert expansion_weights({"a": 1.0}, 2, 1.0) == {}


def test_expansion_clauses_add_new_words_in_prose_fields_only() -> None:
    question = [TermQuery("body", "cach", 1.0, 0, origin=0)]
    out = expansion_clauses(
        question, {"cach": 3.0, "evict": 0.5}, ["body", "symbols", "code_title"]
    )
    added = out[1:]
    assert [(c.field, c.text, c.word, c.origin, c.weight) for c in added] == [
        ("body", "evict", 1, -1, 0.5)
    ]


def test_a_feedback_term_brings_the_document_that_lacks_the_question_words(
    tmp_path: Path,
) -> None:
    def note(i: int, body: str) -> IndexDoc:
        return IndexDoc(f"n{i}", "note", f"n{i}.md", "note", "active", {"body": body})

    docs = [
        note(0, "expire stale cache entries: eviction of cache entries by age"),
        note(1, "eviction policy: least recently used items are dropped first"),
        *(note(i, f"unrelated page {i} about gardening and tomatoes") for i in range(2, 40)),
    ]
    index = SearchIndex(index_dir_for(tmp_path) / "whoosh")
    index.rebuild(docs)
    first = index.bm25("stale cache entries")
    assert [h.id for h in first] == ["n0"]
    fed = [(first[0].score, ["expir", "stale", "cach", "entri", "evict", "age"])]
    second = index.bm25("stale cache entries", expand=rm3(fed, terms=10, alpha=0.5))
    assert [h.id for h in second] == ["n0", "n1"]
    assert second[1].coverage == 0.0  # the floor reads the question's words alone
