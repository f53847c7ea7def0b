from __future__ import annotations

import networkx as nx
import pytest
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

from rubi.core.pagerank import pagerank


@pytest.mark.parametrize("personalization", [None, {0: 1.0}, {3: 2.0, 7: 1.0}])
def test_matches_networkx_reference(personalization: dict[int, float] | None) -> None:
    g = nx.gnp_random_graph(120, 0.04, directed=True, seed=7)
    ours = pagerank(g.nodes, [(a, b, 1.0) for a, b in g.edges], personalization=personalization)
    ref = _pagerank_python(g, personalization=personalization, tol=1e-12, max_iter=500)
    assert max(abs(ours[k] - ref[k]) for k in ref) < 1e-5
    assert sum(ours.values()) == pytest.approx(1.0)


def test_weights_and_known_ranks() -> None:
    # A star: everything points at the hub, which must rank first.
    ranks = pagerank(["hub", "a", "b", "c"], [(x, "hub", 1.0) for x in "abc"])
    assert max(ranks, key=ranks.__getitem__) == "hub"
    # A heavier edge carries more of the walk.
    ranks = pagerank("sxy", [("s", "x", 3.0), ("s", "y", 1.0)], personalization={"s": 1})
    assert ranks["x"] > ranks["y"] * 2.5


def test_empty_and_bad_damping() -> None:
    assert pagerank([], []) == {}
    with pytest.raises(ValueError, match="damping"):
        pagerank(["a"], [], damping=1.0)
