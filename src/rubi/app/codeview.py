"""Open a code file by the id search printed for it: its outline and its links.

Search returns notes and code files in one list, and every id it prints must open with
``rubi read`` (and ``links``, ``backlinks``) as it does with the MCP ``read`` tool: a
code file's id is its project path (``src/flask/signals.py``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from rubi.app.reading import LinkView, code_outline, edges, resolve_ref
from rubi.core.paths import VaultPaths
from rubi.graph.build import GraphBuild

__all__ = ["CodeView", "code_node", "node_for", "read_code"]


@dataclass(frozen=True, slots=True)
class CodeView:
    """A code file as ``rubi read`` shows it.

    Attributes:
        id: the file's id (its path in the project, ``/``-separated).
        outline: language, size, importers, imports, symbols with lines, notes about it
            (:func:`rubi.app.reading.code_outline`).
        links: what it imports; backlinks: what imports it and the notes about it.
    """

    id: str
    outline: str
    links: list[LinkView] = field(default_factory=list)
    backlinks: list[LinkView] = field(default_factory=list)


def code_node(build: GraphBuild, ref: str) -> str | None:
    """The code file ``ref`` names (its id, as search prints it; ``./`` and ``\\``
    accepted), or None when it names none. Looked up in the graph only."""
    if not isinstance(ref, str) or any(ch in ref for ch in "\x00\r\n"):
        return None
    key = unicodedata.normalize("NFC", ref.strip().replace("\\", "/")).removeprefix("./")
    attrs = build.graph.nodes.get(key)
    return key if attrs is not None and attrs.get("kind") == "file" else None


def node_for(build: GraphBuild, ref: str) -> str:
    """The graph node ``ref`` names: a code file by its id, else a note by id, path,
    title or alias (:func:`rubi.app.reading.resolve_ref`).

    Raises:
        NoteNotFoundError: nothing matches.
    """
    return code_node(build, ref) or resolve_ref(build, ref)


def read_code(paths: VaultPaths, build: GraphBuild, ref: str, code_map: object) -> CodeView | None:
    """The code file ``ref`` names, or None when it names none (or the vault has no
    project)."""
    node = code_node(build, ref)
    if node is None or paths.project_root is None:
        return None
    return CodeView(
        node,
        code_outline(paths.project_root, build, node, code_map),
        edges(build, node, incoming=False),
        edges(build, node, incoming=True),
    )
