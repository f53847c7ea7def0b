"""PageRank and personalized PageRank by power iteration over a weighted edge list.

PageRank: Brin & Page, "The anatomy of a large-scale hypertextual Web search engine"
(1998). Personalized PageRank (teleport to a seed distribution instead of uniformly):
Haveliwala, "Topic-sensitive PageRank" (2002).

Written here rather than taken from networkx because ``networkx.pagerank`` needs
SciPy and NumPy (about 60 MB) for a loop that is a few lines on dicts, and because
hooks pay every import on every prompt.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

__all__ = ["DAMPING", "MAX_ITERATIONS", "TOLERANCE", "pagerank"]

N = TypeVar("N", bound=Hashable)

DAMPING = 0.85
"""Probability of following an edge rather than teleporting (Brin & Page's value)."""
MAX_ITERATIONS = 100
"""Power iterations at most; convergence usually takes 20-50."""
TOLERANCE = 1.0e-6
"""Stop when the L1 change of the rank vector, per node, falls below this."""


def pagerank(
    nodes: Iterable[N],
    edges: Iterable[tuple[N, N, float]],
    *,
    personalization: Mapping[N, float] | None = None,
    damping: float = DAMPING,
    max_iterations: int = MAX_ITERATIONS,
    tolerance: float = TOLERANCE,
) -> dict[N, float]:
    """Rank nodes by (personalized) PageRank.

    Args:
        nodes: every node; nodes only named in ``edges`` are added.
        edges: ``(source, target, weight)``; parallel edges add their weights;
            non-positive weights are ignored.
        personalization: teleport weights per node (need not sum to 1; nodes missing
            get 0). None or all-zero means uniform, i.e. plain PageRank.
        damping: probability of following an edge, in (0, 1).
        max_iterations: power iterations at most.
        tolerance: convergence threshold on the mean absolute change per node.

    Returns:
        ``{node: rank}``, ranks summing to 1. Dangling nodes (no out-edges) send their
        mass along the teleport distribution. Empty input gives ``{}``.

    Raises:
        ValueError: ``damping`` outside (0, 1).
    """
    if not 0.0 < damping < 1.0:
        raise ValueError(f"damping must be in (0, 1), got {damping}")
    out: dict[N, dict[N, float]] = defaultdict(dict)
    all_nodes: dict[N, None] = dict.fromkeys(nodes)
    for src, dst, w in edges:
        all_nodes.setdefault(src)
        all_nodes.setdefault(dst)
        if w > 0 and src != dst:
            out[src][dst] = out[src].get(dst, 0.0) + w
    n = len(all_nodes)
    if n == 0:
        return {}
    teleport: dict[N, float]
    total_p = sum(max(v, 0.0) for v in (personalization or {}).values())
    if personalization and total_p > 0:
        teleport = {k: v / total_p for k, v in personalization.items() if v > 0 and k in all_nodes}
        if not teleport:
            teleport = dict.fromkeys(all_nodes, 1.0 / n)
    else:
        teleport = dict.fromkeys(all_nodes, 1.0 / n)
    norm = {src: (sum(d.values()), d) for src, d in out.items()}
    rank: dict[N, float] = dict(teleport) if personalization else dict.fromkeys(all_nodes, 1.0 / n)
    for _ in range(max_iterations):
        nxt: dict[N, float] = defaultdict(float)
        dangling = 0.0
        for node, r in rank.items():
            if r == 0.0:
                continue
            entry = norm.get(node)
            if entry is None:
                dangling += r
                continue
            total, targets = entry
            share = damping * r / total
            for dst, w in targets.items():
                nxt[dst] += share * w
        restart = (1.0 - damping) + damping * dangling
        for node, t in teleport.items():
            nxt[node] += restart * t
        err = sum(abs(nxt.get(k, 0.0) - rank.get(k, 0.0)) for k in all_nodes)
        rank = nxt
        if err < n * tolerance:
            break
    return {k: rank.get(k, 0.0) for k in all_nodes}
