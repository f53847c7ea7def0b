"""The walk's out-edges (:func:`rubi.search.ppr._walk`) gathered as numpy arrays, for
a process that has numpy loaded already: the same entries in the same orders, so
:func:`rubi.core.pagerankarrays.entry_pulls` makes the pulls of
:func:`rubi.core.pagerank.pagerank_numbered`, float for float.

The list walk visits the nodes in order and, for each link ``u → v`` of two walked
nodes, adds ``v``'s weight to ``out[u][v]`` and then ``u``'s backlink weight to
``out[v][u]``. Here every link is one row of two arrays, numbered by that visit; an
entry ``out[x][y]`` is the sum of its (one or two) contributions, at the place of the
first of them: where the dict would have put the key. Two contributions are added in
either order to the same float.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, repeat
from typing import Any

from rubi.core.pagerank import pagerank_pulled
from rubi.core.pagerankarrays import entry_pulls, stable_order

__all__ = ["walk_arrays"]


def walk_arrays(
    np: Any,
    order: Sequence[str],
    succ: Mapping[str, Any],
    ahead: Sequence[float],
    backlink: float,
    seeds: Mapping[str, float],
    damping: float,
) -> dict[str, float]:
    """The walk's ranks (:func:`rubi.search.ppr._walk`'s, float for float).

    Args:
        np: the numpy module.
        order: the walked nodes, in the order that numbers them.
        succ: the graph's successors (``g.succ`` or its dict: :func:`rubi.graph.dicts.graph_dicts`).
        ahead: per node number, the weight of a link into it.
        backlink: what a link read backwards weighs, as a share of ``ahead``.
        seeds: node → teleport weight.
        damping: the walk's damping.

    Returns:
        Node → rank.
    """
    n = len(order)
    index = {node: i for i, node in enumerate(order)}
    views = list(map(succ.__getitem__, order))
    sizes = np.fromiter(map(len, views), dtype=np.intp, count=n)
    heads = np.fromiter(
        map(index.get, chain.from_iterable(views), repeat(-1)),
        dtype=np.intp,
        count=int(sizes.sum()),
    )
    tails = np.repeat(np.arange(n, dtype=np.intp), sizes)
    kept = (heads >= 0) & (heads != tails)
    tails, heads = tails[kept], heads[kept]
    into = np.array(ahead, dtype=np.float64)
    links = len(tails)
    # each link's two contributions, in the visit's order: forward, then backward
    x = np.empty(2 * links, dtype=np.intp)
    y = np.empty(2 * links, dtype=np.intp)
    w = np.empty(2 * links, dtype=np.float64)
    x[0::2], y[0::2], w[0::2] = tails, heads, into[heads]
    x[1::2], y[1::2], w[1::2] = heads, tails, backlink * into[tails]
    # one entry per (x, y): its contributions summed, placed at the first of them
    by_y = stable_order(np, y, n)
    pairs = by_y[stable_order(np, x[by_y], n)]  # by (x, y), then visit order
    key = (x * n + y)[pairs]
    first = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1]))) if links else pairs
    weight = np.add.reduceat(w[pairs], first) if links else w
    when = pairs[first]
    # by source, each source's entries in the order its dict would hold them: by when
    # (the first contributions' places, all distinct), then stably by source
    by_when = stable_order(np, when, 2 * links)
    entries = by_when[stable_order(np, x[when][by_when], n)]
    pulls, dangling, perm = entry_pulls(
        np, n, x[when][entries], y[when][entries], weight[entries], damping
    )
    return pagerank_pulled(order, pulls, dangling, perm, personalization=seeds, damping=damping)
