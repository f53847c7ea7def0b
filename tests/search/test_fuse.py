from __future__ import annotations

import pytest

from rubi.search.fuse import RRF_K, rrf
from rubi.search.names import match_names


def test_rrf_scores_and_order() -> None:
    fused = rrf({"a": ["x", "y", "z"], "b": ["y", "x"]})
    assert [f.id for f in fused][:2] in (["x", "y"], ["y", "x"])
    by_id = {f.id: f for f in fused}
    assert by_id["z"].score == pytest.approx(1 / (RRF_K + 3))
    assert by_id["y"].score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert by_id["y"].ranks == {"a": 2, "b": 1}


def test_rrf_weights_and_duplicates() -> None:
    fused = rrf({"a": ["x", "x", "y"], "b": ["y"]}, weights={"b": 3.0})
    assert fused[0].id == "y"
    assert fused[1].ranks == {"a": 1}


def test_names_longest_first_and_terms() -> None:
    names = {"embed files": ["E"], "files": ["F"], "aliases": ["A"]}
    got = match_names("How do I embed files?", ["aliases"], names)
    assert [(m.id, m.name) for m in got] == [("E", "embed files"), ("A", "aliases"), ("F", "files")]
