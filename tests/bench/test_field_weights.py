"""The field-weight grid bench: its settings and its per-set means."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from helpers import REPO

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def fw() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import field_weights

    return field_weights


def test_settings_are_the_product_of_the_grids(fw: ModuleType) -> None:
    got = fw.settings(["code_title=1,2", "docs=3"])
    assert got == [{"code_title": 1.0, "docs": 3.0}, {"code_title": 2.0, "docs": 3.0}]
    assert fw.settings([]) == [{}]


def test_one_at_a_time_starts_from_the_current_weights(fw: ModuleType) -> None:
    got = fw.settings(["code_title=1,2", "docs=3"], one_at_a_time=True)
    assert got == [{}, {"code_title": 1.0}, {"code_title": 2.0}, {"docs": 3.0}]


@pytest.mark.parametrize("grid", ["nofield=1", "docs=", "docs=-1", "docs=x"])
def test_bad_grids_are_refused(fw: ModuleType, grid: str) -> None:
    with pytest.raises(SystemExit):
        fw.settings([grid])


def test_a_set_mean_is_the_mean_of_its_repositories(fw: ModuleType) -> None:
    rows = [
        {"repo": "a", "ndcg": 1.0},
        {"repo": "a", "ndcg": 0.0},
        {"repo": "a", "ndcg": 0.5},
        {"repo": "b", "ndcg": 1.0},
    ]
    assert fw.set_mean(rows) == pytest.approx((0.5 + 1.0) / 2)
    assert fw.set_mean([]) == 0.0
