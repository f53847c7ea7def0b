"""The link graph's successors as arrays (compressed sparse rows), kept with the graph
while it does not change, so a walk gathers its neighbourhood's links in a few numpy
calls instead of a Python step per link.

Kept in the graph's own cache (``G.__networkx_cache__``, networkx 3.3 and later), which
networkx clears on every change made through the graph's methods (``add_edge``,
``remove_node``, ...). A build takes a version token from the cache, and kept arrays
are used while their token is the cache's. Nothing changes the graph while a walk
reads it: a search holds the live graph still for its whole run
(:meth:`rubi.sync.session.SyncSession.reading`), and a save's change waits for it.

Building costs a pass over every node and link (8.6 ms at 6,837 nodes and 37,905
links) and saves about 1.5 ms a walk, so the arrays are built once one version of the
graph has served as many searches as they cost (at least
:data:`BUILD_AFTER_SEARCHES`, one per :data:`NODES_PER_SEARCH` nodes): an agent that
saves a note before each search never pays for arrays it would use once, and a
session that searches an unchanged vault builds them once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

__all__ = [
    "BUILD_AFTER_SEARCHES",
    "NODES_PER_SEARCH",
    "Adjacency",
    "adjacency",
    "links_among",
    "links_within",
]

BUILD_AFTER_SEARCHES = 2
"""Searches of one version of the graph after which its arrays are built, at least."""
NODES_PER_SEARCH = 2_000
"""A larger graph waits for one more search per this many nodes (its arrays cost
about 1.3 µs a node to build; a walk saves about 1.5 ms): 3 searches at 6,800 nodes,
25 at 50,000."""

_VERSION = "rubi.search.adjacency.version"
_ARRAYS = "rubi.search.adjacency.arrays"


@dataclass(slots=True)
class _Version:
    """One version of a graph (the token a change clears), and its searches so far."""

    searches: int = 0


@dataclass(frozen=True, slots=True)
class Adjacency:
    """A graph's successors as arrays.

    Attributes:
        row: node → its row.
        starts: ``starts[r]:starts[r + 1]`` are row ``r``'s successors in ``targets``
            (length: nodes + 1).
        targets: the successors' rows, each node's in the graph's own order.
        in_degree: each row's count of distinct predecessors (float64).
    """

    row: dict[str, int]
    starts: Any
    targets: Any
    in_degree: Any
    version: _Version = field(repr=False)


def adjacency(g: Any) -> Adjacency | None:
    """The arrays of ``g`` as it is now, or None when none are kept for it: not yet
    (fewer searches of this version than the module docstring says), or networkx keeps
    no cache. ``g`` must not change while this runs. Needs numpy."""
    cache = getattr(g, "__networkx_cache__", None)
    if not isinstance(cache, dict):
        return None  # networkx before 3.3: nothing tells when the graph changed
    version = cache.setdefault(_VERSION, _Version())
    kept = cache.get(_ARRAYS)
    if isinstance(kept, Adjacency) and kept.version is version:
        return kept
    version.searches += 1
    if version.searches < max(BUILD_AFTER_SEARCHES, len(g._succ) // NODES_PER_SEARCH):
        return None
    built = _build(g, version)
    cache[_ARRAYS] = built  # used only while the version is still the cache's
    return built


def _build(g: Any, version: _Version) -> Adjacency:
    import numpy as np

    succ, pred = g._succ, g._pred
    nodes = list(succ)
    row = {node: i for i, node in enumerate(nodes)}
    counts = np.fromiter(map(len, succ.values()), dtype=np.intp, count=len(nodes))
    starts = np.zeros(len(nodes) + 1, dtype=np.intp)
    np.cumsum(counts, out=starts[1:])
    targets = np.fromiter(
        map(row.__getitem__, chain.from_iterable(succ.values())),
        dtype=np.intp,
        count=int(starts[-1]),
    )
    in_degree = np.fromiter(
        map(len, map(pred.__getitem__, nodes)), dtype=np.float64, count=len(nodes)
    )
    return Adjacency(row, starts, targets, in_degree, version)


def links_within(adj: Adjacency, order: Sequence[str]) -> tuple[Any, Any, Any]:
    """The links among the nodes ``order`` (all in the graph), as the walk numbers
    them (a node's position in ``order``): ``(heads, tails, in_degree)``, one entry per
    link ``heads[k] → tails[k]`` (a self-link left out) in the order of ``order`` and
    of each node's successors, and each node's in-degree in the whole graph.

    Raises:
        KeyError: a node of ``order`` the arrays do not know (not in the graph)."""
    import numpy as np

    n = len(order)
    rows = np.fromiter(map(adj.row.__getitem__, order), dtype=np.intp, count=n)
    local = np.full(len(adj.row), -1, dtype=np.intp)
    local[rows] = np.arange(n)
    first = adj.starts[rows]
    sizes = adj.starts[rows + 1] - first
    offsets = np.cumsum(sizes) - sizes
    cols = adj.targets[np.repeat(first - offsets, sizes) + np.arange(int(sizes.sum()))]
    heads = np.repeat(np.arange(n), sizes)
    tails = local[cols]
    keep = (tails >= 0) & (tails != heads)
    return heads[keep], tails[keep], adj.in_degree[rows]


def links_among(g: Any, order: Sequence[str]) -> tuple[Any, Any, Any]:
    """:func:`links_within` for the graph ``g`` as it is now: from its kept arrays when
    it has them (:func:`adjacency`), else read from the graph, a Python step per link
    (the same links in the same order either way). ``g`` must not change while this
    runs. Needs numpy."""
    import numpy as np

    adj = adjacency(g)
    if adj is not None:
        return links_within(adj, order)
    succ, pred = g._succ, g._pred
    index = {node: i for i, node in enumerate(order)}
    get = index.get
    heads: list[int] = []
    tails: list[int] = []
    for i, u in enumerate(order):
        inside = [j for j in map(get, succ[u]) if j is not None and j != i]
        if inside:
            tails += inside
            heads += [i] * len(inside)
    in_degree = np.fromiter(
        map(len, map(pred.__getitem__, order)), dtype=np.float64, count=len(order)
    )
    return np.array(heads, dtype=np.intp), np.array(tails, dtype=np.intp), in_degree
