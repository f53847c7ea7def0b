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


def test_arrays_built_while_the_graph_changed_are_not_used_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A change between taking the version and storing the arrays (another thread's
    save): the arrays were stored under a version the change cleared."""
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
    g = _graph(3)
    real = adjacency._build

    def racing(graph: nx.MultiDiGraph, version: adjacency._Version) -> adjacency.Adjacency:
        built = real(graph, version)
        graph.add_edge("late", "comer")  # the change lands before the arrays are stored
        return built

    monkeypatch.setattr(adjacency, "_build", racing)
    stale = arrays_of(g)
    monkeypatch.setattr(adjacency, "_build", real)
    fresh = arrays_of(g)
    assert fresh is not None and fresh is not stale and "late" in fresh.row


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


def test_a_walk_between_a_change_and_its_cache_clear_gathers_from_the_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """networkx clears the cache after it changed the graph: a search in another thread
    that runs in between (a watcher's save) reads a node the kept arrays do not know,
    and walks the graph as it is instead of failing."""
    import linecache
    import sys
    from types import FrameType
    from typing import Any

    monkeypatch.setattr(ppr, "_numpy_walk", lambda: True)
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
    g = _graph(5)
    seed = sorted(g.nodes)[0]
    personalized(g, {seed: 1.0})
    assert arrays_of(g) is not None
    during: list[list[tuple[str, float]]] = []
    add_edge = nx.MultiDiGraph.add_edge.__code__

    def at_clear(frame: FrameType, event: str, arg: Any) -> Any:
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
        if event == "line" and not during and "_clear_cache" in line:
            during.append(personalized(g, {seed: 1.0}))  # the other thread's search
        return at_clear

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        return at_clear if frame.f_code is add_edge else None

    sys.settrace(tracer)
    try:
        g.add_edge(seed, "fresh", key="links")
    finally:
        sys.settrace(None)
    assert during and "fresh" in dict(during[0])
    assert during[0] == personalized(g.copy(), {seed: 1.0})


BUILD_CHANGES = [
    lambda g: g.add_edge(sorted(g.nodes)[0], "fresh", key="links"),
    lambda g: g.remove_edge(*next(iter(g.edges(keys=True)))),
    lambda g: g.remove_node(sorted(g.nodes)[7]),
]


@pytest.mark.parametrize("line", ["counts", "targets", "in_degree"])
@pytest.mark.parametrize("change", range(len(BUILD_CHANGES)))
def test_a_change_while_the_arrays_are_built_leaves_the_walk_to_the_graph(
    line: str, change: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another thread's save between two steps of the build (a switch of threads may
    come at any line): the arrays are not used, and the walk is the one that reads the
    changed graph, as the walk without arrays was."""
    import linecache
    import sys
    from types import FrameType
    from typing import Any

    monkeypatch.setattr(ppr, "_numpy_walk", lambda: True)
    monkeypatch.setattr(adjacency, "BUILD_AFTER_SEARCHES", 1)
    seed = {sorted(_graph(6).nodes)[0]: 1.0}

    def reading_after_change(g: nx.MultiDiGraph) -> None:
        BUILD_CHANGES[change](g)  # the walk without arrays: it reads the changed graph

    g = _graph(6)
    monkeypatch.setattr(adjacency, "adjacency", reading_after_change)
    want = personalized(g, seed)
    monkeypatch.setattr(adjacency, "adjacency", arrays_of)
    g = _graph(6)
    done: list[bool] = []

    def at_line(frame: FrameType, event: str, arg: Any) -> Any:
        text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        if event == "line" and not done and text.startswith(f"{line} ="):
            done.append(True)
            BUILD_CHANGES[change](g)
        return at_line

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        return at_line if frame.f_code is adjacency._build.__code__ else None

    sys.settrace(tracer)
    try:
        got = personalized(g, seed)
    finally:
        sys.settrace(None)
    assert done and got == want
    fresh = arrays_of(g)  # the next search: arrays of the graph as it is now
    order = sorted(g.nodes)
    assert fresh is not None
    heads, tails, _ = links_within(fresh, order)
    assert (heads.tolist(), tails.tolist()) == _links_by_python(g, order)
