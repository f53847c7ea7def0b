"""Save and load a graph snapshot (``graph.pickle``): a :class:`LiveGraph` and the
store generation it reflects. The changes after that generation are replayed from
the store by :mod:`rubi.sync.session`, so a save never rewrites the whole graph."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rubi.core.errors import IndexCorruptError
from rubi.core.storage import load_pickle, save_pickle

if TYPE_CHECKING:
    from rubi.graph.live import LiveGraph

__all__ = ["GRAPH_FORMAT", "load_snapshot", "save_snapshot"]

GRAPH_FORMAT = 12
"""Bump when :class:`LiveGraph` or :class:`GraphBuild` change shape; an older file is
rebuilt."""


def save_snapshot(path: Path, live: LiveGraph, gen: int) -> None:
    """Write ``live`` as of store generation ``gen`` to ``path`` atomically."""
    save_pickle(path, (GRAPH_FORMAT, gen, live))


def load_snapshot(path: Path) -> tuple[LiveGraph, int]:
    """Read what :func:`save_snapshot` wrote: the graph and its generation.

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    try:
        loaded = load_pickle(path)
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    except Exception as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc}); run `rubi index --full`") from exc
    from rubi.graph.live import LiveGraph  # networkx: only when a graph is needed

    if not (
        isinstance(loaded, tuple)
        and len(loaded) == 3
        and loaded[0] == GRAPH_FORMAT
        and isinstance(loaded[1], int)
        and isinstance(loaded[2], LiveGraph)
    ):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    return loaded[2], loaded[1]
