"""A flat graph's neighbours as a walk reads them: node → its neighbours' ids, in the
graph's order, without their edge keys and attributes.

The walk (:mod:`rubi.search.ppr`) and the seeds' links (:func:`rubi.search.lists.graph_list`)
read of a node's successors and predecessors only which nodes they are (iterated, counted,
made a set). A flat graph's own adjacency (:class:`rubi.graph.flat.FlatGraph`'s ``succ``
and ``pred``) decodes for every node asked a dict per neighbour of its edges' keys and
attributes: for the 380 nodes a cold recall's walk read at 6,486 notes, about 3,000
dicts no one looked at. Here a node's neighbours are a dict of their ids to None (the
same keys in the same order as the full dict: ``dict.fromkeys`` keeps the first of a
repeated id where the full dict's comprehension does), or the full dict when that node's
was decoded already.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rubi.core.errors import IndexCorruptError

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Linked"]


class Linked(Mapping[str, "Mapping[str, Any]"]):
    """Node → its neighbours (ids, in order) in one direction of a flat graph's
    adjacency (``adjacency``: its ``_ids``, ``_index``, ``_off``, ``_nbr`` and the
    ``_cache`` of the nodes it decoded whole)."""

    def __init__(self, adjacency: Any) -> None:
        self._adjacency = adjacency
        self._cache: dict[int, Mapping[str, Any]] = {}

    def __getitem__(self, node: str) -> Mapping[str, Any]:
        adjacency = self._adjacency
        i = adjacency._index[node]
        found = self._cache.get(i)
        if found is None:
            found = adjacency._cache.get(i)
        if found is None:
            ids, nbr, off = adjacency._ids, adjacency._nbr, adjacency._off
            try:
                start, end = off[i], off[i + 1]
                if 0 <= start <= end <= len(nbr):  # a slice: the same ids, read in C
                    found = dict.fromkeys(map(ids.__getitem__, nbr[start:end]))
                else:  # damaged offsets fail (or not) as the positions one by one do
                    found = dict.fromkeys([ids[nbr[p]] for p in range(start, end)])
            except (IndexError, TypeError) as exc:
                raise IndexCorruptError(
                    f"the flat graph is damaged (neighbours of {node!r}: {exc}); "
                    "run `rubi index --full`"
                ) from None
            self._cache[i] = found
        return found

    def neighbour_count(self, node: str) -> int:
        """``len(self[node])``: how many distinct nodes ``node`` has in this direction,
        counted on the neighbours' positions (distinct positions are distinct ids)
        without making the dict of their ids. The walk counts every node's
        predecessors and reads few of them (at 6,818 notes of obsidian-hub, 953 nodes
        counted: 2.1-2.4 → 0.8 ms). Damaged offsets or positions outside the ids are
        left to :meth:`__getitem__`, which reads (or fails) as before.

        Raises:
            KeyError: ``node`` is not in the graph.
            IndexCorruptError: as :meth:`__getitem__`, for damaged neighbours.
        """
        adjacency = self._adjacency
        i = adjacency._index[node]
        found = self._cache.get(i)
        if found is None:
            found = adjacency._cache.get(i)
        if found is not None:
            return len(found)
        nbr, off = adjacency._nbr, adjacency._off
        try:
            start, end = off[i], off[i + 1]
            if 0 <= start <= end <= len(nbr):
                positions = set(nbr[start:end])
                if not positions or (min(positions) >= 0 and max(positions) < len(adjacency._ids)):
                    return len(positions)
        except (IndexError, TypeError):
            pass
        return len(self[node])

    def __contains__(self, node: object) -> bool:
        return node in self._adjacency

    def __iter__(self) -> Iterator[str]:
        return iter(self._adjacency)

    def __len__(self) -> int:
        return len(self._adjacency)
