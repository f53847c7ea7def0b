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

from collections.abc import Callable, Mapping, Sequence
from itertools import chain, repeat
from typing import Any

from rubi.core.pagerank import pagerank_pulled
from rubi.core.pagerankarrays import entry_pulls, stable_order
from rubi.graph.linkarrays import LinkArrays

__all__ = ["gather", "neighbourhood", "walk_arrays"]


def walk_arrays(
    np: Any,
    order: Sequence[str],
    succ: Mapping[str, Any],
    ahead: Sequence[float],
    backlink: float,
    seeds: Mapping[str, float],
    damping: float,
    gathered: tuple[Any, Any] | None = None,
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
        gathered: the walked nodes' successor counts and their successors' numbers in
            the walk (-1 outside it), as :func:`gather` gives them; None: read here
            from ``succ``.

    Returns:
        Node → rank.
    """
    n = len(order)
    if gathered is None:
        index = {node: i for i, node in enumerate(order)}
        views = list(map(succ.__getitem__, order))
        sizes = np.fromiter(map(len, views), dtype=np.intp, count=n)
        heads = np.fromiter(
            map(index.get, chain.from_iterable(views), repeat(-1)),
            dtype=np.intp,
            count=int(sizes.sum()),
        )
    else:
        sizes, heads = gathered
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


def gather(
    np: Any, numbers: Any, links: LinkArrays, into: Callable[[int], float]
) -> tuple[Any, tuple[Any, Any]]:
    """What :func:`walk_arrays` reads of the graph, from its kept rows
    (:func:`rubi.graph.linkarrays.link_arrays`) in a few numpy calls instead of a
    Python step per link: per walked node the weight of a link into it (``into`` of
    its in-degree, called once per distinct in-degree: the same floats), and the
    walked nodes' successor counts and successors' numbers in the walk (-1 outside
    it), each node's in its successor dict's order.

    Args:
        np: the numpy module.
        numbers: the walked nodes' numbers in the rows, in the walk's order.
        links: the graph's rows.
        into: the weight of a link into a node of a given in-degree.
    """
    n = len(numbers)
    starts = links.indptr[numbers]
    sizes = links.indptr[numbers + 1] - starts
    ends = np.cumsum(sizes)
    total = int(ends[-1]) if n else 0
    # each row's place in links.indices, laid end to end in the walk's order
    at = np.repeat(starts - (ends - sizes), sizes) + np.arange(total, dtype=np.intp)
    local = np.full(len(links.number), -1, dtype=np.intp)
    local[numbers] = np.arange(n, dtype=np.intp)
    degrees = links.in_degree[numbers]
    distinct = np.sort(degrees)
    distinct = distinct[np.concatenate(([True], distinct[1:] != distinct[:-1]))] if n else distinct
    weights = np.array([into(d) for d in distinct.tolist()], dtype=np.float64)
    return weights[np.searchsorted(distinct, degrees)], (sizes, local[links.indices[at]])


def neighbourhood(
    np: Any, links: LinkArrays, start: Sequence[int], radius: int, hub: int, cap: int
) -> Any:
    """:func:`rubi.search.ppr._neighbourhood` on the rows: the same nodes, as their
    numbers ascending (the ids' order). That walk adds, hop by hop, each frontier
    node's linked nodes not seen yet in ascending order, frontier nodes in the order
    they were added, and stops at ``cap`` nodes; so a node is added where it first
    occurs in the frontier's rows laid end to end, and a hop's additions are those
    first occurrences in order of place, cut at the cap.

    Args:
        np: the numpy module.
        links: the graph's rows.
        start: the seeds' numbers, distinct, fewer than ``cap``.
        radius: hops.
        hub: a node of more linked nodes than this, not a seed, is not walked through.
        cap: nodes at most.
    """
    seen = np.zeros(len(links.names), dtype=bool)
    frontier = np.array(start, dtype=np.intp)
    seen[frontier] = True
    seed = seen.copy()
    found, count = [frontier], len(frontier)
    ptr = links.linked_ptr
    for _ in range(radius):
        sizes = ptr[frontier + 1] - ptr[frontier]
        through = (sizes <= hub) | seed[frontier]
        frontier, sizes = frontier[through], sizes[through]
        ends = np.cumsum(sizes)
        total = int(ends[-1]) if len(ends) else 0
        at = np.repeat(ptr[frontier] - (ends - sizes), sizes) + np.arange(total, dtype=np.intp)
        rows = links.linked[at]
        rows = rows[~seen[rows]]
        _, first = np.unique(rows, return_index=True)
        new = rows[np.sort(first)]
        if count + len(new) >= cap:
            found.append(new[: cap - count])
            break
        seen[new] = True
        found.append(new)
        count += len(new)
        frontier = new
    return np.sort(np.concatenate(found))
