"""The dicts behind a graph's reading views (rubi.graph.dicts.graph_dicts): what the
views show, in their orders, for a networkx graph and a frozen one; the graph's own
dicts (a change is seen at once: nothing kept goes stale); the views for a graph
whose parts are not plain dicts, the flat graph without thawing it."""

from __future__ import annotations

from typing import Any

import networkx as nx

from rubi.core.paths import cache_home
from rubi.graph.dicts import graph_dicts
from rubi.graph.flat import FlatGraph, read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.frozen import FrozenGraph
from rubi.graph.live import LiveGraph
from rubi.search.ppr import personalized_pagerank

from helpers import graph_notes


def _graph() -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    g.add_node("hub", kind="note", title="Hub")
    for i in range(12):
        g.add_node(f"n{i:02d}", kind="note", title=f"Note {i}")
        g.add_edge(f"n{i:02d}", "hub", key="link")
        g.add_edge(f"n{i:02d}", f"n{(i * 5 + 3) % 12:02d}", key="link")
    g.add_edge("n01", "n01", key="link")  # a self-link
    g.add_edge("n02", "n03", key="embed")  # a parallel link
    return g


def _shown(nodes: Any, succ: Any, pred: Any) -> list[Any]:
    """Every level of the three mappings, in their orders."""

    def nested(adj: Any) -> list[Any]:
        return [(u, [(v, list(adj[u][v].items())) for v in adj[u]]) for u in adj]

    return [[(n, nodes[n]) for n in nodes], nested(succ), nested(pred)]


def test_the_dicts_show_what_the_views_show_in_their_orders() -> None:
    g = _graph()
    nodes, succ, pred = graph_dicts(g)
    assert type(nodes) is dict and type(succ) is dict and type(pred) is dict
    assert _shown(nodes, succ, pred) == _shown(g.nodes, g.succ, g.pred)
    assert [len(pred[n]) for n in g] == [len(g.pred[n]) for n in g]


def test_a_frozen_graph_gives_its_own_dicts() -> None:
    g = _graph()
    f = FrozenGraph(dict(g.graph), g._node, g._succ, g._pred)
    nodes, succ, pred = graph_dicts(f)
    assert nodes is g._node and succ is g._succ and pred is g._pred
    assert _shown(nodes, succ, pred) == _shown(f.nodes, f.succ, f.pred)


def test_a_change_to_the_graph_is_read_at_once() -> None:
    g = _graph()
    seeds = {"n04": 1.0}
    before = personalized_pagerank(g, seeds)
    g.add_node("late", kind="note")
    g.add_edge("late", "n04", key="link")
    g.remove_node("n07")
    nodes, succ, pred = graph_dicts(g)
    assert "n04" in succ["late"] and "late" in pred["n04"] and "n07" not in nodes
    after = personalized_pagerank(g, seeds)
    fresh = personalized_pagerank(nx.MultiDiGraph(g), seeds)
    assert after == fresh and after != before
    assert "late" in dict(after.ranked) and "n07" not in dict(after.ranked)


def test_a_graph_whose_parts_are_not_dicts_is_read_through_its_views() -> None:
    g = _graph()
    view = nx.subgraph_view(g, filter_node=lambda n: n != "hub")
    nodes, succ, pred = graph_dicts(view)
    assert "hub" not in nodes and all("hub" not in succ[n] for n in view)
    assert _shown(nodes, succ, pred) == _shown(view.nodes, view.succ, view.pred)


def test_a_flat_graph_is_read_through_its_views_without_thawing() -> None:
    live = LiveGraph.from_notes(graph_notes(), [])
    path = cache_home() / "indexes" / "vault-1" / "graph.flat"
    write_flat(path, live.build, 7, 3)
    flat = read_flat(path)[0].graph
    assert isinstance(flat, FlatGraph)
    nodes, succ, pred = graph_dicts(flat)
    assert flat._full is None  # no networkx graph made behind it
    assert not isinstance(nodes, dict) and not isinstance(succ, dict)
    g = live.build.graph
    assert _shown(nodes, succ, pred) == _shown(g.nodes, g.succ, g.pred)
