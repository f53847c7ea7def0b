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

__all__ = [
    "COMPENSATED_SUM",
    "ArrayPuller",
    "Segments",
    "entry_pulls",
    "iterate",
    "stable_order",
]

COMPENSATED_SUM = sum([1.0, 1e100, 1.0, -1e100], 0.0) == 2.0
"""Whether this interpreter's ``sum`` of floats is compensated (CPython 3.12 and
later): a plain sum loses both 1.0s to the 1e100 and returns 0.0."""

COLUMN_COST = 6.0 if COMPENSATED_SUM else 1.0
"""What one column costs, in numpy operations (a compensated column takes six)."""
NODE_COST = 1.5
"""What one node summed by ``sum`` costs, in the same units (measured: about 1.5 µs
against 1 µs for a small numpy operation)."""


class Segments:
    """Sums of consecutive runs of a flat array, each run added as ``sum(run, 0.0)``
    adds it (the module docstring): runs of ``sizes[k]`` values, in order.

    Args:
        np: the numpy module.
        sizes: each run's length (an integer array, every length > 0).
    """

    __slots__ = ("_cols", "_count", "_np", "_order", "_tall", "_where")

    def __init__(self, np: Any, sizes: Any) -> None:
        self._np = np
        self._count = count = len(sizes)
        starts = np.zeros(count + 1, dtype=np.intp)
        np.cumsum(sizes, out=starts[1:])
        depth = _split(np, sizes)
        short = np.flatnonzero(sizes <= depth)
        # the short runs by length, longest first: column k is then a prefix of them
        short = short[np.argsort(-sizes[short], kind="stable")]
        heights = np.bincount(sizes[short], minlength=depth + 1)[::-1].cumsum()[::-1]
        # column k holds the short runs of more than k values: heights[k + 1] of them
        self._cols = cols = [int(h) for h in heights[1:] if h]
        # the products column by column: column k is the k-th value of each of its
        # runs, in the runs' order (one small array a column, not a sort of them all)
        begin = starts[short]
        self._order = (
            np.concatenate([begin[:height] + k for k, height in enumerate(cols)]) if cols else begin
        )
        self._where = short
        tall = np.flatnonzero(sizes > depth).tolist()
        self._tall = [(k, int(starts[k]), int(starts[k + 1])) for k in tall]

    def __len__(self) -> int:
        """Runs."""
        return self._count

    def sums(self, values: Any) -> Any:
        """Each run's sum (an array), ``values`` the flat array of the runs."""
        np = self._np
        out = np.empty(self._count, dtype=np.float64)
        if self._cols:
            products = values[self._order]
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
        for k, begin, end in self._tall:
            out[k] = sum(values[begin:end].tolist(), 0.0)
        return out


class ArrayPuller:
    """One iteration's pull (:class:`rubi.core.pagerank._Puller`'s floats) on arrays.

    Args:
        np: the numpy module.
        sizes: per node something links to (in the pulls' order), its in-edge count.
        src, share: the in-edges, node by node, sources ascending within one: their
            sources' positions in the rank vector and their shares.
    """

    __slots__ = ("_runs", "_share", "_src", "np")

    def __init__(self, np: Any, sizes: Any, src: Any, share: Any) -> None:
        self.np = np
        self._runs = Segments(np, sizes)
        self._src, self._share = src, share

    @classmethod
    def of(cls, np: Any, pulls: Sequence[tuple[Sequence[int], Sequence[float]]]) -> ArrayPuller:
        """The puller of :data:`rubi.core.pagerank.Pulls`."""
        sizes = np.fromiter(map(len, (src for src, _ in pulls)), dtype=np.intp, count=len(pulls))
        edges = int(sizes.sum())
        src = np.fromiter(chain.from_iterable(s for s, _ in pulls), dtype=np.intp, count=edges)
        share = np.fromiter(chain.from_iterable(w for _, w in pulls), dtype=np.float64, count=edges)
        return cls(np, sizes, src, share)

    def __len__(self) -> int:
        """Nodes something links to."""
        return len(self._runs)

    def __call__(self, rank: Any) -> Any:
        """Each node's pulled rank (an array in the pulls' order), ``rank`` the rank
        vector (an array)."""
        return self._runs.sums(rank[self._src] * self._share)


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
    pull: ArrayPuller,
    pulled: int,
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
        pull: what each linked node pulls (the first ``pulled`` positions).
        pulled: how many nodes something links to.
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


def entry_pulls(
    np: Any, n: int, source: Any, target: Any, weight: Any, damping: float
) -> tuple[ArrayPuller, list[int], list[int]]:
    """What :func:`rubi.core.pagerank.pagerank_pulled` needs for the graph whose
    out-edges (``out`` of :func:`rubi.core.pagerank.pagerank_numbered`) are given as
    arrays: the same pulls, dangling nodes and permutation as ``_pulls`` makes of the
    dicts, so the ranks are the same floats.

    Args:
        np: the numpy module.
        n: nodes, numbered from 0.
        source, target, weight: ``out``'s entries (integer, integer and float arrays):
            grouped by source in ascending order, and within a source in the order
            ``out[source]`` holds them (its summed out-weight is added in that order);
            one entry per source and target, no self-loop, every weight > 0.
        damping: as :func:`rubi.core.pagerank.pagerank`.

    Returns:
        The pulls (in the permutation's order), the dangling nodes' positions in it
        (in node order) and the permutation (linked nodes first, ascending, then the
        others).
    """
    out_sizes = np.bincount(source, minlength=n)
    has_out = out_sizes > 0
    totals = np.zeros(n, dtype=np.float64)
    totals[has_out] = Segments(np, out_sizes[has_out]).sums(weight)
    scale = np.zeros(n, dtype=np.float64)
    scale[has_out] = damping / totals[has_out]
    shares = weight * scale[source]
    # by target, sources ascending within one: the order the pulls are summed in
    by_source = stable_order(np, source, n)
    by_target = by_source[stable_order(np, target[by_source], n)]
    in_sizes = np.bincount(target, minlength=n)
    linked = in_sizes > 0
    perm = np.concatenate([np.flatnonzero(linked), np.flatnonzero(~linked)])
    pos = np.empty(n, dtype=np.intp)
    pos[perm] = np.arange(n)
    puller = ArrayPuller(np, in_sizes[linked], pos[source[by_target]], shares[by_target])
    dangling = pos[np.flatnonzero(~has_out)].tolist()  # in node order, as _pulls gives
    return puller, dangling, perm.tolist()


def stable_order(np: Any, keys: Any, bound: int) -> Any:
    """``np.argsort(keys, kind="stable")`` of integer keys in ``[0, bound)``: the same
    permutation (a stable sort has one answer), taken on 16-bit copies of the keys
    when they fit, which numpy sorts by radix (linear) instead of by merging; a sort
    of two keys is two of these, the minor key's first (as ``np.lexsort``)."""
    if bound <= 1 << 16:
        keys = keys.astype(np.uint16)
    return np.argsort(keys, kind="stable")
