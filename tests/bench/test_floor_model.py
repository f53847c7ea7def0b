"""The floor's abstention-model study: the fit, the threshold's budget of hidden
answers, and leave-one-set-out folds, on hand-built rows."""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from helpers import REPO

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def fm() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import floor_model

    return floor_model


def _row(
    name: str, on: bool, cov: float, *, relevant: bool = True, named: int = 0
) -> dict[str, Any]:
    hit = {
        "coverage": cov,
        "significance": 4 * cov - 1,
        "words": 3,
        "score": 2.0,
        "len": 50,
        "held": [0, 1],
    }
    return {
        "set": name,
        "on": on,
        "found": 1 if on else None,
        "relevant": relevant,
        "named": named,
        "cjk": 0.0,
        "N": 100,
        "avglen": 50.0,
        "words": {"0": {"df": 3}, "1": {"df": 40}, "2": {"df": 0}},
        "hits": [hit, {**hit, "score": 1.0}],
    }


def test_fit_weighs_the_feature_that_separates(fm: ModuleType) -> None:
    x = np.array([[0.1], [0.2], [0.3], [0.7], [0.8], [0.9]])
    y = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    w = fm.fit(x, y, l2=0.1)
    assert w[1] > 0
    assert (fm.score(w, x)[3:] > fm.score(w, x)[:3].max()).all()


def test_threshold_hides_no_more_answers_than_the_shipped_label(fm: ModuleType) -> None:
    rows = [
        _row("a", True, 0.9),
        _row("a", True, 0.3),
        _row("a", False, 0.2),
        _row("a", False, 0.8),
    ]
    margin = np.array([2.0, -1.0, -2.0, 1.0])
    t = fm.choose(rows, margin, "alone")
    silenced, _, hidden, _ = fm.counts(rows, fm.labels(rows, margin, t, "alone"))
    # Silencing the second off-topic row would hide the on-topic one at -1.0.
    assert (silenced, hidden) == (1, 0)


def test_a_query_naming_a_note_stays_relevant(fm: ModuleType) -> None:
    rows = [_row("a", False, 0.1, named=1), _row("a", False, 0.1, relevant=False)]
    margin = np.array([-5.0, 5.0])
    assert fm.labels(rows, margin, 0.0, "alone") == [True, True]
    assert fm.labels(rows, margin, 0.0, "and") == [True, False]


def test_folds_hold_each_set_out_once(fm: ModuleType) -> None:
    rows = [
        _row(name, on, cov)
        for name in ("a", "b", "c")
        for on, cov in ((True, 0.9), (True, 0.8), (False, 0.2), (False, 0.3))
    ]
    result = fm.study(rows, ["coverage", "significance"], 1.0, False)
    assert [f["set"] for f in result["folds"]] == ["a", "b", "c"]
    for fold in result["folds"]:
        assert fold["shipped"] == (0, 2, 0, 2)
        assert fold["and"][2] == 0  # the shipped label hides nothing: neither may the model
    assert "| **pooled** |" in fm.report(result, per_fold=True)
