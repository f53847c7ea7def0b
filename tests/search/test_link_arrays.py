"""The graph's successors kept as numbered arrays (rubi.graph.linkarrays): the walk
gathered from them gives the dict walk's floats, and a change of the graph made
between two walks is seen by the second (the rows are never stale)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import networkx as nx
import pytest

from rubi.core import pagerank
from rubi.graph import linkarrays
from rubi.graph.frozen import FrozenGraph
from rubi.search import ppr

from helpers import random_link_graph

np = pytest.importorskip("numpy")

_KEY = "rubi.linkarrays"


def _graph(seed: int) -> tuple[nx.MultiDiGraph, list[dict[str, float]]]:
    """:func:`helpers.random_link_graph` as this file draws it."""
    return random_link_graph(seed, most=600, keys=("link", "embed"), seed_sizes=(1, 2, 5, 8))


def _use(monkeypatch: pytest.MonkeyPatch, numpy: Any) -> None:
    loaded: Callable[[], Any] = lambda: numpy  # noqa: E731
    monkeypatch.setattr(ppr, "loaded_numpy", loaded)
    monkeypatch.setattr(pagerank, "loaded_numpy", loaded)


def _ranks(monkeypatch: pytest.MonkeyPatch, g: Any, sets: list[dict[str, float]]) -> list[Any]:
    """The walks on arrays, the graph's rows used when kept."""
    _use(monkeypatch, np)
    return [ppr.personalized_pagerank(g, seeds) for seeds in sets]


def _on_lists(monkeypatch: pytest.MonkeyPatch, g: Any, sets: list[dict[str, float]]) -> list[Any]:
    """The walks on lists, read from the dicts (no array, nothing kept)."""
    _use(monkeypatch, None)
    out = [ppr.personalized_pagerank(g, seeds) for seeds in sets]
    _use(monkeypatch, np)
    return out


def _kept(g: Any) -> Any:
    state = g.__networkx_cache__.get(_KEY)
    return None if state is None else state.arrays


@pytest.fixture(autouse=True)
def _at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows made on a graph's first walk, every walk on arrays."""
    monkeypatch.setattr(linkarrays, "BUILD_SHARE", 0.0)
    monkeypatch.setattr(ppr, "ARRAY_NODES", 1)


@pytest.mark.parametrize("seed", range(8))
def test_the_kept_rows_give_the_dict_walks_floats(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    g, sets = _graph(seed)
    want = _on_lists(monkeypatch, g, sets)
    got = _ranks(monkeypatch, g, sets)
    assert _kept(g) is not None  # the rows were used
    assert got == want  # the ranks' floats, their order and the vias
    assert _ranks(monkeypatch, g, sets) == want  # from the kept rows again


def _changes(rng: random.Random) -> list[Callable[[nx.MultiDiGraph], None]]:
    def add_link(g: nx.MultiDiGraph) -> None:
        nodes = list(g)
        g.add_edge(rng.choice(nodes), rng.choice(nodes), key="link")

    def remove_link(g: nx.MultiDiGraph) -> None:
        u, v, k = rng.choice(list(g.edges(keys=True)))
        g.remove_edge(u, v, key=k)

    def remove_node(g: nx.MultiDiGraph) -> None:
        g.remove_node(rng.choice(list(g)))

    def new_node(g: nx.MultiDiGraph) -> None:
        new = f"new{len(g)}"
        g.add_node(new)
        g.add_edges_from([(new, n, "link") for n in rng.sample(list(g), 3)])

    def several(g: nx.MultiDiGraph) -> None:
        g.remove_edges_from(rng.sample(list(g.edges(keys=True)), 5))
        g.remove_nodes_from(rng.sample(list(g), 2))

    return [add_link, remove_link, remove_node, new_node, several]


@pytest.mark.parametrize("seed", range(6))
def test_a_change_between_two_walks_is_seen_by_the_second(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    g, sets = _graph(seed)
    for change in _changes(rng) * 2:
        _ranks(monkeypatch, g, sets)
        assert _kept(g) is not None
        # a change near a seed, so that it moves the ranks
        seeds = list(rng.choice(sets))
        g.add_edge(seeds[0], rng.choice(list(g)), key="near")
        change(g)
        assert _kept(g) is None  # networkx emptied the cache
        assert _ranks(monkeypatch, g, sets) == _on_lists(monkeypatch, g, sets)


def test_a_change_through_a_thawed_frozen_graph_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frozen graph changed by its own methods (a live graph's replay) empties the
    cache of the networkx graph thawed over the same dicts."""
    g, sets = _graph(11)
    frozen = FrozenGraph(g.graph, g._node, g._succ, g._pred)
    thawed = frozen.thaw()
    seeds = sets[0]
    before = _ranks(monkeypatch, thawed, [seeds])
    assert _kept(thawed) is not None
    (seed,) = seeds
    nodes = list(g)
    for change in (
        lambda: frozen.add_edge(seed, nodes[0], key="link"),
        lambda: frozen.add_edge(nodes[1], seed, key="link"),
        lambda: frozen.remove_edge(seed, nodes[0], key="link"),
        lambda: frozen.add_node("fresh"),
        lambda: frozen.add_edge(seed, "fresh", key="link"),
        lambda: frozen.remove_node(nodes[1]),
    ):
        _ranks(monkeypatch, thawed, [seeds])
        assert _kept(thawed) is not None
        change()
        assert _kept(thawed) is None
        assert _ranks(monkeypatch, thawed, [seeds]) == _on_lists(monkeypatch, thawed, [seeds])
    assert _ranks(monkeypatch, thawed, [seeds]) != before


def test_rows_made_while_the_graph_changes_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change in another thread while the rows are made: they are not used or kept."""
    g, sets = _graph(5)
    make = linkarrays._make
    nodes = list(g)

    def changing(*args: Any) -> Any:
        rows = make(*args)
        g.add_edge(nodes[0], nodes[1], key="meanwhile")  # empties the cache
        return rows

    monkeypatch.setattr(linkarrays, "_make", changing)
    succ, pred = g._succ, g._pred
    assert linkarrays.link_arrays(np, g, succ, pred, 10) is None
    assert _kept(g) is None
    monkeypatch.setattr(linkarrays, "_make", make)
    assert _ranks(monkeypatch, g, sets) == _on_lists(monkeypatch, g, sets)


def test_rows_are_made_once_the_walks_cover_the_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linkarrays, "BUILD_SHARE", 1.0)
    g, _ = _graph(2)
    succ, pred, n = g._succ, g._pred, len(g)
    assert linkarrays.link_arrays(np, g, succ, pred, n // 2) is None
    assert linkarrays.link_arrays(np, g, succ, pred, n - n // 2 - 1) is None
    rows = linkarrays.link_arrays(np, g, succ, pred, 1)
    assert rows is not None
    assert linkarrays.link_arrays(np, g, succ, pred, 1) is rows
    g.add_node("another")  # a new version starts counting again
    assert linkarrays.link_arrays(np, g, succ, pred, 1) is None


def test_a_frozen_or_plain_reader_keeps_nothing() -> None:
    g, _ = _graph(4)
    frozen = FrozenGraph(g.graph, g._node, g._succ, g._pred)
    assert linkarrays.link_arrays(np, frozen, g._succ, g._pred, 10**6) is None
    assert linkarrays.link_arrays(np, g, g.succ, g.pred, 10**6) is None  # views, not dicts


@pytest.mark.parametrize("cap", [1, 2, 7, 60, 400, 3000])
@pytest.mark.parametrize("hub", [0, 3, 12, 200])
def test_the_neighbourhood_on_rows_is_the_dict_walks(
    monkeypatch: pytest.MonkeyPatch, cap: int, hub: int
) -> None:
    """The same nodes, cut at the cap where the node-by-node walk stops (its order of
    adding: frontier by frontier, each node's new neighbours ascending), hubs walked
    through only when seeds; seeds of every count below the cap."""
    from rubi.search.walkarrays import neighbourhood

    monkeypatch.setattr(ppr, "MAX_WALK_NODES", cap)
    monkeypatch.setattr(ppr, "HUB_DEGREE", hub)
    for seed in range(3):
        g, sets = _graph(seed)
        rows = linkarrays.link_arrays(np, g, g._succ, g._pred, 10**6)
        assert rows is not None
        for seeds in [*sets, {n: 1.0 for n in random.Random(seed).sample(list(g), 40)}]:
            start = list(seeds)
            if len(start) >= cap:
                continue
            want = sorted(ppr._neighbourhood(g, start))
            near = neighbourhood(np, rows, [rows.number[s] for s in start], ppr.RADIUS, hub, cap)
            assert [rows.names[i] for i in near.tolist()] == want
