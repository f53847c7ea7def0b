"""The walk gathered on numpy arrays gives the list walk's ranks, float for float, and
the same ranked list and vias: links in any order, parallel links, self-links, hubs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import networkx as nx
import pytest

from rubi.core import pagerank, pagerankarrays
from rubi.search import ppr

from helpers import random_link_graph

np = pytest.importorskip("numpy")


def _graph(seed: int) -> tuple[nx.MultiDiGraph, list[dict[str, float]]]:
    """:func:`helpers.random_link_graph` as this file draws it."""
    return random_link_graph(seed)


def _plain(values: Any, start: float = 0.0) -> float:
    s = start
    for x in values:
        s = s + x
    return s


def _neumaier(values: Any, start: float = 0.0) -> float:
    s, c = start, 0.0
    for x in values:
        t = s + x
        c += (s - t) + x if abs(s) >= abs(x) else (x - t) + s
        s = t
    return s + c


def _walks(
    monkeypatch: pytest.MonkeyPatch, numpy: Any, g: nx.MultiDiGraph, sets: list[dict[str, float]]
) -> list[ppr.PPRResult]:
    loaded: Callable[[], Any] = lambda: numpy  # noqa: E731
    monkeypatch.setattr(ppr, "loaded_numpy", loaded)
    monkeypatch.setattr(pagerank, "loaded_numpy", loaded)
    return [
        ppr.personalized_pagerank(g, seeds, linked_only=k % 2 == 1) for k, seeds in enumerate(sets)
    ]


@pytest.mark.parametrize("compensated", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_the_array_walk_gives_the_list_walks_floats(
    monkeypatch: pytest.MonkeyPatch, seed: int, compensated: bool
) -> None:
    adder = _neumaier if compensated else _plain
    monkeypatch.setattr(pagerank, "sum", adder, raising=False)
    monkeypatch.setattr(pagerankarrays, "sum", adder, raising=False)
    monkeypatch.setattr(pagerankarrays, "COMPENSATED_SUM", compensated)
    monkeypatch.setattr(ppr, "ARRAY_NODES", 1)
    g, sets = _graph(seed)
    on_lists = _walks(monkeypatch, None, g, sets)
    on_arrays = _walks(monkeypatch, np, g, sets)
    assert on_arrays == on_lists  # the ranks' floats, the order and the vias


def test_the_array_walk_ranks_as_the_edge_list_pagerank(monkeypatch: pytest.MonkeyPatch) -> None:
    g, sets = _graph(3)
    monkeypatch.setattr(ppr, "ARRAY_NODES", 1)
    for seeds in sets:
        order = sorted(ppr._neighbourhood(g, list(seeds)))
        monkeypatch.setattr(ppr, "loaded_numpy", lambda: None)
        monkeypatch.setattr(pagerank, "loaded_numpy", lambda: None)
        want = ppr._walk(order, g.succ, g.pred, seeds)
        monkeypatch.setattr(ppr, "loaded_numpy", lambda: np)
        monkeypatch.setattr(pagerank, "loaded_numpy", lambda: np)
        assert ppr._walk(order, g.succ, g.pred, seeds) == want


def test_seeds_without_links_between_them_keep_their_teleport_ranks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A walk of many seeds and not one link among them (only self-links): each seed
    keeps its teleport share, on arrays as on lists."""
    g = nx.MultiDiGraph()
    names = [f"s{i:03d}" for i in range(80)]
    for name in names:
        g.add_edge(name, name)
    seeds = {name: 1.0 + i for i, name in enumerate(names)}
    monkeypatch.setattr(ppr, "ARRAY_NODES", 1)
    on_lists = _walks(monkeypatch, None, g, [seeds])
    on_arrays = _walks(monkeypatch, np, g, [seeds])
    assert on_arrays == on_lists
    assert len(on_arrays[0].ranked) == len(names)
