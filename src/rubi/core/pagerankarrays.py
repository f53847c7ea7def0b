"""The power iteration of :func:`rubi.core.pagerank.pagerank_pulled` on numpy arrays,
for a process that has numpy loaded already (``rubi serve`` and the engine with the
semantic extra): the same floats, bit for bit, for a fraction of the CPU.

Bit for bit, because every operation is the one the list iteration makes, in the same
order: a product is one IEEE multiplication either way; a node's in-edge shares are
added *column by column* (every node's first share, then every node's second share,
…), so each node's sum is still taken from its first source to its last, as Python's
``sum(…, 0.0)`` takes it. Python's ``sum`` of floats is a plain left-to-right sum up
to 3.11 and Neumaier's compensated sum from 3.12 (Neumaier 1974, "Rundungsfehler-
analyse einiger Verfahren zur Summation endlicher Summen"): the columns repeat
whichever this interpreter does (:data:`COMPENSATED_SUM`, found by asking ``sum``
itself). The long sums of an iteration (the dangling nodes' mass, the error) are
taken by ``sum`` over the arrays' values, so they are the same by construction.

The few nodes with many more in-edges than the rest (a hub the walk reaches) would
cost one column each; they are summed by ``sum`` instead, node by node
(:func:`_split`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

__all__ = ["COMPENSATED_SUM", "ArrayPuller", "iterate"]

COMPENSATED_SUM = sum([1.0, 1e100, 1.0, -1e100], 0.0) == 2.0
"""Whether this interpreter's ``sum`` of floats is compensated (CPython 3.12 and
later): a plain sum loses both 1.0s to the 1e100 and returns 0.0."""

COLUMN_COST = 6.0 if COMPENSATED_SUM else 1.0
"""What one column costs, in numpy operations (a compensated column takes six)."""
NODE_COST = 1.5
"""What one node summed by ``sum`` costs, in the same units (measured: about 1.5 µs
against 1 µs for a small numpy operation)."""


class ArrayPuller:
    """One iteration's pull (:class:`rubi.core.pagerank._Puller`'s floats) on arrays.

    Args:
        np: the numpy module.
        pulls: per node something links to, its in-edges' sources (positions in the
            rank vector) and their shares (:data:`rubi.core.pagerank.Pulls`).
    """

    __slots__ = ("_cols", "_count", "_np", "_share", "_src", "_tall", "_where")

    def __init__(self, np: Any, pulls: Sequence[tuple[Sequence[int], Sequence[float]]]) -> None:
        self._np = np
        self._count = len(pulls)
        sizes = np.fromiter(map(len, (src for src, _ in pulls)), dtype=np.intp, count=len(pulls))
        edges = int(sizes.sum())
        src = np.fromiter(chain.from_iterable(s for s, _ in pulls), dtype=np.intp, count=edges)
        share = np.fromiter(chain.from_iterable(w for _, w in pulls), dtype=np.float64, count=edges)
        starts = np.zeros(len(pulls) + 1, dtype=np.intp)
        np.cumsum(sizes, out=starts[1:])
        depth = _split(np, sizes)
        short = np.flatnonzero(sizes <= depth)
        # the short nodes by size, largest first: column k is then a prefix of them
        short = short[np.argsort(-sizes[short], kind="stable")]
        place = np.empty(len(pulls), dtype=np.intp)
        place[short] = np.arange(len(short))
        edge_node = np.repeat(np.arange(len(pulls)), sizes)
        mine = np.flatnonzero(sizes[edge_node] <= depth)
        column = mine - starts[edge_node[mine]]
        order = mine[np.lexsort((place[edge_node[mine]], column))]
        self._src, self._share = src[order], share[order]
        heights = np.bincount(sizes[short], minlength=depth + 1)[::-1].cumsum()[::-1]
        # column k holds the short nodes of more than k shares: heights[k + 1] of them
        self._cols = [int(h) for h in heights[1:] if h]
        self._where = short
        self._tall = [
            (int(p), src[starts[p] : starts[p + 1]], share[starts[p] : starts[p + 1]])
            for p in np.flatnonzero(sizes > depth).tolist()
        ]

    def __call__(self, rank: Any) -> Any:
        """Each node's pulled rank (an array in the pulls' order), ``rank`` the rank
        vector (an array)."""
        np = self._np
        out = np.empty(self._count, dtype=np.float64)
        if self._cols:
            products = rank[self._src] * self._share
            cols = self._cols
            total = products[: cols[0]].copy()  # 0.0 + x is x
            at = cols[0]
            if COMPENSATED_SUM:
                comp = np.zeros(cols[0], dtype=np.float64)
                for height in cols[1:]:
                    x, s = products[at : at + height], total[:height]
                    t = s + x
                    # |s| >= |x| on values that are never negative
                    comp[:height] += np.where(s >= x, (s - t) + x, (x - t) + s)
                    total[:height] = t
                    at += height
                total += comp
            else:
                for height in cols[1:]:
                    total[:height] += products[at : at + height]
                    at += height
            out[self._where] = total
        for p, src, share in self._tall:
            out[p] = sum((rank[src] * share).tolist(), 0.0)
        return out


def _split(np: Any, sizes: Any) -> int:
    """The largest in-edge count summed in columns: the depth ``d`` for which ``d``
    columns plus one ``sum`` per node of more than ``d`` in-edges costs least
    (:data:`COLUMN_COST`, :data:`NODE_COST`)."""
    if not len(sizes):
        return 0
    counts = np.bincount(sizes)
    above = counts[::-1].cumsum()[::-1]  # above[d]: nodes of at least d in-edges
    nodes_over = np.append(above[1:], 0)  # nodes of more than d in-edges
    cost = COLUMN_COST * np.arange(len(counts)) + NODE_COST * nodes_over
    return int(np.argmin(cost))


def iterate(
    np: Any,
    pulls: Sequence[tuple[Sequence[int], Sequence[float]]],
    dangling: Sequence[int],
    tele: Sequence[tuple[int, float]],
    rank: Sequence[float],
    *,
    uniform: bool,
    damping: float,
    max_iterations: int,
    limit: float,
) -> list[float]:
    """The power iteration of :func:`rubi.core.pagerank.pagerank_pulled` from ``rank``
    (in permutation order, as every argument), the same floats.

    Args:
        np: the numpy module.
        pulls: what each linked node pulls (the first ``len(pulls)`` positions).
        dangling: the positions of the nodes without out-edges.
        tele: ``(position, teleport weight)``, positions distinct.
        rank: the start vector.
        uniform: plain PageRank (every node teleported to at ``1 / n``).
        damping, max_iterations: as :func:`rubi.core.pagerank.pagerank`.
        limit: stop when the L1 change falls below this.

    Returns:
        The ranks, in permutation order.
    """
    n = len(rank)
    pulled = len(pulls)
    pull = ArrayPuller(np, pulls)
    now = np.array(rank, dtype=np.float64)
    drop = np.array(dangling, dtype=np.intp)
    tele_at = np.array([i for i, _ in tele], dtype=np.intp)
    tele_w = np.array([t for _, t in tele], dtype=np.float64)
    for _ in range(max_iterations):
        restart = (1.0 - damping) + damping * sum(now[drop].tolist(), 0.0)
        nxt = np.empty(n, dtype=np.float64)
        if uniform:
            jump = restart / n
            nxt[:pulled] = jump + pull(now)
            nxt[pulled:] = jump
        else:
            nxt[:pulled] = pull(now)
            nxt[pulled:] = 0.0
            nxt[tele_at] += restart * tele_w
        err = sum(np.abs(nxt - now).tolist(), 0.0)
        now = nxt
        if err < limit:
            break
    result: list[float] = now.tolist()
    return result
