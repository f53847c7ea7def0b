"""The code-search noise script: its bootstrap interval and its losses by category."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script


@pytest.fixture(scope="module")
def noise() -> ModuleType:
    return load_script("bench/code_search_noise.py")


def _row(cat: str, ndcg: float, base: float, results: list[str]) -> dict[str, object]:
    return {
        "category": cat,
        "ndcg": ndcg,
        "bm25s_ndcg": base,
        "targets": ["a.py"],
        "results": results,
    }


def test_interval_is_zero_wide_without_spread_and_holds_the_mean(noise: ModuleType) -> None:
    rng = random.Random(1)
    flat = {"r": [_row("semantic", 0.5, 0.25, ["a.py"])] * 6}
    s = noise.set_bootstrap(flat, 200, rng)
    assert s["interval"] == (0.5, 0.5) and s["difference_interval"] == (0.25, 0.25)
    spread = {
        "r": [_row("semantic", float(i % 2), 0.0, []) for i in range(8)],
        "s": [_row("semantic", 1.0, 0.0, [])] * 4,
    }
    s = noise.set_bootstrap(spread, 400, rng)
    low, high = s["interval"]
    assert s["ndcg"] == 0.75  # the mean over repositories, not over the 12 questions
    assert low < 0.75 < high and high <= 1.0 and s["sd"] > 0


def test_losses_by_category(noise: ModuleType, tmp_path: Path) -> None:
    rows = [
        _row("architecture", 1.0, 0.5, ["lib/a.py", "b.py"]),
        _row("architecture", 0.6, 1.0, ["b.py", "lib/a.py"]),
        _row("semantic", 0.0, 0.0, ["b.py"]),
        _row("semantic", 0.5, 0.5, ["xa.py", "a.py"]),  # xa.py is not a.py
    ]
    table = {c["category"]: c for c in noise.category_table(rows, 100, random.Random(2))}
    arch, sem = table["architecture"], table["semantic"]
    assert (arch["questions"], arch["not_first"], arch["not_in_ten"], arch["below_bm25s"]) == (
        2,
        1,
        0,
        1,
    )
    assert (sem["not_first"], sem["not_in_ten"], sem["below_bm25s"]) == (2, 1, 0)
    assert noise.first_relevant(["src/lib/a.py"], "a.py") == 1
    path = tmp_path / "set.json"
    path.write_text(json.dumps([{"name": "r", "per_query": rows}]), encoding="utf-8")
    assert noise.main([str(path), "--rounds", "50"]) == 0
