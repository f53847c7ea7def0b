"""Save and load the derived graph (``.index/graph.pickle``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rubi.core.errors import IndexCorruptError
from rubi.core.storage import load_pickle, save_pickle

if TYPE_CHECKING:
    from rubi.graph.build import GraphBuild

__all__ = ["GRAPH_FORMAT", "load_graph", "save_graph"]

GRAPH_FORMAT = 9
"""Bump when :class:`GraphBuild` changes shape; an older file is rebuilt."""


def save_graph(path: Path, build: GraphBuild) -> None:
    """Write ``build`` to ``path`` atomically."""
    save_pickle(path, (GRAPH_FORMAT, build))


MAX_CACHED_GRAPHS = 4
"""Graphs kept per process: the project's and the personal vault's, with room to spare."""
_CACHE: dict[Path, tuple[int, int, GraphBuild]] = {}
"""The last graph read per file, reused while the file is unchanged: a long-lived
process (the MCP server, the watcher) reads the graph once per change, not per call."""


def load_graph(path: Path) -> GraphBuild:
    """Read the graph saved by :func:`save_graph` (cached while the file is unchanged).

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    try:
        st = path.stat()
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    cached = _CACHE.get(path)
    if cached is not None and cached[:2] == (st.st_mtime_ns, st.st_size):
        return cached[2]
    build = _read(path)
    if len(_CACHE) >= MAX_CACHED_GRAPHS:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[path] = (st.st_mtime_ns, st.st_size, build)
    return build


def _read(path: Path) -> GraphBuild:
    try:
        loaded = load_pickle(path)
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    except Exception as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc}); run `rubi index --full`") from exc
    if not (isinstance(loaded, tuple) and len(loaded) == 2 and loaded[0] == GRAPH_FORMAT):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    build = loaded[1]
    from rubi.graph.build import GraphBuild  # networkx: only when a graph is needed

    if not isinstance(build, GraphBuild):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    return build
