"""Personalized PageRank over the link graph, seeded by the text and name matches.

Haveliwala, "Topic-sensitive PageRank" (WWW 2002): PageRank whose teleport jumps
back to the seeds, so mass gathers on nodes close to them. The walk runs on the
seeds' neighbourhood (:data:`RADIUS` hops), follows links both ways (a backlink is
evidence too, at :data:`BACKLINK_WEIGHT`), and makes hubs cheap to enter
(weight ``1 / log2(2 + in-degree)``) so that a note everything links to does not
win every query.

The walk runs on numpy when the semantic extra is installed (a sparse product per
iteration, 3× faster on obsidian-hub's neighbourhoods) and in pure Python otherwise;
both give the ranks of :func:`rubi.core.pagerank.pagerank` to within float rounding.
A long-lived process walking an unchanged graph gathers the neighbourhood's links from
arrays kept with the graph (:mod:`rubi.search.adjacency`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import mul, sub
from typing import Any

import networkx as nx

from rubi.core.pagerank import MAX_ITERATIONS, TOLERANCE
from rubi.search.adjacency import links_among

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
    nodes = _neighbourhood(g, start)
    order, weights = sorted(nodes), {s: seeds[s] for s in start}
    links = links_among(g, order) if _numpy_walk() else None
    if links is not None and len(links[0]):
        ranks = _walk_numpy(order, links, weights)
    else:  # pure Python, or nothing to walk (the ranks are the teleport's)
        ranks = _walk(order, g._succ, g._pred, weights)
    via: dict[str, str] = {}
    for seed in sorted(start, key=lambda s: -seeds[s]):  # strongest seed wins
        for other in _neighbours(g, seed):
            if other not in seeds and other not in via:
                via[other] = seed
    # Ranks equal but for rounding (two leaves of one seed) go in id order, not in the
    # order the float noise of the sums picks.
    pairs: Iterable[tuple[str, float]] = ranks.items()
    if linked_only:
        pairs = [(n, r) for n, r in pairs if n in seeds or n in via]
    ranked = sorted(pairs, key=lambda kv: (-round(kv[1], RANK_DIGITS), kv[0]))
    return PPRResult([(n, r) for n, r in ranked if r > 0], via)


def _walk(
    order: Sequence[str], succ: Any, pred: Any, seeds: Mapping[str, float]
) -> dict[str, float]:
    """Personalized PageRank over the walk's nodes, as :func:`rubi.core.pagerank.pagerank`
    defines it (teleport to ``seeds``, a dangling node's mass teleported, the same
    damping, tolerance and iteration cap), computed by pulling: each node sums its
    in-edges' shares in one C-level pass, rather than a Python step per edge.

    Args:
        order: the nodes walked (their order fixes the arithmetic's order).
        succ, pred: the graph's adjacency (``g._succ``, ``g._pred``).
        seeds: node in ``order`` → teleport weight (> 0).

    Returns:
        Node → rank, ranks summing to 1 (0 for a node nothing reaches).
    """
    index = {n: i for i, n in enumerate(order)}
    ahead = [1.0 / math.log2(2 + len(pred[n])) for n in order]  # a link into n
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
    sources: list[list[int]] = [[] for _ in order]
    shares: list[list[float]] = [[] for _ in order]
    dangling: list[int] = []
    for i, targets in enumerate(out):
        if not targets:
            dangling.append(i)
            continue
        scale = PPR_DAMPING / sum(targets.values())
        for j, w in targets.items():
            sources[j].append(i)
            shares[j].append(w * scale)
    total = sum(seeds.values())
    teleport = [(index[s], w / total) for s, w in seeds.items()]
    rank = [0.0] * len(order)
    for i, t in teleport:
        rank[i] = t
    pulls = list(zip(sources, shares, strict=True))
    limit = len(order) * TOLERANCE
    for _ in range(MAX_ITERATIONS):
        get = rank.__getitem__
        nxt = [sum(map(mul, map(get, src), share), 0.0) for src, share in pulls]
        restart = (1.0 - PPR_DAMPING) + PPR_DAMPING * sum(map(get, dangling), 0.0)
        for i, t in teleport:
            nxt[i] += restart * t
        err = sum(map(abs, map(sub, nxt, rank)), 0.0)
        rank = nxt
        if err < limit:
            break
    return dict(zip(order, rank, strict=True))


def _numpy_walk() -> bool:
    """Walk with numpy when the semantic extra runs here: numpy is then imported by the
    dense channel anyway, and the choice is the same in a cold hook and in the engine
    (``RUBI_SEMANTIC=0`` keeps both in pure Python)."""
    from rubi import semantic

    return semantic.enabled()


def _walk_numpy(
    order: Sequence[str], links: tuple[Any, Any, Any], seeds: Mapping[str, float]
) -> dict[str, float]:
    """:func:`_walk` as sparse products: the walk's links become arrays of (source,
    target, weight) entries, a link and its backlink each an entry, and an iteration is
    one ``numpy.bincount`` of the sources' shares by target. ``links``: the links among
    ``order`` (:func:`rubi.search.adjacency.links_among`, at least one); the ranks
    agree with :func:`_walk` to about 1e-15 (sums taken in another order)."""
    import numpy as np

    n = len(order)
    index = {node: i for i, node in enumerate(order)}
    head, tail, in_degree = links
    ahead = 1.0 / np.log2(2.0 + in_degree)  # a link into the node
    source = np.concatenate((head, tail))  # a link followed, then read backwards
    target = np.concatenate((tail, head))
    weight = np.concatenate((ahead[tail], BACKLINK_WEIGHT * ahead[head]))
    out_weight = np.bincount(source, weights=weight, minlength=n)
    dangling = np.flatnonzero(out_weight == 0.0)
    scale = np.zeros(n)
    np.divide(PPR_DAMPING, out_weight, out=scale, where=out_weight != 0.0)
    share = weight * scale[source]
    total = sum(seeds.values())
    jump_to = np.array([index[s] for s in seeds], dtype=np.intp)
    jump = np.array([w / total for w in seeds.values()], dtype=np.float64)
    rank = np.zeros(n)
    rank[jump_to] = jump
    limit = n * TOLERANCE
    for _ in range(MAX_ITERATIONS):
        nxt = np.bincount(target, weights=rank[source] * share, minlength=n).astype(
            np.float64, copy=False
        )
        restart = (1.0 - PPR_DAMPING) + PPR_DAMPING * float(rank[dangling].sum())
        nxt[jump_to] += restart * jump
        err = float(np.abs(nxt - rank).sum())
        rank = nxt
        if err < limit:
            break
    return dict(zip(order, rank.tolist(), strict=True))
