"""The search's personalized PageRank: the ranks of rubi.core.pagerank (the one
PageRank, whatever extras are installed), equal ranks in id order, the graph read
through rubi.graph.dicts (no private networkx attribute named in rubi.search)."""

from __future__ import annotations

import ast
import math
import random
from pathlib import Path

import networkx as nx
import pytest

from rubi.core.pagerank import pagerank
from rubi.search import ppr
from rubi.search.ppr import BACKLINK_WEIGHT, PPR_DAMPING, _neighbourhood, personalized_pagerank

from helpers import copy_vault


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
    indeg = {n: len(g.pred[n]) for n in nodes}
    edges = []
    for u in nodes:
        for v in g.succ[u]:
            if v in nodes and v != u:
                edges.append((u, v, 1.0 / math.log2(2 + indeg[v])))
                edges.append((v, u, BACKLINK_WEIGHT / math.log2(2 + indeg[u])))
    return pagerank(nodes, edges, personalization=seeds, damping=PPR_DAMPING)


@pytest.mark.parametrize("seed", range(8))
def test_the_walk_gives_the_ranks_of_the_edge_list_pagerank(seed: int) -> None:
    g, seeds = _case(seed, 4)
    want = _reference(g, seeds)
    got = dict(personalized_pagerank(g, seeds).ranked)
    assert set(got) == {n for n, r in want.items() if r > 0}
    for node, rank in got.items():
        assert rank == pytest.approx(want[node], rel=1e-9, abs=1e-15)


def test_equal_ranks_come_in_id_order() -> None:
    g = nx.MultiDiGraph()
    leaves = ["d", "b", "e", "a", "c"]
    for leaf in leaves:  # five leaves of one seed: one rank
        g.add_edge("seed", leaf)
    ranked = personalized_pagerank(g, {"seed": 1.0}).ranked
    assert [n for n, _ in ranked] == ["seed", "a", "b", "c", "d", "e"]


def test_a_seed_without_links_keeps_all_the_mass() -> None:
    g = nx.MultiDiGraph()
    g.add_node("alone")
    g.add_edge("alone", "alone")  # a self link is not walked
    assert personalized_pagerank(g, {"alone": 0.3}).ranked == [("alone", 1.0)]


@pytest.mark.parametrize("seed", range(4))
def test_linked_only_keeps_the_seeds_and_their_neighbours_in_order(seed: int) -> None:
    g, seeds = _case(seed, 3)
    whole = personalized_pagerank(g, seeds)
    near = personalized_pagerank(g, seeds, linked_only=True)
    assert near.via == whole.via
    want = [(n, r) for n, r in whole.ranked if n in seeds or n in whole.via]
    assert near.ranked == want and len(want) < len(whole.ranked)


def _out_edges(g: nx.MultiDiGraph, order: list[str]) -> list[tuple[str, str, float]]:
    """The walk's links as an edge list, in the order the walk gathers them."""
    inside = set(order)
    edges = []
    for u in order:
        for v in g.succ[u]:
            if v in inside and v != u:
                edges.append((u, v, 1.0 / math.log2(2 + len(g.pred[v]))))
                edges.append((v, u, BACKLINK_WEIGHT / math.log2(2 + len(g.pred[u]))))
    return edges


@pytest.mark.parametrize("seed", range(6))
def test_the_walk_gives_exactly_the_ranks_of_the_one_pagerank(seed: int) -> None:
    g, seeds = _case(seed, 5, nodes=600, links=2400)
    order = sorted(_neighbourhood(g, list(seeds)))
    want = pagerank(order, _out_edges(g, order), personalization=seeds, damping=PPR_DAMPING)
    assert ppr._walk(order, g.succ, g.pred, seeds) == want


def _seed_sets(nodes: list[str]) -> list[dict[str, float]]:
    rng = random.Random(7)
    return [
        {n: rng.uniform(0.1, 2.0) for n in rng.sample(nodes, k)}
        for k in (1, 2, 3, 5, 8)
        for _ in range(12)
    ]


@pytest.mark.parametrize("vault", ["obsidian-help-en", "kepano-obsidian"])
def test_the_semantic_extra_does_not_change_the_ranks(
    vault: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi import app, semantic
    from rubi.sync import graph_for

    paths = app.locate(copy_vault(vault, tmp_path))
    app.index(paths)
    g = graph_for(paths).graph
    cases = _seed_sets(sorted(g.nodes))
    monkeypatch.setattr(semantic, "enabled", lambda: False)
    without = [personalized_pagerank(g, seeds) for seeds in cases]
    monkeypatch.setattr(semantic, "enabled", lambda: True)
    with_extra = [personalized_pagerank(g, seeds) for seeds in cases]
    assert with_extra == without  # the same floats, not only the same order


def test_the_search_reads_no_private_networkx_attribute() -> None:
    private = {"_succ", "_pred", "_adj", "_node"}
    folder = Path(ppr.__file__).parent
    found = [
        f"{path.name}:{node.lineno} {node.attr}"
        for path in sorted(folder.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in private
    ]
    assert found == []


def _rounded_order(pairs: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The walk's order as first written: every pair's rank rounded."""
    return sorted(pairs, key=lambda kv: (-round(kv[1], ppr.RANK_DIGITS), kv[0]))


def test_ranks_equal_but_for_rounding_go_in_id_order() -> None:
    pairs = [("b", 0.3 + 1e-14), ("a", 0.3), ("c", 0.5), ("d", 0.3 - 4e-13), ("e", 0.0)]
    assert [n for n, _ in ppr.by_rank(pairs)] == ["c", "a", "b", "d", "e"]
    assert ppr.by_rank(iter(pairs)) == _rounded_order(pairs)


@pytest.mark.parametrize("seed", range(4))
def test_the_order_is_the_rounded_order_with_shared_and_near_ranks(seed: int) -> None:
    rng = random.Random(seed)
    steps = (0.0, 0.0, 0.0, 1e-16, 1e-13, -1e-13, 4.9e-13, 5e-13, 1e-12, 3e-12)
    for _ in range(300):
        values = [rng.random() * 10 ** -rng.randint(0, 6) for _ in range(rng.randint(1, 6))]
        ranks = [rng.choice(values) + rng.choice(steps) for _ in range(rng.randint(0, 60))]
        ranks += [rng.choice((0.0, -0.0, 5e-13)) for _ in range(rng.randint(0, 3))]
        ids = rng.sample([f"n{i:03d}" for i in range(200)], len(ranks))
        pairs = list(zip(ids, ranks, strict=True))
        assert ppr.by_rank(pairs) == _rounded_order(pairs)
