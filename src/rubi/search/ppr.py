"""Personalized PageRank over the link graph, seeded by the text and name matches.

Haveliwala, "Topic-sensitive PageRank" (WWW 2002): PageRank whose teleport jumps
back to the seeds, so mass gathers on nodes close to them. The walk runs on the
seeds' neighbourhood (:data:`RADIUS` hops), follows links both ways (a backlink is
evidence too, at :data:`BACKLINK_WEIGHT`), and makes hubs cheap to enter
(weight ``1 / log2(2 + in-degree)``) so that a note everything links to does not
win every query.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from rubi.core.pagerank import pagerank

__all__ = [
    "BACKLINK_WEIGHT",
    "HUB_DEGREE",
    "MAX_WALK_NODES",
    "PPR_DAMPING",
    "RADIUS",
    "PPRResult",
    "personalized_pagerank",
]

RADIUS = 2
"""Hops from a seed considered; farther nodes get almost no mass at this damping."""
BACKLINK_WEIGHT = 0.5
"""A link read backwards (who links here) counts half as much as a link followed."""
PPR_DAMPING = 0.5
"""Lower than PageRank's 0.85: relevance fades fast with distance from the seeds."""
MAX_WALK_NODES = 3000
"""Cap on the neighbourhood walked, so a seed next to a huge hub stays fast."""
HUB_DEGREE = 200
"""A node with more links than this is not walked through (it is still ranked)."""


@dataclass(frozen=True, slots=True)
class PPRResult:
    """Ranked nodes (best first, seeds included) and, per node, its strongest seed."""

    ranked: list[tuple[str, float]]
    via: dict[str, str]


def _neighbours(g: nx.MultiDiGraph, node: str) -> set[str]:
    return set(g._succ[node]) | set(g._pred[node])


def _neighbourhood(g: nx.MultiDiGraph, seeds: list[str]) -> set[str]:
    """Nodes within :data:`RADIUS` hops of the seeds. A hub (more than
    :data:`HUB_DEGREE` links) is included but not walked through: everything is two
    hops away through it, which says nothing."""
    seen = set(seeds)
    frontier = list(seeds)
    for _ in range(RADIUS):
        nxt: list[str] = []
        for node in frontier:
            others = _neighbours(g, node)
            if len(others) > HUB_DEGREE and node not in seeds:
                continue
            for other in sorted(others - seen):
                seen.add(other)
                nxt.append(other)
                if len(seen) >= MAX_WALK_NODES:
                    return seen
        frontier = nxt
    return seen


def personalized_pagerank(g: nx.MultiDiGraph, seeds: Mapping[str, float]) -> PPRResult:
    """Rank the nodes near ``seeds``.

    Args:
        g: the vault graph.
        seeds: node → teleport weight (> 0); nodes absent from ``g`` are ignored.

    Returns:
        A :class:`PPRResult`; empty when no seed is in the graph.
    """
    start = [s for s in seeds if s in g]
    if not start:
        return PPRResult([], {})
    nodes = _neighbourhood(g, start)
    succ, pred = g._succ, g._pred  # adjacency dicts: 10x faster than subgraph views
    indeg = {n: len(pred[n]) for n in nodes}
    edges: list[tuple[str, str, float]] = []
    for u in nodes:
        for v in succ[u]:
            if v in nodes and v != u:
                edges.append((u, v, 1.0 / math.log2(2 + indeg[v])))
                edges.append((v, u, BACKLINK_WEIGHT / math.log2(2 + indeg[u])))
    ranks = pagerank(
        nodes, edges, personalization={s: seeds[s] for s in start}, damping=PPR_DAMPING
    )
    via: dict[str, str] = {}
    for seed in sorted(start, key=lambda s: -seeds[s]):  # strongest seed wins
        for other in _neighbours(g, seed):
            if other not in seeds and other not in via:
                via[other] = seed
    ranked = sorted(ranks.items(), key=lambda kv: (-kv[1], kv[0]))
    return PPRResult([(n, r) for n, r in ranked if r > 0], via)
