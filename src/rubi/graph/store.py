"""Save and load the derived graph (``.index/graph.pickle``).

Pickle, because the file is derived, local and git-ignored (never shared or
downloaded), and it loads several times faster than node-link JSON.
"""

from __future__ import annotations

import pickle
from pathlib import Path

from rubi.atomic import atomic_write_bytes
from rubi.errors import IndexCorruptError
from rubi.graph.build import GraphBuild

__all__ = ["GRAPH_FORMAT", "load_graph", "save_graph"]

GRAPH_FORMAT = 2
"""Bump when :class:`GraphBuild` changes shape; an older file is rebuilt."""


def save_graph(path: Path, build: GraphBuild) -> None:
    """Write ``build`` to ``path`` atomically."""
    atomic_write_bytes(path, pickle.dumps((GRAPH_FORMAT, build), protocol=pickle.HIGHEST_PROTOCOL))


def load_graph(path: Path) -> GraphBuild:
    """Read the graph saved by :func:`save_graph`.

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    try:
        version, build = pickle.loads(path.read_bytes())
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    except Exception as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc}); run `rubi index --full`") from exc
    if version != GRAPH_FORMAT or not isinstance(build, GraphBuild):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    return build
