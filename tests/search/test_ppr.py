"""The search's personalized PageRank: the ranks of rubi.core.pagerank, equal ranks in
id order."""

from __future__ import annotations

import math
import random

import networkx as nx
import pytest

from rubi.core.pagerank import pagerank
from rubi.search import adjacency, ppr
from rubi.search.ppr import BACKLINK_WEIGHT, PPR_DAMPING, _neighbourhood, personalized_pagerank

WALKS = ["python", "numpy", "arrays"]


@pytest.fixture(params=WALKS)
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with every walk: pure Python, numpy (the semantic extra) with the
    links gathered per search, and numpy with the graph's kept arrays
    (:mod:`rubi.search.adjacency`, built from the first search here)."""
    if request.param != "python":
        pytest.importorskip("numpy")
    monkeypatch.setattr(ppr, "_numpy_walk", lambda: request.param != "python")
    built = 1 if request.param == "arrays" else 10**9
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", built)
    return str(request.param)


def _graph(seed: int, nodes: int = 120, links: int = 300) -> nx.MultiDiGraph:
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    names = [f"n{i:03d}" for i in range(nodes)]
    g.add_nodes_from(names)
    for _ in range(links):
        g.add_edge(rng.choice(names), rng.choice(names))  # self and parallel links too
    return g


def _case(seed: int, count: int, **size: int) -> tuple[nx.MultiDiGraph, dict[str, float]]:
    """A random graph and ``count`` seeds of random weights."""
    g = _graph(seed, **size)
    rng = random.Random(seed)
    return g, {n: rng.uniform(0.1, 2.0) for n in rng.sample(sorted(g.nodes), count)}


def _reference(g: nx.MultiDiGraph, seeds: dict[str, float]) -> dict[str, float]:
    """The walk as it was written before: an edge list for rubi.core.pagerank."""
    nodes = _neighbourhood(g, list(seeds))
    indeg = {n: len(g._pred[n]) for n in nodes}
    edges = []
    for u in nodes:
        for v in g._succ[u]:
            if v in nodes and v != u:
                edges.append((u, v, 1.0 / math.log2(2 + indeg[v])))
                edges.append((v, u, BACKLINK_WEIGHT / math.log2(2 + indeg[u])))
    return pagerank(nodes, edges, personalization=seeds, damping=PPR_DAMPING)


@pytest.mark.parametrize("seed", range(8))
def test_the_walk_gives_the_ranks_of_the_edge_list_pagerank(seed: int, walk: str) -> None:
    g, seeds = _case(seed, 4)
    want = _reference(g, seeds)
    got = dict(personalized_pagerank(g, seeds).ranked)
    assert set(got) == {n for n, r in want.items() if r > 0}
    for node, rank in got.items():
        assert rank == pytest.approx(want[node], rel=1e-9, abs=1e-15)


def test_equal_ranks_come_in_id_order(walk: str) -> None:
    g = nx.MultiDiGraph()
    leaves = ["d", "b", "e", "a", "c"]
    for leaf in leaves:  # five leaves of one seed: one rank
        g.add_edge("seed", leaf)
    ranked = personalized_pagerank(g, {"seed": 1.0}).ranked
    assert [n for n, _ in ranked] == ["seed", "a", "b", "c", "d", "e"]


@pytest.mark.parametrize("seed", range(4))
def test_the_two_walks_rank_alike_on_a_larger_graph(seed: int) -> None:
    pytest.importorskip("numpy")
    g, seeds = _case(seed, 6, nodes=2000, links=9000)
    nodes = sorted(_neighbourhood(g, list(seeds)))
    python = ppr._walk(nodes, g._succ, g._pred, seeds)
    numpy = ppr._walk_numpy(nodes, adjacency.links_among(g, nodes), seeds)  # read from g
    adjacency.BUILD_AFTER_SEARCHES, kept = 1, adjacency.BUILD_AFTER_SEARCHES
    try:
        arrays = adjacency.adjacency(g)
        assert arrays is not None  # the same links, in the same order: the same sums
        assert ppr._walk_numpy(nodes, adjacency.links_among(g, nodes), seeds) == numpy
    finally:
        adjacency.BUILD_AFTER_SEARCHES = kept
    assert python.keys() == numpy.keys()
    for node, rank in python.items():
        assert numpy[node] == pytest.approx(rank, rel=1e-12, abs=1e-18)


def test_the_walk_uses_numpy_only_with_the_dense_channel(monkeypatch: pytest.MonkeyPatch) -> None:
    from rubi import semantic

    monkeypatch.setattr(semantic, "enabled", lambda: False)
    assert ppr._numpy_walk() is False
    monkeypatch.setattr(semantic, "enabled", lambda: True)
    assert ppr._numpy_walk() is True


def test_a_seed_without_links_keeps_all_the_mass(walk: str) -> None:
    g = nx.MultiDiGraph()
    g.add_node("alone")
    g.add_edge("alone", "alone")  # a self link is not walked
    assert personalized_pagerank(g, {"alone": 0.3}).ranked == [("alone", 1.0)]


@pytest.mark.parametrize("seed", range(4))
def test_linked_only_keeps_the_seeds_and_their_neighbours_in_order(seed: int, walk: str) -> None:
    g, seeds = _case(seed, 3)
    whole = personalized_pagerank(g, seeds)
    near = personalized_pagerank(g, seeds, linked_only=True)
    assert near.via == whole.via
    want = [(n, r) for n, r in whole.ranked if n in seeds or n in whole.via]
    assert near.ranked == want and len(want) < len(whole.ranked)
