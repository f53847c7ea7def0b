"""A walk over a flat graph reads its neighbours' ids only (rubi.graph.flatlinks): the
same ids in the same order as the full adjacency, the same ranks, and no edge dict
decoded for a node it only walks."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from rubi.core.errors import IndexCorruptError
from rubi.core.paths import cache_home
from rubi.graph.build import GraphBuild
from rubi.graph.dicts import graph_dicts, link_dicts
from rubi.graph.flat import FlatGraph, read_flat
from rubi.graph.flatwrite import write_flat
from rubi.search.ppr import personalized_pagerank


def _graph(seed: int, nodes: int = 150, links: int = 400) -> nx.MultiDiGraph:
    """Self, parallel and repeated links, several keys between two nodes, a node with
    no neighbours at all."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    names = [f"n{i:03d}" for i in range(nodes)] + ["é/ノート", "lonely"]
    g.add_nodes_from(names)
    for i in range(links):
        u, v = rng.choice(names[:-1]), rng.choice(names[:-1])
        g.add_edge(u, v, key=rng.choice(("link", "alias", f"k{i % 3}")), relation="link")
    return g


def _flat(g: nx.MultiDiGraph) -> FlatGraph:
    path = cache_home() / "indexes" / "v" / "graph.flat"
    write_flat(path, GraphBuild(graph=g, problems_by_note={}, names={}), 1, 1)
    build, _, _ = read_flat(path)
    assert isinstance(build.graph, FlatGraph)
    return build.graph


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_flat_graphs_links_are_its_adjacencys_keys_in_order(seed: int) -> None:
    g = _graph(seed)
    f = _flat(g)
    succ, pred = link_dicts(f)
    _, full_succ, full_pred = graph_dicts(f)
    assert succ is not full_succ and len(succ) == len(g) and list(succ) == list(g)
    for node in ["lonely", *g]:  # one asked before its full dict, then after
        assert list(succ[node]) == list(g.succ[node]) == list(full_succ[node])
        assert list(pred[node]) == list(g.pred[node]) == list(full_pred[node])
        assert node in succ and len(succ[node]) == len(g.succ[node])
    assert "nowhere" not in succ
    with pytest.raises(KeyError):
        succ["nowhere"]
    plain = nx.MultiDiGraph(g)
    assert link_dicts(plain)[0] is graph_dicts(plain)[1]  # a networkx graph: its own dicts


@pytest.mark.parametrize("seed", [4, 5])
def test_a_walk_over_a_flat_graph_ranks_as_over_the_graph_and_decodes_no_edge_dict(
    seed: int,
) -> None:
    g = _graph(seed)
    f = _flat(g)
    seeds = {"n001": 1.0, "n010": 0.6, "é/ノート": 0.3}
    got = personalized_pagerank(f, seeds)
    assert got == personalized_pagerank(g, seeds) and got.ranked
    assert not f._succ._cache and not f._pred._cache  # ids only: no edge dict made


def test_a_planted_neighbour_outside_the_ids_fails_as_a_corrupt_index() -> None:
    g = _graph(6)
    f = _flat(g)
    succ, _ = link_dicts(f)
    f._succ._nbr = [10**6] * len(f._succ._nbr)  # positions past the ids
    with pytest.raises(IndexCorruptError, match="neighbours of 'n000'"):
        succ["n000"]


def test_damaged_offsets_read_as_the_positions_one_by_one_read_them() -> None:
    g = _graph(7)
    f = _flat(g)
    succ, _ = link_dicts(f)
    i = f._succ._index["n000"]
    off = list(f._succ._off)
    f._succ._off = off
    off[i + 1] = len(f._succ._nbr) + 5  # past the neighbours: a slice would stop short
    with pytest.raises(IndexCorruptError, match="neighbours of 'n000'"):
        succ["n000"]
    j = f._succ._index["n001"]
    off[j], off[j + 1] = 3, 1  # backwards: no position, as a range gives none
    assert dict(succ["n001"]) == {}


@pytest.mark.parametrize("seed", [8, 9])
def test_a_nodes_neighbours_are_counted_as_its_dict_holds_them_without_decoding_ids(
    seed: int,
) -> None:
    """Repeated links to one node count once, as the dict of ids holds them; a count
    before the dict is made decodes none, one after reads the dict; the walk counts
    its nodes' predecessors this way and ranks as before."""
    g = _graph(seed)
    f = _flat(g)
    succ, pred = link_dicts(f)
    for links, full in ((succ, g.succ), (pred, g.pred)):
        counts = {node: links.neighbour_count(node) for node in g}
        assert not links._cache  # counted on positions: no dict of ids made
        assert counts == {node: len(full[node]) for node in g}
        assert any(len(links[node]) < sum(map(len, full[node].values())) for node in g)
        assert counts == {node: links.neighbour_count(node) for node in g}  # from the dicts
    with pytest.raises(KeyError):
        pred.neighbour_count("nowhere")
    seeds = {"n002": 1.0, "n020": 0.5}
    assert personalized_pagerank(_flat(g), seeds) == personalized_pagerank(g, seeds)


def test_a_count_of_damaged_neighbours_fails_as_reading_them_does() -> None:
    g = _graph(10)
    f = _flat(g)
    _, pred = link_dicts(f)
    f._pred._nbr = [10**6] * len(f._pred._nbr)  # positions past the ids
    with pytest.raises(IndexCorruptError, match="neighbours of 'n000'"):
        pred.neighbour_count("n000")
    i = f._pred._index["n001"]
    off = list(f._pred._off)
    f._pred._off = off
    off[i + 1] = len(f._pred._nbr) + 5  # past the neighbours
    with pytest.raises(IndexCorruptError, match="neighbours of 'n001'"):
        pred.neighbour_count("n001")
