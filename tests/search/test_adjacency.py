"""The graph's links as arrays (rubi.search.adjacency): kept while the graph does not
change, never served after a change, and the links a walk gathers from them are the
links it would gather from the graph."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from rubi.search import adjacency, ppr
from rubi.search.adjacency import adjacency as arrays_of
from rubi.search.adjacency import links_within

np = pytest.importorskip("numpy")


def _graph(seed: int) -> nx.MultiDiGraph:
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    names = [f"n{i:03d}" for i in rng.sample(range(400), 300)]  # not in id order
    g.add_nodes_from(names)
    for _ in range(900):
        g.add_edge(rng.choice(names), rng.choice(names), key=rng.choice(["links", "about"]))
    return g


def _links_by_python(g: nx.MultiDiGraph, order: list[str]) -> tuple[list[int], list[int]]:
    """A per-node loop over the graph (an independent reference)."""
    index = {n: i for i, n in enumerate(order)}
    heads: list[int] = []
    tails: list[int] = []
    for i, u in enumerate(order):
        for v in g._succ[u]:
            j = index.get(v)
            if j is not None and j != i:
                heads.append(i)
                tails.append(j)
    return heads, tails


@pytest.mark.parametrize("seed", range(6))
def test_the_links_gathered_are_the_graphs_in_its_order(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
    g = _graph(seed)
    rng = random.Random(seed)
    order = sorted(rng.sample(sorted(g.nodes), 120))
    adj = arrays_of(g)
    assert adj is not None
    heads, tails, in_degree = links_within(adj, order)
    assert (heads.tolist(), tails.tolist()) == _links_by_python(g, order)
    assert in_degree.tolist() == [float(len(g._pred[n])) for n in order]


def test_arrays_are_built_on_the_second_search_of_a_version_and_kept() -> None:
    g = _graph(1)
    assert adjacency.BUILD_AFTER_SEARCHES == 2
    assert arrays_of(g) is None  # one search of this version: not worth a build
    kept = arrays_of(g)
    assert kept is not None and arrays_of(g) is kept


def test_a_larger_graph_waits_for_more_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adjacency, "NODES_PER_SEARCH", 60)  # 300 nodes: 5 searches
    g = _graph(1)
    assert [arrays_of(g) is None for _ in range(5)] == [True] * 4 + [False]


CHANGES = [
    lambda g: g.add_edge("n_new", "n_other"),
    lambda g: g.add_node("lonely"),
    lambda g: g.add_nodes_from(["a1", "a2"]),
    lambda g: g.add_edges_from([(sorted(g.nodes)[0], sorted(g.nodes)[1], "links")]),
    lambda g: g.remove_node(sorted(g.nodes)[5]),
    lambda g: g.remove_nodes_from(sorted(g.nodes)[:3]),
    lambda g: g.remove_edge(*next(iter(g.edges(keys=True)))),
    lambda g: g.remove_edges_from(list(g.edges(keys=True))[:10]),
    lambda g: g.clear_edges(),
]


@pytest.mark.parametrize("change", range(len(CHANGES)))
def test_a_change_through_the_graphs_methods_is_never_served_old_arrays(
    change: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
    g = _graph(2)
    before = arrays_of(g)
    CHANGES[change](g)
    after = arrays_of(g)
    assert after is not None and after is not before
    order = sorted(g.nodes)
    heads, tails, _ = links_within(after, order)
    assert (heads.tolist(), tails.tolist()) == _links_by_python(g, order)


def test_without_a_networkx_cache_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)

    class Bare:  # a graph of networkx before 3.3: no __networkx_cache__
        def __init__(self) -> None:
            self._succ: dict[str, dict[str, object]] = {"a": {"b": {}}, "b": {}}
            self._pred: dict[str, dict[str, object]] = {"a": {}, "b": {"a": {}}}

    assert arrays_of(Bare()) is None


def test_a_walk_with_arrays_ranks_as_the_graph_walk_after_edits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ppr, "_numpy_walk", lambda: True)
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
    g = _graph(4)
    seeds = {n: 1.0 for n in sorted(g.nodes)[:4]}
    rng = random.Random(4)
    for step in range(5):
        with_arrays = personalized(g, seeds)
        monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 10**9)
        g2 = g.copy()  # a fresh graph: no arrays kept for it
        assert personalized(g2, seeds) == with_arrays, step
        monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
        names = sorted(g.nodes)
        g.add_edge(rng.choice(names), rng.choice(names), key="links")
        g.remove_node(rng.choice(names[10:]))


def personalized(g: nx.MultiDiGraph, seeds: dict[str, float]) -> list[tuple[str, float]]:
    return ppr.personalized_pagerank(g, seeds).ranked
