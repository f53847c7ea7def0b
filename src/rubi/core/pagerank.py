"""PageRank and personalized PageRank by power iteration over a weighted edge list.

PageRank: Brin & Page, "The anatomy of a large-scale hypertextual Web search engine"
(1998). Personalized PageRank (teleport to a seed distribution instead of uniformly):
Haveliwala, "Topic-sensitive PageRank" (2002).

Written here rather than taken from networkx because ``networkx.pagerank`` needs
SciPy and NumPy (about 60 MB) for a loop that is a few lines on lists, and because
hooks pay every import on every prompt.

The nodes are numbered once and each iteration *pulls*: a node sums its in-edges'
shares in one C-level pass (``sum(map(mul, ...))``) instead of a Python step per edge.
A warm start (``start``: the ranks of a graph that differs by a few edges, such as
the code map before an edit) converges in a few iterations instead of tens. A process
that has numpy loaded already iterates on arrays (:mod:`rubi.core.pagerankarrays`),
with the same floats.
"""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import chain, repeat
from operator import add, mul, sub

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from rubi.core.pagerankarrays import ArrayPuller

__all__ = [
    "ARRAY_NODES",
    "DAMPING",
    "MAX_ITERATIONS",
    "TOLERANCE",
    "Pulls",
    "loaded_numpy",
    "pagerank",
    "pagerank_numbered",
    "pagerank_pulled",
]

if TYPE_CHECKING:
    N = TypeVar("N", bound=Hashable)

DAMPING = 0.85
"""Probability of following an edge rather than teleporting (Brin & Page's value)."""
MAX_ITERATIONS = 100
"""Power iterations at most; convergence usually takes 20-50."""
TOLERANCE = 1.0e-6
"""Stop when the L1 change of the rank vector, per node, falls below this."""
ARRAY_NODES = 64
"""Linked nodes from which the iteration runs on numpy arrays
(:mod:`rubi.core.pagerankarrays`: the same floats), when this process has numpy loaded
already; smaller graphs iterate faster on lists (random graphs of 4 links a node, 3
seeds: 32 nodes 0.26 ms on lists against 0.31 on arrays, 64 nodes 0.52 against 0.47,
256 nodes 1.70 against 1.14)."""


def pagerank(
    nodes: Iterable[N],
    edges: Iterable[tuple[N, N, float]],
    *,
    personalization: Mapping[N, float] | None = None,
    damping: float = DAMPING,
    max_iterations: int = MAX_ITERATIONS,
    tolerance: float = TOLERANCE,
    start: Mapping[N, float] | None = None,
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
        start: where the iteration starts (e.g. the ranks before a small change of
            the graph); nodes it lacks start at their teleport weight, and the vector
            is scaled to sum 1. None, or nothing positive: the teleport distribution
            (personalized) or uniform. The result is the same fixed point within
            ``tolerance``; only the number of iterations differs.

    Returns:
        ``{node: rank}``, ranks summing to 1. Dangling nodes (no out-edges) send their
        mass along the teleport distribution. Empty input gives ``{}``.

    Raises:
        ValueError: ``damping`` outside (0, 1).
    """
    if not 0.0 < damping < 1.0:
        raise ValueError(f"damping must be in (0, 1), got {damping}")
    index, out = _adjacency(nodes, edges)
    return pagerank_numbered(
        list(index),
        out,
        personalization=personalization,
        damping=damping,
        max_iterations=max_iterations,
        tolerance=tolerance,
        start=start,
    )


def pagerank_numbered(
    order: Sequence[N],
    out: Sequence[dict[int, float]],
    *,
    personalization: Mapping[N, float] | None = None,
    damping: float = DAMPING,
    max_iterations: int = MAX_ITERATIONS,
    tolerance: float = TOLERANCE,
    start: Mapping[N, float] | None = None,
) -> dict[N, float]:
    """:func:`pagerank` of a graph its caller numbered already: the same iteration and
    the same float sums as :func:`pagerank` given ``order`` as its nodes and the edges
    in the order ``out`` holds them, without building ``out`` from an edge list (a
    caller holding the graph's adjacency builds it in one pass).

    Args:
        order: the nodes; node ``order[i]`` is number ``i``.
        out: per node number, its out-edges ``{target number: summed weight}``, with
            no self-loop and every weight > 0 (not checked).
        personalization, damping, max_iterations, tolerance, start: as :func:`pagerank`.

    Returns:
        ``{node: rank}``, as :func:`pagerank`.

    Raises:
        ValueError: ``damping`` outside (0, 1), or ``out`` not one entry per node.
    """
    if not 0.0 < damping < 1.0:
        raise ValueError(f"damping must be in (0, 1), got {damping}")
    if len(out) != len(order):
        raise ValueError(f"{len(out)} adjacency entries for {len(order)} nodes")
    if not order:
        return {}
    pulls, dangling, perm, _ = _pulls(out, damping)
    return pagerank_pulled(
        order,
        pulls,
        dangling,
        perm,
        personalization=personalization,
        damping=damping,
        max_iterations=max_iterations,
        tolerance=tolerance,
        start=start,
    )


Pulls = list[tuple[tuple[int, ...], tuple[float, ...]]]
"""Per node something links to, in permutation order: its in-edges' sources (their
positions in the permutation, ascending) and their damped shares."""


def pagerank_pulled(
    order: Sequence[N],
    pulls: Pulls | ArrayPuller,
    dangling: Sequence[int],
    perm: Sequence[int],
    *,
    personalization: Mapping[N, float] | None = None,
    damping: float = DAMPING,
    max_iterations: int = MAX_ITERATIONS,
    tolerance: float = TOLERANCE,
    start: Mapping[N, float] | None = None,
) -> dict[N, float]:
    """The power iteration of :func:`pagerank_numbered`, for a caller that made what
    an iteration pulls itself (:func:`rubi.core.pagerankarrays.entry_pulls`):
    the same float sums in the same order.

    Args:
        order: the nodes; node ``order[i]`` is number ``i``.
        pulls: per node something links to, in ``perm`` order (the first
            ``len(pulls)`` of it): its in-edges' sources as positions in ``perm``,
            ascending, and their shares (the link's weight times ``damping`` over its
            source's summed out-weights); or the same as arrays
            (:class:`rubi.core.pagerankarrays.ArrayPuller`, numpy loaded).
        dangling: the positions in ``perm`` of the nodes without out-edges, ascending.
        perm: node numbers, those something links to first (ascending), then the
            others (ascending).
        personalization, damping, max_iterations, tolerance, start: as :func:`pagerank`.

    Returns:
        ``{node: rank}``, as :func:`pagerank`.
    """
    index = {node: i for i, node in enumerate(order)}
    n = len(index)
    if n == 0:
        return {}
    pos = [0] * n
    for new, old in enumerate(perm):
        pos[old] = new
    teleport = _teleport(index, personalization)
    pulled = len(pulls)
    uniform = len(teleport) == n and personalization is None
    tele = [(pos[i], t) for i, t in teleport]
    start_rank = _start(index, teleport, start, bool(personalization))
    rank = list(map(start_rank.__getitem__, perm))
    limit = n * tolerance
    np = loaded_numpy() if isinstance(pulls, list) else pulls.np
    if np is not None and (not isinstance(pulls, list) or pulled >= ARRAY_NODES):
        from rubi.core.pagerankarrays import ArrayPuller, iterate

        rank = iterate(
            np,
            pulls if not isinstance(pulls, list) else ArrayPuller.of(np, pulls),
            pulled,
            dangling,
            tele,
            rank,
            uniform=uniform,
            damping=damping,
            max_iterations=max_iterations,
            limit=limit,
        )
        return dict(zip(map(order.__getitem__, perm), rank, strict=True))
    assert isinstance(pulls, list)  # arrays were iterated above
    rest = n - pulled
    pull = _Puller(pulls)
    for _ in range(max_iterations):
        get = rank.__getitem__
        nxt = pull(get)
        restart = (1.0 - damping) + damping * sum(map(get, dangling), 0.0)
        if uniform:
            jump = restart / n
            nxt = list(map(jump.__add__, nxt))
            nxt.extend(repeat(jump, rest))
        else:
            nxt.extend(repeat(0.0, rest))
            for i, t in tele:
                nxt[i] += restart * t
        err = sum(map(abs, map(sub, nxt, rank)), 0.0)
        rank = nxt
        if err < limit:
            break
    return dict(zip(map(order.__getitem__, perm), rank, strict=True))


def loaded_numpy() -> Any:
    """numpy when this process has imported it, else None (never imported for this: a
    cold hook does without). A module another thread is still importing is in
    ``sys.modules`` half made: None too."""
    np = sys.modules.get("numpy")
    if np is None or getattr(getattr(np, "__spec__", None), "_initializing", False):
        return None
    return np


class _Puller:
    """One iteration's pull, ``[sum(map(mul, map(get, src), share), 0.0) for src, share
    in pulls]``, with the nodes of one or two in-edges pulled together: for one,
    ``0.0 + r * w`` is ``r * w``; for two, ``(0.0 + a) + b`` is ``a + b``; both exactly
    (ranks and shares are never negative, and a compensated ``sum``, Python 3.12's,
    rounds two terms as one addition does). The others are summed one by one, as
    before. The same floats, without a Python-level step per leaf of the walk (about
    half of a search's walk has one or two links)."""

    __slots__ = ("_many", "_one", "_order", "_pair")

    def __init__(self, pulls: Pulls) -> None:
        ones = [(p, src[0], share[0]) for p, (src, share) in enumerate(pulls) if len(src) == 1]
        pairs = [(p, src, share) for p, (src, share) in enumerate(pulls) if len(src) == 2]
        many = [(p, src, share) for p, (src, share) in enumerate(pulls) if len(src) > 2]
        self._one = ([s for _, s, _ in ones], [w for _, _, w in ones])
        self._pair = (
            [src[0] for _, src, _ in pairs],
            [share[0] for _, _, share in pairs],
            [src[1] for _, src, _ in pairs],
            [share[1] for _, _, share in pairs],
        )
        self._many = [(src, share) for _, src, share in many]
        where = [0] * len(pulls)
        for at, (p, *_) in enumerate(chain(ones, pairs, many)):
            where[p] = at
        self._order = where

    def __call__(self, get: Callable[[int], float]) -> list[float]:
        """Each node's pulled rank, in the pulls' order, ``get`` reading a rank."""
        one_src, one_share = self._one
        a, wa, b, wb = self._pair
        got = list(map(mul, map(get, one_src), one_share))
        got += map(add, map(mul, map(get, a), wa), map(mul, map(get, b), wb))
        got += [sum(map(mul, map(get, src), share), 0.0) for src, share in self._many]
        return list(map(got.__getitem__, self._order))


def _pulls(
    out: Sequence[dict[int, float]], damping: float
) -> tuple[Pulls, list[int], list[int], list[int]]:
    """What one iteration pulls: per node something links to, its in-edges' sources
    (as positions in the permutation) and their damped shares, sources ascending; the
    dangling nodes' positions; the permutation (node numbers: those something links to
    first, in number order, then the others, which only get their teleport share); and
    each node number's position in it."""
    n = len(out)
    # The in-edges of every node, as tuples: a tuple of numbers is no container the
    # cyclic garbage collector keeps tracking, while the lists of lists this was made
    # of (two per node) outlived enough young collections to count towards a full one
    # (on a large code map, a full collection every few shape edits).
    totals = list(map(sum, map(dict.values, out)))  # no edge: 0 (weights are > 0)
    dangling = [i for i, total in enumerate(totals) if not total]
    scale = [damping / total if total else 0.0 for total in totals]
    heads = list(chain.from_iterable(out))
    tails = list(chain.from_iterable(map(repeat, range(n), map(len, out))))
    weights = list(
        map(mul, chain.from_iterable(map(dict.values, out)), map(scale.__getitem__, tails))
    )
    # by target, sources ascending within one (a stable sort of edges made in source
    # order): the order the sums are taken in
    by_target = sorted(range(len(heads)), key=heads.__getitem__)
    heads = list(map(heads.__getitem__, by_target))
    # Nodes something links to first: the others only get their teleport share, so
    # an iteration pulls for the first ``pulled`` nodes and appends the rest.
    linked = bytearray(n)
    for j in heads:
        linked[j] = 1
    perm = [j for j in range(n) if linked[j]]
    pulled = len(perm)
    perm.extend(j for j in range(n) if not linked[j])
    pos = [0] * n
    for new, old in enumerate(perm):
        pos[old] = new
    get_pos = pos.__getitem__
    sources = tuple(map(get_pos, map(tails.__getitem__, by_target)))
    shares = tuple(map(weights.__getitem__, by_target))
    del tails, weights, by_target
    pulls: Pulls = []
    at = 0
    for j in perm[:pulled]:
        end = bisect_right(heads, j, at)
        pulls.append((sources[at:end], shares[at:end]))
        at = end
    return pulls, list(map(get_pos, dangling)), perm, pos


def _adjacency(
    nodes: Iterable[N], edges: Iterable[tuple[N, N, float]]
) -> tuple[dict[N, int], list[dict[int, float]]]:
    """Nodes numbered in order (``nodes``, then those only named in ``edges``) and each
    node's out-edges ``{target number: summed weight}`` (no self-loops, weights > 0)."""
    index: dict[N, int] = {}
    for node in nodes:
        index.setdefault(node, len(index))
    out: list[dict[int, float]] = [{} for _ in index]
    for src, dst, w in edges:
        i = index.get(src)
        if i is None:
            i = index[src] = len(index)
            out.append({})
        j = index.get(dst)
        if j is None:
            j = index[dst] = len(index)
            out.append({})
        if w > 0 and i != j:
            targets = out[i]
            targets[j] = targets.get(j, 0.0) + w
    return index, out


def _teleport(
    index: Mapping[N, int], personalization: Mapping[N, float] | None
) -> list[tuple[int, float]]:
    """``(node number, teleport weight)`` of the nodes the walk jumps to (weights sum 1)."""
    n = len(index)
    total = sum(max(v, 0.0) for v in (personalization or {}).values())
    if personalization and total > 0:
        chosen = [(index[k], v / total) for k, v in personalization.items() if v > 0 and k in index]
        if chosen:
            return chosen
    return [(i, 1.0 / n) for i in range(n)]


def _start(
    index: Mapping[N, int],
    teleport: list[tuple[int, float]],
    start: Mapping[N, float] | None,
    personalized: bool,
) -> list[float]:
    """The first rank vector: ``start`` (nodes it lacks at their teleport weight, scaled
    to sum 1), else the teleport distribution (personalized) or uniform."""
    n = len(index)
    if start is not None:
        base = [0.0] * n
        for i, t in teleport:
            base[i] = t
        rank = [max(start.get(node, base[i]), 0.0) for node, i in index.items()]
        total = sum(rank)
        if total > 0:
            return [r / total for r in rank]
    if personalized:
        rank = [0.0] * n
        for i, t in teleport:
            rank[i] = t
        return rank
    return [1.0 / n] * n
