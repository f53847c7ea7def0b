"""Personalized PageRank over the link graph, seeded by the text and name matches.

Haveliwala, "Topic-sensitive PageRank" (WWW 2002): PageRank whose teleport jumps
back to the seeds, so mass gathers on nodes close to them. The walk runs on the
seeds' neighbourhood (:data:`RADIUS` hops), follows links both ways (a backlink is
evidence too, at :data:`BACKLINK_WEIGHT`), and makes hubs cheap to enter
(weight ``1 / log2(2 + in-degree)``) so that a note everything links to does not
win every query.

The ranks are those of :func:`rubi.core.pagerank.pagerank`, rubi's one PageRank (the
code map's ranks are too): the same float sums whatever extras are installed, so the
ranking never depends on them. The graph is read through the dicts its views wrap
(:func:`rubi.graph.dicts.link_dicts`): the same neighbours in the same orders,
without a view object made for every node asked (a flat graph's without their edge
dicts).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

from rubi.core.pagerank import ARRAY_NODES, loaded_numpy, pagerank_numbered
from rubi.graph.dicts import link_dicts

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    import networkx as nx

    from rubi.graph.linkarrays import LinkArrays

__all__ = [
    "BACKLINK_WEIGHT",
    "HUB_DEGREE",
    "MAX_WALK_NODES",
    "PPR_DAMPING",
    "RADIUS",
    "RANK_DIGITS",
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
RANK_DIGITS = 12
"""Decimals a rank is compared at: the walk stops within 1e-6 of the exact ranks, and
two equal ranks summed in another order differ in the 17th digit."""


Adjacency = Mapping[str, "Any"]  # a string: no typing at run time
"""A graph's adjacency: node → its neighbours (``g.succ``, ``g.pred``, or the dicts they
wrap: :func:`rubi.graph.dicts.link_dicts`)."""


@dataclass(frozen=True, slots=True)
class PPRResult:
    """Ranked nodes (best first, seeds included) and, per node, its strongest seed."""

    ranked: list[tuple[str, float]]
    via: dict[str, str]


def _linked(succ: Adjacency, pred: Adjacency, node: str) -> set[str]:
    """The nodes ``node`` links to or is linked from (``succ`` and ``pred`` taken once
    by the caller: :func:`rubi.graph.dicts.link_dicts`)."""
    return set(succ[node]) | set(pred[node])


def _neighbourhood(g: nx.MultiDiGraph, seeds: list[str]) -> set[str]:
    """Nodes within :data:`RADIUS` hops of the seeds. A hub (more than
    :data:`HUB_DEGREE` links) is included but not walked through: everything is two
    hops away through it, which says nothing."""
    seen = set(seeds)
    frontier = list(seeds)
    succ, pred = link_dicts(g)
    for _ in range(RADIUS):
        nxt: list[str] = []
        for node in frontier:
            others = _linked(succ, pred, node)
            if len(others) > HUB_DEGREE and node not in seeds:
                continue
            for other in sorted(others - seen):
                seen.add(other)
                nxt.append(other)
                if len(seen) >= MAX_WALK_NODES:
                    return seen
        frontier = nxt
    return seen


def personalized_pagerank(
    g: nx.MultiDiGraph, seeds: Mapping[str, float], *, linked_only: bool = False
) -> PPRResult:
    """Rank the nodes near ``seeds``.

    Args:
        g: the vault graph.
        seeds: node → teleport weight (> 0); nodes absent from ``g`` are ignored.
        linked_only: rank only the seeds and the nodes linked to one (those
            :attr:`PPRResult.via` names), not every node the walk reached: the same
            ranks, less sorting.

    Returns:
        A :class:`PPRResult`; empty when no seed is in the graph.
    """
    start = [s for s in seeds if s in g]
    if not start:
        return PPRResult([], {})
    weights = {s: seeds[s] for s in start}
    succ, pred = link_dicts(g)
    np = loaded_numpy()
    links = _kept(np, g, succ, pred) if len(start) < MAX_WALK_NODES else None
    if links is not None:  # the same walk, read from the graph's kept rows
        from rubi.search.walkarrays import gather, neighbourhood, walk_arrays

        number = links.number.__getitem__
        near = neighbourhood(
            np, links, list(map(number, start)), RADIUS, HUB_DEGREE, MAX_WALK_NODES
        )
        order = list(map(links.names.__getitem__, near.tolist()))
        if len(order) >= ARRAY_NODES:
            into, gathered = gather(np, near, links, _into)
            ranks = walk_arrays(
                np, order, succ, into, BACKLINK_WEIGHT, weights, PPR_DAMPING, gathered
            )
        else:
            ranks = _walk(order, succ, pred, weights)
    else:
        order = sorted(_neighbourhood(g, start))
        ranks = _walk(order, succ, pred, weights, g)
    via: dict[str, str] = {}
    for seed in sorted(start, key=lambda s: -seeds[s]):  # strongest seed wins
        for other in _linked(succ, pred, seed):
            if other not in seeds and other not in via:
                via[other] = seed
    pairs: Iterable[tuple[str, float]] = ranks.items()
    if linked_only:
        pairs = [(n, r) for n, r in pairs if n in seeds or n in via]
    return PPRResult([(n, r) for n, r in by_rank(pairs) if r > 0], via)


def by_rank(pairs: Iterable[tuple[str, float]]) -> list[tuple[str, float]]:
    """``(node, rank)`` pairs best first, ranks compared at :data:`RANK_DIGITS`
    decimals: ranks equal but for rounding (two leaves of one seed) go in id order, not
    in the order the float noise of the sums picks. Each distinct rank is rounded once
    (a correctly rounded ``round`` costs about half a µs, and a walk's ~800 ranked
    pairs hold about 70 distinct ranks: its leaves share theirs). Sorted by id, then
    stably by the rounded rank: the order of the key (rounded rank, id), both sorts
    being stable, without a tuple a pair (0.26 → 0.17 ms a walk on obsidian-hub; the
    pairs come in id order, which the first sort only checks)."""
    pairs = sorted(pairs, key=itemgetter(0))
    rounded = {r: -round(r, RANK_DIGITS) for r in {r for _, r in pairs}}
    pairs.sort(key=lambda kv: rounded[kv[1]])
    return pairs


def _walk(
    order: Sequence[str],
    succ: Adjacency,
    pred: Adjacency,
    seeds: Mapping[str, float],
    graph: object = None,
) -> dict[str, float]:
    """Personalized PageRank (:func:`rubi.core.pagerank.pagerank_numbered`, rubi's one
    PageRank) over the walk's nodes: teleport to ``seeds``, :data:`PPR_DAMPING`, a link
    into a node weighted ``1 / log2(2 + its in-degree)`` and read backwards at
    :data:`BACKLINK_WEIGHT` of that. The out-edges are gathered here in one pass over
    the nodes' successors (the ranks :func:`rubi.core.pagerank.pagerank` gives for the
    same links as an edge list, without numbering each link's two ends again).

    Args:
        order: the nodes walked (their order fixes the arithmetic's order).
        succ, pred: the graph's adjacency (:func:`rubi.graph.dicts.link_dicts`).
        seeds: node in ``order`` → teleport weight (> 0).
        graph: the graph ``succ`` and ``pred`` are of, when its successors may be kept
            as arrays until it changes (:func:`rubi.graph.linkarrays.link_arrays`).

    Returns:
        Node → rank, ranks summing to 1 (0 for a node nothing reaches).
    """
    np = loaded_numpy()
    if np is not None and len(order) >= ARRAY_NODES:  # the same floats, on arrays
        from rubi.graph.linkarrays import link_arrays
        from rubi.search.walkarrays import walk_arrays

        if graph is not None:  # counts this walk towards making the rows
            link_arrays(np, graph, succ, pred, len(order))
        ahead = list(map(_into, map(len, map(pred.__getitem__, order))))
        return walk_arrays(np, order, succ, ahead, BACKLINK_WEIGHT, seeds, PPR_DAMPING)
    count = getattr(pred, "neighbour_count", None)  # a flat graph's: no ids decoded
    in_degrees = map(count, order) if count is not None else map(len, map(pred.__getitem__, order))
    ahead = list(map(_into, in_degrees))  # a link into n
    index = {n: i for i, n in enumerate(order)}
    behind = [BACKLINK_WEIGHT * a for a in ahead]  # a backlink out of n, read backwards
    out: list[dict[int, float]] = [{} for _ in order]
    for i, u in enumerate(order):
        for v in succ[u]:
            j = index.get(v)
            if j is None or j == i:
                continue
            forward, backward = out[i], out[j]
            forward[j] = forward.get(j, 0.0) + ahead[j]
            backward[i] = backward.get(i, 0.0) + behind[i]
    return pagerank_numbered(order, out, personalization=seeds, damping=PPR_DAMPING)


def _kept(np: Any, g: object, succ: Adjacency, pred: Adjacency) -> LinkArrays | None:
    """The graph's kept rows (:func:`rubi.graph.linkarrays.link_arrays`), when numpy is
    loaded and they are made and current."""
    if np is None:
        return None
    from rubi.graph.linkarrays import link_arrays

    return link_arrays(np, g, succ, pred, 0)


def _into(in_degree: int) -> float:
    """The weight of a link into a node that ``in_degree`` nodes link to."""
    return 1.0 / math.log2(2 + in_degree)
