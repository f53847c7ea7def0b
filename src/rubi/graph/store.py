"""Save and load a graph snapshot (``graph.pickle``): a :class:`LiveGraph` and the
store generation it reflects. The changes after that generation are replayed from
the store by :mod:`rubi.sync.session`, so a save never rewrites the whole graph.

The file is three pickles one after the other: a header ``(GRAPH_FORMAT, gen,
parts)``, the graph's :class:`~rubi.graph.build.GraphBuild`, then the rest of its
state (name tables, link records, readers). Each part is pickled with a fresh memo:
the pickler remembers every object it wrote until its memo is cleared (16 bytes a
slot in a table of twice as many slots, with the temporary state of every slotted
record kept alive), and a 50,000-note graph is over two million objects, so one
memo added about half the graph's size again to the process's peak while it was
saved. Two parts halve that; what the parts share (note ids, titles) is read back
as two copies, about 10% more memory for the loaded graph.
"""

from __future__ import annotations

import gc
import pickle
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rubi.core.atomic import atomic_write_stream
from rubi.core.errors import IndexCorruptError
from rubi.core.storage import check_trusted

if TYPE_CHECKING:
    from rubi.graph.live import LiveGraph

__all__ = ["GRAPH_FORMAT", "load_snapshot", "save_snapshot"]

GRAPH_FORMAT = 13
"""Bump when :class:`LiveGraph`, :class:`GraphBuild` or the file's layout change
shape; an older file is rebuilt."""

_PARTS = 2


def save_snapshot(path: Path, live: LiveGraph, gen: int) -> None:
    """Write ``live`` as of store generation ``gen`` to ``path`` atomically (the
    user's own file, 0600).

    Raises:
        OSError: the folder is not writable or the disk is full; ``path`` is unchanged.
    """
    state = live.__getstate__()
    build = state.pop("build")

    def write(fh: IO[bytes]) -> None:
        pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dump((GRAPH_FORMAT, gen, _PARTS))
        for part in (build, state):
            pickler.clear_memo()
            pickler.dump(part)

    atomic_write_stream(path, write, mode=0o600)


def load_snapshot(path: Path) -> tuple[LiveGraph, int]:
    """Read what :func:`save_snapshot` wrote: the graph and its generation.

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    try:
        check_trusted(path)
        parts = _load_parts(path)
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    except Exception as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc}); run `rubi index --full`") from exc
    from rubi.graph.build import GraphBuild  # networkx: only when a graph is needed
    from rubi.graph.live import LiveGraph

    if parts is None:
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    gen, build, state = parts
    if not (isinstance(gen, int) and isinstance(build, GraphBuild) and isinstance(state, dict)):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    live = LiveGraph.__new__(LiveGraph)
    live.__setstate__({**state, "build": build})
    return live, gen


def _load_parts(path: Path) -> tuple[Any, Any, Any] | None:
    """The generation and the two parts, or None for a file of another format; the
    collector is paused while unpickling (see :func:`rubi.core.storage.load_pickle`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        with path.open("rb") as fh:
            header = pickle.load(fh)
            if not (
                isinstance(header, tuple)
                and len(header) == 3
                and header[0] == GRAPH_FORMAT
                and header[2] == _PARTS
            ):
                return None
            return header[1], pickle.load(fh), pickle.load(fh)
    finally:
        if enabled:
            gc.enable()
