"""The dicts behind a link graph's reading views, for a reader that asks per node.

networkx keeps a ``MultiDiGraph`` in three dicts (``_node``: node → attributes,
``_succ`` and ``_pred``: node → neighbour → edge key → edge attributes) and shows
them through views (``g.nodes``, ``g.succ``, ``g.pred``) that make a view object for
every node asked: ``g.succ[n]`` builds one each time, and ``g.nodes.get(n)`` goes
through two Python calls. Over a warm search's walk (up to 3,000 nodes, their
neighbours read two or three times) and an eligibility check per ranked node, that
was about a tenth of the search's CPU. The graph package already reads and fills
these dicts itself (:mod:`rubi.graph.flatwrite`, :mod:`rubi.graph.live`); the search
reads them only through :func:`graph_dicts`.
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["graph_dicts", "link_dicts"]


def graph_dicts(g: Any) -> tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]:
    """``g``'s node attributes, successors and predecessors as the dicts its views
    ``g.nodes``, ``g.succ`` and ``g.pred`` wrap (a networkx ``MultiDiGraph`` or a
    :class:`rubi.graph.frozen.FrozenGraph`): the same keys, values and orders, read
    without a view per node. Always the graph's own dicts, so nothing is kept that a
    change could make stale. A graph whose parts are not plain dicts (a networkx
    subgraph view, a graph read from the flat file) is read through its views.

    The dicts are looked up as the object's own attributes, never through a
    ``__getattr__`` fallback: :class:`rubi.graph.flat.FlatGraph` answers a name it
    lacks from a networkx graph it thaws (every node decoded, networkx imported: what a
    cold reader of the flat graph must not pay)."""
    nodes, succ, pred = (_own(g, name) for name in ("_node", "_succ", "_pred"))
    if type(nodes) is dict and type(succ) is dict and type(pred) is dict:
        return nodes, succ, pred
    return g.nodes, g.succ, g.pred


def _own(g: Any, name: str) -> Any:
    """``g``'s attribute ``name`` as its class or instance holds it (a slot, its
    ``__dict__``), without ``__getattr__``; None when it has none."""
    try:
        return object.__getattribute__(g, name)
    except AttributeError:
        return None


def link_dicts(g: Any) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """``g``'s successors and predecessors (:func:`graph_dicts`') for a reader of the
    neighbours' ids only (iterated, counted, made a set: the walk): a flat graph's read
    without the edge dicts it would decode for every node asked
    (:mod:`rubi.graph.flatlinks`), the same ids in the same order."""
    _, succ, pred = graph_dicts(g)
    if getattr(type(succ), "linked", None) is None:
        return succ, pred
    flat: Any = succ, pred  # rubi.graph.flat's adjacency (not imported here)
    return flat[0].linked(), flat[1].linked()
