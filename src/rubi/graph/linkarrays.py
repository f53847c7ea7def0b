"""A live link graph's successors as numbered arrays, kept until the graph changes.

A search's walk (:mod:`rubi.search.walkarrays`) numbers its neighbourhood and reads
every walked node's successors: a Python step per link, about 1 ms a walk at 1,100
nodes. Here the whole graph is numbered once (nodes in id order) into compressed
sparse rows, each node's successors in its dict's order, and its in-degrees, so a
walk gathers its links in a few numpy calls. The rows are made only for a networkx
graph (a long-lived server's): they are kept in the graph's own
``__networkx_cache__``, which networkx empties at every change it makes of nodes or
links (``add_node``, ``add_edge``, ``remove_edge``, ``remove_node``, their ``_from``
forms, ``clear``…). rubi's graph code writes the dicts directly only to set node or
edge attributes (:mod:`rubi.graph.live`, :mod:`rubi.graph.livenodes`,
:mod:`rubi.graph.codediff`), which the rows do not hold. A graph read back frozen or
flat (a one-shot process) has no such cache and is read through its dicts as before.

A search reads the graph held still (:func:`rubi.sync.run.reading_graph`: no change
runs while it reads), so a walk never meets a change. Should one run beside the
making of the rows anyway, the state is put in the cache *before* the rows are made
and they count only while that very state is still there; a change empties the cache
after it is made, so rows made from a graph changing under them are never kept.

Made when a graph version's walks have covered as many nodes as the graph holds
(:data:`BUILD_SHARE`): making the rows costs about what the walks' own reading over
that many nodes costs (4 ms at 6,600 nodes and 22,000 links, 90–130 ms at 50,000
nodes and 165,000 links, against 2–3 ms a walk of 1,100 nodes saved: its neighbourhood
and links), so a version that serves one search never pays for them, and one that
serves many pays about twice at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["BUILD_SHARE", "LinkArrays", "link_arrays"]

BUILD_SHARE = 1.0
"""The rows are made once a version's walks have covered this many times the graph's
node count (walked nodes, summed over its walks)."""

_KEY = "rubi.linkarrays"
"""This module's entry in the graph's ``__networkx_cache__``."""


@dataclass(frozen=True, slots=True)
class LinkArrays:
    """A graph's successors as compressed sparse rows.

    Attributes:
        names: node ids by number (sorted: numbers compare as the ids do).
        number: node id → its number.
        indptr: node number ``i``'s successors are ``indices[indptr[i]:indptr[i + 1]]``.
        indices: successors' numbers, each node's in its successor dict's order.
        in_degree: per node number, how many nodes link to it (``len(pred[node])``).
        linked_ptr, linked: node ``i``'s linked nodes, those it links to or is linked
            from (itself when it links to itself), each once, ascending, are
            ``linked[linked_ptr[i]:linked_ptr[i + 1]]``.
    """

    names: list[str]
    number: dict[str, int]
    indptr: Any
    indices: Any
    in_degree: Any
    linked_ptr: Any
    linked: Any


class _State:
    """One graph version's entry: walked nodes so far, and the rows once made."""

    __slots__ = ("arrays", "walked")

    def __init__(self) -> None:
        self.walked = 0
        self.arrays: LinkArrays | None = None


def link_arrays(np: Any, g: Any, succ: Any, pred: Any, walked: int) -> LinkArrays | None:
    """``g``'s rows when they are made and still current, else None (then the caller
    reads ``succ`` and ``pred`` itself); the rows are made here once this version's
    walks reach :data:`BUILD_SHARE`.

    Args:
        np: the numpy module.
        g: the graph (its rows are kept only when it has a ``__networkx_cache__``).
        succ, pred: its successor and predecessor dicts
            (:func:`rubi.graph.dicts.graph_dicts`; plain dicts).
        walked: the nodes of the walk asking.
    """
    cache = _cache(g)
    if cache is None or type(succ) is not dict or type(pred) is not dict:
        return None
    state: _State = cache.get(_KEY) or cache.setdefault(_KEY, _State())
    if state.arrays is not None:
        return state.arrays
    state.walked += walked
    if state.walked < BUILD_SHARE * len(succ):
        return None
    arrays = _make(np, succ, pred)
    if cache.get(_KEY) is not state:  # the graph changed while they were made
        return None
    state.arrays = arrays
    return arrays


def _cache(g: Any) -> dict[str, Any] | None:
    """``g``'s own ``__networkx_cache__`` (never through a ``__getattr__`` fallback:
    :class:`rubi.graph.flat.FlatGraph` thaws on one), or None."""
    try:
        cache = object.__getattribute__(g, "__networkx_cache__")
    except AttributeError:
        return None
    return cache if type(cache) is dict else None


def _make(np: Any, succ: dict[str, Any], pred: dict[str, Any]) -> LinkArrays:
    names = sorted(succ)
    number = {node: i for i, node in enumerate(names)}
    rows = list(map(succ.__getitem__, names))
    sizes = np.fromiter(map(len, rows), dtype=np.intp, count=len(names))
    indptr = np.zeros(len(names) + 1, dtype=np.intp)
    np.cumsum(sizes, out=indptr[1:])
    indices = np.fromiter(
        map(number.__getitem__, chain.from_iterable(rows)), dtype=np.intp, count=int(indptr[-1])
    )
    in_degree = np.fromiter(map(len, map(pred.__getitem__, names)), dtype=np.intp, count=len(names))
    n = len(names)
    sources = np.repeat(np.arange(n, dtype=np.int64), sizes)
    targets = indices.astype(np.int64)
    pairs = np.sort(np.concatenate([sources * n + targets, targets * n + sources]))
    # each pair once (np.unique takes 50 times as long here: numpy 2.4 hashes)
    pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))] if len(pairs) else pairs
    linked_ptr = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(np.bincount(pairs // n, minlength=n), out=linked_ptr[1:])
    linked = (pairs % n).astype(np.intp)
    return LinkArrays(names, number, indptr, indices, in_degree, linked_ptr, linked)
