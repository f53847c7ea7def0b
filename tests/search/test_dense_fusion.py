"""The dense list's weight in the fusion: its confidence, from how far its best cosine
stands above the median document's and above the list's own first ten
(``rubi.search.dense.dense_weight``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from rubi import app, semantic
from rubi.index.querymatch import BM25Hit
from rubi.search.dense import (
    DENSE_FULL_GAP,
    DENSE_MIN_GAP,
    DENSE_MIN_SCORE,
    DENSE_PEERS,
    DenseList,
    dense_list,
    dense_weight,
)
from rubi.search.engine import fuse
from rubi.search.fuse import RRF_K
from rubi.search.lists import Candidates
from rubi.semantic.dense import DenseMatch, DenseRanking


def test_a_match_that_does_not_stand_out_weighs_nothing() -> None:
    assert dense_weight(0.60, 0.60) == 0.0
    assert dense_weight(0.60, 0.60 - DENSE_MIN_GAP) == pytest.approx(0.0)
    assert dense_weight(0.40, 0.50) == 0.0  # below the background: never negative


def test_a_match_far_above_the_median_weighs_fully_and_linearly_between() -> None:
    assert dense_weight(0.80, 0.80 - DENSE_FULL_GAP) == pytest.approx(1.0)
    assert dense_weight(0.90, 0.20) == 1.0  # capped
    middle = (DENSE_MIN_GAP + DENSE_FULL_GAP) / 2
    assert dense_weight(0.70, 0.70 - middle) == pytest.approx(0.5)


def test_a_best_match_that_does_not_lead_its_own_list_weighs_nothing() -> None:
    # Far above the vault's median, but ten near-equal candidates: no first to vote.
    alike = [0.80, 0.79, 0.79, 0.78, 0.78, 0.78, 0.77, 0.77, 0.77, 0.76]
    assert dense_weight(0.80, 0.30) == 1.0
    assert dense_weight(0.80, 0.30, alike) == 0.0


def test_the_weight_is_the_smaller_of_the_two_separations() -> None:
    middle = (DENSE_MIN_GAP + DENSE_FULL_GAP) / 2
    # Leads its list (the other nine 0.30 lower) by more than the full gap ...
    leading = [0.80] + [0.50] * (DENSE_PEERS - 1)
    assert dense_weight(0.80, 0.30, leading) == 1.0
    # ... but only halfway above the median: the median decides.
    assert dense_weight(0.80, 0.80 - middle, leading) == pytest.approx(0.5)
    # Far above the median, halfway ahead of the mean of its first ten.
    lead = [0.80] + [0.80 - middle * DENSE_PEERS / (DENSE_PEERS - 1)] * (DENSE_PEERS - 1)
    assert dense_weight(0.80, 0.30, lead) == pytest.approx(0.5)
    # Only the first DENSE_PEERS count: more low documents change nothing.
    assert dense_weight(0.80, 0.30, lead + [0.0] * 40) == pytest.approx(0.5)


class _FakeIndex:
    """A stand-in for :class:`rubi.semantic.dense.DenseIndex` with fixed matches."""

    def __init__(self, scores: Sequence[float], median: float) -> None:
        self.found = [DenseMatch(f"n{i}", s, "") for i, s in enumerate(scores)]
        self.median = median

    def ranked(self, query: Any, eligible: Any, limit: int) -> DenseRanking:
        return DenseRanking([m for m in self.found if eligible(m.id)][:limit], self.median)


def test_dense_list_keeps_the_floor_and_weighs_by_the_best_eligible(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rubi.semantic.dense as semantic_dense

    monkeypatch.setattr(semantic_dense, "query_vector", lambda q, t: [1.0])
    index: Any = _FakeIndex([0.62, 0.55, 0.3, 0.2], median=0.25)
    got = dense_list(index, "q", (), lambda _id: True)
    assert [m.id for m in got.matches] == ["n0", "n1"]
    assert all(m.score >= DENSE_MIN_SCORE for m in got.matches)
    assert got.weight == 1.0  # 0.62 is 0.37 above the median
    # n0 not eligible: n1 is the best, 0.30 above the median.
    got = dense_list(index, "q", (), lambda i: i != "n0")
    assert got.weight == dense_weight(0.55, 0.25, [0.55, 0.3, 0.2])
    # A flat index: every document near the best.
    flat: Any = _FakeIndex([0.62, 0.61, 0.60, 0.60], median=0.60)
    assert dense_list(flat, "q", (), lambda _id: True).weight == 0.0
    # Nothing passes the floor: no list, no weight.
    low: Any = _FakeIndex([0.39, 0.1], median=0.1)
    assert dense_list(low, "q", (), lambda _id: True) == DenseList()
    # Far above the median, but the nearest documents (floor or not) are as close.
    alike: Any = _FakeIndex([0.62, 0.61, 0.60, 0.39, 0.38, 0.1], median=0.1)
    assert dense_list(alike, "q", (), lambda _id: True).weight == dense_weight(
        0.62, 0.1, [0.62, 0.61, 0.60, 0.39, 0.38, 0.1]
    )
    assert 0.0 < dense_list(alike, "q", (), lambda _id: True).weight < 1.0
    assert dense_list(None, "q", (), lambda _id: True) == DenseList()


def _candidates(weight: float) -> Candidates:
    bm25 = [BM25Hit(i, 1.0, {}, "note", f"{i}.md", i) for i in ("a", "b", "c")]
    dense = [DenseMatch(i, 0.7, "") for i in ("c", "b", "a")]
    return Candidates(bm25, [], [], {}, dense, weight)


def _graph() -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    for i in ("a", "b", "c"):
        g.add_node(i, kind="note")
    return g


def test_fuse_leaves_out_a_dense_list_of_weight_zero() -> None:
    fused, _ = fuse(_graph(), _candidates(0.0), tests_wanted=False)
    assert [f.id for f in fused] == ["a", "b", "c"]
    assert all("dense" not in f.ranks for f in fused)  # no "close in meaning" reason
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1))


def test_fuse_scales_the_dense_list_by_its_weight() -> None:
    full, _ = fuse(_graph(), _candidates(1.0), tests_wanted=False)
    half, _ = fuse(_graph(), _candidates(0.5), tests_wanted=False)
    by_full = {f.id: f.score for f in full}
    by_half = {f.id: f.score for f in half}
    assert by_full["c"] == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))
    assert by_half["c"] == pytest.approx(1 / (RRF_K + 3) + 0.5 / (RRF_K + 1))
    # At full weight the reversed dense list ties the three; at half the words lead.
    assert [f.id for f in half] == ["a", "b", "c"]
    assert half[0].ranks == {"bm25": 1, "dense": 3}


@pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)
def test_on_a_real_vault_the_answer_stands_out_and_copies_do_not_hide_it(
    help_vault: Path,
) -> None:
    from rubi.semantic.dense import dense_index_for, query_vector

    paths = app.locate(help_vault)
    app.index(paths)
    index = dense_index_for(paths.index_dir)
    assert index is not None
    query = query_vector("a new journal page for each day", [])
    found = index.ranked(query, lambda _: True, 10)
    every = index.ranked(query, lambda _: True, len(index)).matches
    assert found.matches == every[:10]
    scores = sorted(m.score for m in every)
    assert found.median == pytest.approx(
        (scores[len(scores) // 2] + scores[(len(scores) - 1) // 2]) / 2
    )
    weight = dense_weight(found.matches[0].score, found.median)
    assert 0.0 < weight <= 1.0
    # Ten copies of the answer leave the background (and so the weight) as it was.
    daily = (help_vault / "Plugins" / "Daily notes.md").read_text(encoding="utf-8")
    for i in range(10):
        (help_vault / "Plugins" / f"Daily notes {i}.md").write_text(daily, encoding="utf-8")
    app.index(paths)
    index = dense_index_for(paths.index_dir)
    assert index is not None
    again = index.ranked(query, lambda _: True, 20)
    assert all(m.id.startswith("Plugins/Daily notes") for m in again.matches[:11])
    assert abs(again.median - found.median) < 0.01
    assert dense_weight(again.matches[0].score, again.median) == pytest.approx(weight, abs=0.1)
    # But the copies are the list's whole first ten: it no longer leads, and the
    # text list, which finds the copies too, ranks alone (``dense_weight``).
    nearest = [m.score for m in again.matches]
    assert dense_weight(again.matches[0].score, again.median, nearest) == 0.0


def test_the_dense_list_says_what_its_weight_was_measured_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rubi.semantic.dense as semantic_dense

    monkeypatch.setattr(semantic_dense, "query_vector", lambda q, t: [1.0])
    index: Any = _FakeIndex([0.62, 0.55], median=0.25)
    # Every hit of the list shows it, so it names whose numbers they are (the best
    # match's: a second hit read "0.48 closer than typical" as its own), and what the
    # lead is over (the mean of the list's first DENSE_PEERS, not "the next" one).
    assert dense_list(index, "q", (), lambda _id: True).evidence == (
        "best match: 0.37 over typical, 0.04 over top 2"
    )
