"""A link graph read back for a process that only reads it: the dicts of a networkx
``MultiDiGraph`` (node attributes, successors, predecessors) behind the part of its
reading API a search uses, without importing networkx (90–180 ms of CPU, most of it
its backends' entry-point scan, for a cold hook that answers one prompt).

A one-shot process (a cold recall hook, a cold ``rubi search``:
:func:`rubi.app.searching.one_search`) reads the graph snapshot into a
:class:`FrozenGraph` (:func:`rubi.graph.readmode.load_frozen`). The readers see what
they see in a ``MultiDiGraph``: ``g.nodes`` (node → its attribute dict, ``.get``),
``g.succ`` and ``g.pred`` (node → neighbour → edge key → edge attributes), ``node in
g``, iteration and ``len`` in the same orders, since the dicts are the ones networkx
would hold. The changes a live graph makes when it replays the store's journal
(:meth:`rubi.graph.live.LiveGraph.apply`: nodes and keyed edges added and removed)
are made here on those dicts as networkx makes them, step for step, so the dicts come
out the same, in the same orders. Anything else (a networkx method; a code map moved)
is answered by a ``MultiDiGraph`` made over the very same dicts on first use
(:meth:`FrozenGraph.thaw`): one set of dicts, so every reader sees one graph and one
ranking.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import suppress
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["FrozenGraph"]

Adjacency = dict[str, dict[str, dict[str, dict[str, Any]]]]
"""node → neighbour → edge key → edge attributes, as networkx keeps a multigraph's."""


class FrozenGraph:
    """A multigraph's dicts, read like a ``networkx.MultiDiGraph``.

    Args:
        attrs: the graph's own attributes (``g.graph``).
        nodes: node → attribute dict, in the graph's node order.
        succ: node → successor → key → edge attributes (every node a key).
        pred: node → predecessor → the same key dicts as ``succ``'s (every node a key).
    """

    __slots__ = ("_full", "_node", "_pred", "_succ", "_touched", "graph")

    def __init__(
        self,
        attrs: dict[str, Any],
        nodes: dict[str, dict[str, Any]],
        succ: Adjacency,
        pred: Adjacency,
    ) -> None:
        self.graph = attrs
        self._node = nodes
        self._succ = succ
        self._pred = pred
        self._full: nx.MultiDiGraph | None = None
        self._touched: set[str] | None = set()

    def touched(self) -> frozenset[str] | None:
        """The nodes whose successors or predecessors (or the attributes of an edge to
        or from them) may differ from what they were when this graph was made or
        :meth:`retrack` was last called; None when that is not known (the graph was
        thawed: a change made through networkx is not seen here)."""
        return None if self._touched is None else frozenset(self._touched)

    def retrack(self) -> None:
        """Count :meth:`touched` from here (the graph was just written whole as it is),
        unless it was thawed."""
        if self._touched is not None:
            self._touched = set()

    def touch(self, *nodes: str) -> None:
        """Record that an edge of ``nodes`` was changed in place (its attributes set by
        the caller, not through this class)."""
        if self._touched is not None:
            self._touched.update(nodes)

    @property
    def nodes(self) -> Mapping[str, dict[str, Any]]:
        """Node → its attribute dict (``g.nodes[n]``, ``g.nodes.get(n)``), read-only."""
        return MappingProxyType(self._node)

    @property
    def succ(self) -> Mapping[str, dict[str, dict[str, dict[str, Any]]]]:
        """Node → successor → edge key → edge attributes, read-only."""
        return MappingProxyType(self._succ)

    @property
    def pred(self) -> Mapping[str, dict[str, dict[str, dict[str, Any]]]]:
        """Node → predecessor → edge key → edge attributes, read-only."""
        return MappingProxyType(self._pred)

    adj = succ

    def __contains__(self, node: object) -> bool:
        try:
            return node in self._node
        except TypeError:  # an unhashable value is no node, as networkx says
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(self._node)

    def __len__(self) -> int:
        return len(self._node)

    # -- changes, as networkx's MultiDiGraph makes them (networkx 3: classes/digraph.py,
    # multidigraph.py, multigraph.py) ------------------------------------------------
    def add_node(self, node: str, **attr: Any) -> None:
        """Add ``node`` (no edges) or update its attributes with ``attr``."""
        if node not in self._node:
            self._succ[node] = {}
            self._pred[node] = {}
            self._node[node] = dict(attr)
            self.touch(node)
        else:
            self._node[node].update(attr)
        self._changed()

    def add_edge(self, u: str, v: str, key: str, **attr: Any) -> str:
        """Add the edge ``u → v`` keyed ``key`` (its ends added as nodes when new),
        or update that edge's attributes; returns ``key``."""
        for node in (u, v):
            if node not in self._succ:
                self._succ[node] = {}
                self._pred[node] = {}
                self._node[node] = {}
        keydict = self._succ[u].get(v)
        if keydict is not None:
            datadict = keydict.get(key, {})
            datadict.update(attr)
            keydict[key] = datadict
        else:
            keydict = {key: dict(attr)}
            self._succ[u][v] = keydict
            self._pred[v][u] = keydict
        self.touch(u, v)
        self._changed()
        return key

    def remove_edge(self, u: str, v: str, key: str) -> None:
        """Remove the edge ``u → v`` keyed ``key``.

        Raises:
            KeyError: no such edge."""
        keydict = self._succ[u][v]
        del keydict[key]
        if not keydict:
            del self._succ[u][v]
            del self._pred[v][u]
        self.touch(u, v)
        self._changed()

    def _changed(self) -> None:
        """Empty the thawed graph's cache (:meth:`thaw`) after a change made here, as
        networkx empties it after a change made through it: it may hold what was read
        of these dicts (:mod:`rubi.graph.linkarrays`)."""
        if self._full is not None:
            self._full.__networkx_cache__.clear()

    def has_edge(self, u: str, v: str, key: str | None = None) -> bool:
        """Whether an edge ``u → v`` exists (keyed ``key`` when given)."""
        keydict = self._succ.get(u, {}).get(v)
        if keydict is None:
            return False
        return key is None or key in keydict

    def remove_edges_from(self, edges: Iterable[tuple[str, str, str]]) -> None:
        """Remove each ``(u, v, key)`` edge; one that does not exist is skipped."""
        for u, v, key in edges:
            with suppress(KeyError):
                self.remove_edge(u, v, key)

    def remove_node(self, node: str) -> None:
        """Remove ``node`` and its edges.

        Raises:
            KeyError: no such node."""
        succs = self._succ[node]
        self.touch(node, *succs, *self._pred[node])
        del self._node[node]
        for u in succs:
            del self._pred[u][node]
        del self._succ[node]
        for u in self._pred[node]:
            del self._succ[u][node]
        del self._pred[node]
        self._changed()

    def remove_nodes_from(self, nodes: Iterable[str]) -> None:
        """Remove each of ``nodes`` and its edges; one that does not exist is skipped."""
        for node in nodes:
            if node in self._node:
                self.remove_node(node)

    def out_edges(self, node: str, keys: bool = True) -> list[tuple[str, str, str]]:
        """``(node, successor, key)`` of each edge out of ``node``, in networkx's order.

        Raises:
            ValueError: ``keys`` false (only the keyed form is read here)."""
        if not keys:
            raise ValueError("FrozenGraph.out_edges lists keyed edges only")
        return [(node, v, k) for v, keydict in self._succ[node].items() for k in keydict]

    def in_degree(self, node: str) -> int:
        """Edges into ``node``, each key counted."""
        return sum(len(keydict) for keydict in self._pred[node].values())

    def thaw(self) -> nx.MultiDiGraph:
        """The ``networkx.MultiDiGraph`` over these same dicts (made once; imports
        networkx): a change made through it is seen here too."""
        if self._full is None:
            import networkx as nx

            self._touched = None  # a change made through networkx is not seen here
            g = nx.MultiDiGraph()
            g.graph = self.graph
            g._node = self._node
            g._succ = g._adj = self._succ
            g._pred = self._pred
            self._full = g
        return self._full

    def __getattr__(self, name: str) -> Any:
        """What this class does not define (``in_degree``, ``edges``, ``subgraph``…):
        the networkx graph's, over the same dicts (:meth:`thaw`)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.thaw(), name)
