"""bench/dense_vote.py: the dense list's solo MRR beside the text list's, and offline
fusions with it at each weight rule, from captured lists."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers import REPO


@pytest.fixture(scope="module")
def dv() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))
    import dense_vote

    return dense_vote


def _row(query: str, bm25: list[str], dense: list[str], weight: float) -> dict[str, object]:
    ids = set(bm25) | set(dense)
    return {
        "query": query,
        "bm25": [[x, 1.0] for x in bm25],
        "names": [],
        "graph": [],
        "dense": [[x, 0.5] for x in dense],
        "dense_weight": weight,
        "median": 0.1,
        "paths": {x: f"{x}.md" for x in ids},
    }


def test_solo_and_fused_figures_per_rule(dv: ModuleType, tmp_path: Path) -> None:
    lists = tmp_path / "s.lists.jsonl"
    rows = [
        _row("q1", ["a", "b", "c"], ["c", "a"], 0.0),  # text first: 1; dense: 1/2
        _row("q1", ["x"], ["y"], 0.0),  # the same question searched again: not counted
        _row("q2", ["d", "e"], ["e", "d"], 1.0),  # answer e: text 1/2, dense 1
        _row("off", ["a"], ["b"], 0.0),  # off-topic: not counted
    ]
    lists.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    dump = [
        {"query": "q1", "relevant": ["a.md"]},
        {"query": "q2", "relevant": ["e.md"]},
        {"query": "off", "relevant": []},
    ]
    (tmp_path / "s.dump.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in dump), encoding="utf-8"
    )
    name, n, sums = dv.set_figures(lists)
    assert (name, n) == ("s", 2)
    assert sums["text"] == pytest.approx(1 + 1 / 2)
    assert sums["dense"] == pytest.approx(1 / 2 + 1)
    assert sums["voted"] == 1
    assert sums["off"] == pytest.approx(1 + 1 / 2)  # the text list alone
    # q2 at weight 1: d and e tie on their summed votes, d first as first seen
    assert sums["1.0"] == pytest.approx(1 + 1 / 2)
    assert sums["shipped"] == pytest.approx(1 + 1 / 2)


def test_weighted_rrf_orders_by_summed_votes(dv: ModuleType) -> None:
    assert dv.fuse([(["a", "b"], 1.0), (["b", "c"], 1.0)]) == ["b", "a", "c"]
    assert dv.fuse([(["a", "b"], 1.0), (["b"], 0.0)]) == ["a", "b"]
