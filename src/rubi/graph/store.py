"""Save and load the derived graph (``.index/graph.pickle``)."""

from __future__ import annotations

from pathlib import Path

from rubi.errors import IndexCorruptError
from rubi.graph.build import GraphBuild
from rubi.storage import load_pickle, save_pickle

__all__ = ["GRAPH_FORMAT", "load_graph", "save_graph"]

GRAPH_FORMAT = 4
"""Bump when :class:`GraphBuild` changes shape; an older file is rebuilt."""


def save_graph(path: Path, build: GraphBuild) -> None:
    """Write ``build`` to ``path`` atomically."""
    save_pickle(path, (GRAPH_FORMAT, build))


def load_graph(path: Path) -> GraphBuild:
    """Read the graph saved by :func:`save_graph`.

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    try:
        loaded = load_pickle(path)
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    except Exception as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc}); run `rubi index --full`") from exc
    if not (isinstance(loaded, tuple) and len(loaded) == 2 and loaded[0] == GRAPH_FORMAT):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    build = loaded[1]
    if not isinstance(build, GraphBuild):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    return build
