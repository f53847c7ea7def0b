"""The dense list's weight in the fusion: its confidence, from how far its best cosine
stands above its tenth (``rubi.search.dense.dense_weight``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import networkx as nx
import pytest

from rubi.index.store import BM25Hit
from rubi.search import dense as dense_mod
from rubi.search.dense import (
    DENSE_FULL_GAP,
    DENSE_GAP_RANK,
    DENSE_MIN_GAP,
    DENSE_MIN_SCORE,
    dense_list,
    dense_weight,
)
from rubi.search.engine import Candidates, fuse
from rubi.search.fuse import RRF_K
from rubi.semantic.dense import DenseMatch


def _scores(best: float, tenth: float) -> list[float]:
    """Twelve cosines, best first, with ``best`` first and ``tenth`` at rank 10."""
    step = (best - tenth) / (DENSE_GAP_RANK - 1)
    return [best - step * i for i in range(DENSE_GAP_RANK)] + [tenth - 0.01, tenth - 0.02]


def test_a_flat_list_weighs_nothing_and_a_standout_weighs_fully() -> None:
    assert dense_weight(_scores(0.60, 0.60 - DENSE_MIN_GAP)) == pytest.approx(0.0)
    assert dense_weight(_scores(0.60, 0.58)) == 0.0
    assert dense_weight(_scores(0.80, 0.80 - DENSE_FULL_GAP)) == pytest.approx(1.0)
    assert dense_weight(_scores(0.80, 0.40)) == 1.0  # capped
    middle = 0.70 - (DENSE_MIN_GAP + DENSE_FULL_GAP) / 2
    assert dense_weight(_scores(0.70, middle)) == pytest.approx(0.5)


def test_the_gap_is_to_rank_ten_or_the_last() -> None:
    # Ranks 11 and 12 far below change nothing: rank 10 is the reference.
    flat = [0.6] * DENSE_GAP_RANK
    assert dense_weight([*flat, 0.1, 0.0]) == 0.0
    # Fewer than ten: the last one is; one score alone has nothing to stand out from.
    assert dense_weight([0.7, 0.5]) == 1.0
    assert dense_weight([0.7, 0.68, 0.67]) == 0.0
    assert dense_weight([0.9]) == 0.0
    assert dense_weight([]) == 0.0


class _FakeIndex:
    """A stand-in for :class:`rubi.semantic.dense.DenseIndex` with fixed matches."""

    def __init__(self, scores: Sequence[float]) -> None:
        self.found = [DenseMatch(f"n{i}", s, "") for i, s in enumerate(scores)]

    def rank(self, query: Any, eligible: Any, limit: int) -> list[DenseMatch]:
        return [m for m in self.found if eligible(m.id)][:limit]


def test_dense_list_weighs_by_the_scores_under_the_floor_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rubi.semantic.dense as semantic_dense

    monkeypatch.setattr(semantic_dense, "query_vector", lambda q, t: [1.0])
    # Two notes pass the floor; the tenth (under it) is the reference: they stand out.
    scores = [0.62, 0.55, *[0.3] * 10]
    got = dense_list(_FakeIndex(scores), "q", (), lambda _id: True)  # type: ignore[arg-type]
    assert [m.id for m in got.matches] == ["n0", "n1"]
    assert all(m.score >= DENSE_MIN_SCORE for m in got.matches)
    assert got.weight == 1.0
    # Nothing passes the floor: no list, no weight.
    got = dense_list(_FakeIndex([0.39, 0.1]), "q", (), lambda _id: True)  # type: ignore[arg-type]
    assert got.matches == () and got.weight == 0.0
    assert dense_list(None, "q", (), lambda _id: True) == dense_mod.DenseList()


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
