"""Recall read as a classifier: the rules' gates on hand-built dump rows, the points
they give, the split of sets by name and the operating point chosen on the fit half."""

from __future__ import annotations

import math
import sys
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO

BENCH = REPO / "bench"
HIT = {"cov": 0.3, "sig": 1.0, "words": 3}


@pytest.fixture(scope="module")
def rules() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import recall_rules

    return recall_rules


def _row(
    name: str,
    on: bool,
    *,
    cov: float,
    sig: float,
    words: int = 3,
    shipped: int = 5,
    written: int = 5,
    answer: bool = True,
    window: float | None = None,
) -> dict[str, Any]:
    return {
        "set": name,
        "on": on,
        "hits": [{"cov": cov, "sig": sig, "words": words}],
        "named": 0,
        "cjk": 0.0,
        "most": 5.0,
        "window": window,
        "shipped": shipped,
        "written": written,
        "long_said": True,
        "long_answer": on and answer,
    }


def test_the_floor_read_from_the_dump_is_the_shipped_one(rules: ModuleType) -> None:
    from rubi.search.reweighting import relevant

    for cov, sig, words in ((0.55, 1.0, 2), (0.45, 3.5, 3), (0.45, 3.5, 2), (0.6, -1.0, 4)):
        row = _row("kb-a", True, cov=cov, sig=sig, words=words)
        co = sig if words >= 3 else 0.0
        expected = relevant(cov, 0, 0.0, significance=sig, co_occurrence=co, most=5.0)
        assert rules.floor_label(row) is expected
    row = _row("kb-a", True, cov=0.55, sig=1.0)
    assert not rules.floor_label(row, cover=0.6)  # the coverage floor raised
    row = _row("kb-a", True, cov=0.3, sig=4.5)
    assert rules.floor_label(row) and not rules.floor_label(row, sig=5.0)
    assert rules.floor_label({**row, "named": 1}, cover=0.9, sig=9.0)  # a name still counts


def test_each_gate_reads_its_own_evidence(rules: ModuleType) -> None:
    weak_long = _row("kb-a", False, cov=0.3, sig=1.0, shipped=14, written=9, words=3)
    assert rules.shipped(weak_long)  # the long route skips the floor
    assert not rules.raised(0.5, math.log(20), everywhere=True)(weak_long)
    assert rules.raised(0.9, 9.0)(weak_long)  # raising the floor leaves the long route
    assert not rules.words(0.5)(weak_long)  # 3 words held of 9 written < ceil(4.5)
    assert rules.words(0.3)(weak_long)
    assert rules.window(0.3)(weak_long)  # no window: read by its coverage
    assert not rules.long_significance(math.log(20))(weak_long)  # 1 nat: no evidence
    assert rules.long_significance(math.log(20))({**weak_long, "hits": [{**HIT, "sig": 4.0}]})
    assert not rules.long_significance(5.0)({**weak_long, "hits": [{**HIT, "sig": 4.0}]})
    assert rules.long_floor(0.3, math.log(20))(weak_long)  # coverage 0.3, significance 1 > 0
    assert not rules.long_floor(0.4, math.log(20))(weak_long)
    assert not rules.long_floor(0.2, 0.0)({**weak_long, "hits": [{**HIT, "cov": 0.1, "sig": -1.0}]})
    assert not rules.window(0.4)({**weak_long, "window": 0.35})


def test_points_halves_and_the_operating_point(rules: ModuleType) -> None:
    rows = [
        _row("kb-a", False, cov=0.55, sig=1.0),  # passes the shipped floor, not c 0.6
        _row("kb-a", True, cov=0.9, sig=6.0),
        _row("kb-a", True, cov=0.58, sig=1.0, answer=False),  # a wrong note, silenced by c 0.6
        _row("kb-b", False, cov=0.2, sig=0.0),
        _row("kb-c", True, cov=0.7, sig=2.0),
        _row("kb-z", False, cov=0.9, sig=9.0),
    ]
    base = rules.point(rows[:3], rules.shipped)
    assert (base.silent, base.off, base.named, base.on, base.wrong, base.said) == (0, 1, 1, 2, 1, 3)
    parts = rules.halves(rows, ["kb-z"])
    assert {r["set"] for r in parts["fit"]} == {"kb-a", "kb-c"}
    assert {r["set"] for r in parts["check"]} == {"kb-b"}
    assert [r["set"] for r in parts["unseen"]] == ["kb-z"]
    assert rules.choose(rows[:3], base) == ("floor", "c 0.6 s 3.0")  # the first at no loss
    assert rules.choose(rows[:3], base, goal=1.01) is None
    assert rules.within(rows[:3], base) == ("floor", "c 0.6 s 3.0")  # silences 1, loses 0
    assert rules.within(rows[1:3], rules.point(rows[1:3], rules.shipped)) == ("shipped", "-")
    printed = rules.curves(rows, ["kb-z"])
    assert "chosen on the fit half: floor c 0.6 s 3.0" in printed
    assert "unseen: silent 0 -> 0 of 1" in printed
