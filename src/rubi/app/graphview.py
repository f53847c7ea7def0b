"""The vault's graph for a picture: its most central notes, code files and modules,
and the typed links between them (what ``rubi view`` draws).

Centrality is plain PageRank (:func:`rubi.core.pagerank.pagerank`, Brin & Page) over
the notes, files and modules and their links, parallel links adding their weights.
Links to notes that do not exist yet (dangling) are left out of the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rubi.core.paths import VaultPaths

__all__ = ["DEFAULT_NODES", "MAX_NODES", "GraphEdge", "GraphNode", "GraphView", "graph_view"]

DEFAULT_NODES = 300
"""Nodes shown by default: the top ones by PageRank."""
MAX_NODES = 2000
"""The most nodes one picture holds."""

_SHOWN_KINDS = ("note", "file", "module")


@dataclass(frozen=True, slots=True)
class GraphNode:
    """One node of the picture.

    Attributes:
        id: the node id (a note's id, a file's path, ``module:<name>``).
        title: what to label it with.
        kind: ``note``, ``map`` (a generated code-map page), ``file`` or ``module``.
        type: a note's type (``decision``, ``note``, ...); empty for code.
        rank: its PageRank over the whole graph (ranks of all nodes sum to 1).
    """

    id: str
    title: str
    kind: str
    type: str
    rank: float


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """A typed link between two shown nodes: ``relation`` is ``links_to``,
    ``imports``, ``in_module``, ``about_file``, ..."""

    source: str
    target: str
    relation: str


@dataclass(frozen=True, slots=True)
class GraphView:
    """The top nodes by rank (highest first), the links among them, and how many
    nodes there are in all (``total``), so a page can say what it left out."""

    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)
    total: int = 0

    def as_json(self) -> dict[str, Any]:
        """``{"nodes": [{"id", "title", "kind", "type", "rank"}], "edges": [{"source",
        "target", "relation"}], "total", "shown"}``."""
        return {
            "nodes": [
                {"id": n.id, "title": n.title, "kind": n.kind, "type": n.type, "rank": n.rank}
                for n in self.nodes
            ],
            "edges": [
                {"source": e.source, "target": e.target, "relation": e.relation} for e in self.edges
            ],
            "total": self.total,
            "shown": len(self.nodes),
        }


def _kind(attrs: Any) -> str:
    kind = str(attrs.get("kind", ""))
    return "map" if kind == "note" and attrs.get("generated") else kind


def graph_view(paths: VaultPaths, limit: int = DEFAULT_NODES) -> GraphView:
    """The ``limit`` most central notes, files and modules of the vault as last
    indexed, and the links among them (read only: nothing is indexed or written).

    Raises:
        ValueError: ``limit`` is not between 1 and :data:`MAX_NODES`.
        IndexCorruptError: the vault was never indexed, or its graph is unreadable.
    """
    from rubi.core.pagerank import pagerank
    from rubi.sync import reading_graph

    if not 1 <= limit <= MAX_NODES:
        raise ValueError(f"limit must be between 1 and {MAX_NODES}, got {limit}")
    with reading_graph(paths) as build:
        g = build.graph
        attrs = {n: a for n, a in g.nodes(data=True) if a.get("kind") in _SHOWN_KINDS}
        links = [
            (u, v, str(d.get("relation", "links_to")), float(d.get("weight", 1.0)))
            for u, v, d in g.edges(data=True)
            if u in attrs and v in attrs and u != v
        ]
    ranks = pagerank(attrs, ((u, v, w) for u, v, _, w in links))
    top = sorted(attrs, key=lambda n: (-ranks.get(n, 0.0), n))[:limit]
    shown = set(top)
    nodes = [
        GraphNode(
            n,
            str(attrs[n].get("title") or n),
            _kind(attrs[n]),
            str(attrs[n].get("type", "")) if attrs[n].get("kind") == "note" else "",
            ranks.get(n, 0.0),
        )
        for n in top
    ]
    edges = sorted(
        {GraphEdge(u, v, r) for u, v, r, _ in links if u in shown and v in shown},
        key=lambda e: (e.source, e.target, e.relation),
    )
    return GraphView(nodes, edges, len(attrs))
