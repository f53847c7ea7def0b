"""The loss-cause bench: each step's rank of an answer, and the step named for a loss."""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def lc() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import loss_causes

    return loss_causes


def test_rank_of_matches_a_relative_path_at_a_folder_boundary(lc: ModuleType) -> None:
    relevant = ["docs/a/setup.md"]
    assert lc.rank_of(["x.md", "vault/docs/a/setup.md"], relevant) == 2
    assert lc.rank_of(["a/setup.md"], relevant) == 1  # the relevant path ends with it
    assert lc.rank_of(["docs/a/my-setup.md", "setup.md.bak"], relevant) is None


def test_no_cause_when_no_baseline_ranks_it_higher(lc: ModuleType) -> None:
    assert lc.cause(lc.Ranks(2, 2, 3, 1, 2, 2)) is None
    assert lc.cause(lc.Ranks(None, 14, None, 30, 12, 12)) is None  # all outside the ten


def test_dense_only_when_bm25s_is_no_better(lc: ModuleType) -> None:
    assert lc.cause(lc.Ranks(4, 7, 2, 4, 4, 4)) == "dense only"


def test_the_step_that_moved_it_furthest_below_bm25s(lc: ModuleType) -> None:
    assert lc.cause(lc.Ranks(5, 1, 9, 5, 5, 5)) == "text list (BM25F)"
    assert lc.cause(lc.Ranks(9, 1, 10, 2, 9, 9)) == "note window"
    assert lc.cause(lc.Ranks(None, 2, 3, 2, 2, 22)) == "fusion (names, graph)"
    assert lc.cause(lc.Ranks(4, 1, 5, 1, 1, 1)) == "collapse"
    assert lc.cause(lc.Ranks(3, 1, 9, 2, 3, 3)) == "text list (BM25F)"  # a tie: the earlier


def _rec(qid: str, system: str, results: list[str], relevant: list[str]) -> dict[str, Any]:
    return {"set": "s", "id": qid, "system": system, "results": results, "relevant": relevant}


def test_losses_follow_the_dump_in_order_after_the_warm_up(lc: ModuleType) -> None:
    records = [
        _rec("q1", "rubi", ["b.md", "a.md"], ["a.md"]),
        _rec("q1", "bm25s", ["a.md"], ["a.md"]),
        _rec("q2", "rubi", ["c.md"], []),  # off-topic: never a loss
        _rec("q2", "bm25s", ["c.md"], []),
        _rec("q3", "rubi", ["d.md"], ["d.md"]),
        _rec("q3", "bm25s", ["e.md", "d.md"], ["d.md"]),
    ]
    warm = {"raw": ["z.md"], "window": ["z.md"], "fused": ["z.md"]}
    q1 = {"raw": ["a.md", "b.md"], "window": ["b.md", "a.md"], "fused": ["b.md", "a.md"]}
    other = {"raw": ["d.md"], "window": ["d.md"], "fused": ["d.md"]}
    found = lc.losses(records, [warm, q1, other, other])
    assert [(qid, why) for qid, _, why in found] == [("q1", "note window")]
    with pytest.raises(ValueError):
        lc.losses(records, [q1, other, other])  # no warm-up line: one short
