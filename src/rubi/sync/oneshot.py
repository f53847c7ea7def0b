"""The graph a one-shot reader opens (a cold recall hook, a cold ``rubi search``: a
process that searches once and exits, :func:`rubi.graph.readmode.reads_frozen`),
without the vault sync.

When the flat graph (``graph.flat``, :mod:`rubi.graph.flat`) holds the store's
generation and code stamp it is the whole answer, and the vault sync
(:class:`rubi.sync.vaultsync.VaultSync`) would only open it the same way
(:meth:`rubi.sync.livegraph.GraphKeeper.read`) after importing its note cache, code
memory, manifest and the vault scanner (13 dataclasses, ``hashlib``: about 15 ms of a
cold recall's CPU). Anything else (no flat graph, one behind or damaged, no store, a
vault sync of this process holding a live graph) is left to the vault sync
(:func:`rubi.sync.reading_graph`), which reads the snapshot, replays the journal and
writes the flat graph again.

Import this module as ``rubi.sync.oneshot``: the package ``rubi.sync`` loads its
submodules on first use, and this one imports nothing until it reads (a hook that only
marks its process, :func:`mark_one_shot`, pays for no store or graph module).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from pathlib import Path

    from rubi.core.paths import VaultPaths
    from rubi.graph.build import GraphBuild

__all__ = ["current_flat", "is_one_shot", "mark_one_shot", "sharing_flat"]

_ONE_SHOT: list[bool] = []
"""Set (one item) once this process was marked as one that runs once and exits."""


def mark_one_shot() -> None:
    """Mark this process as one that runs one command or hook and exits (a cold hook, a
    CLI command): an index run in it that changes the graph without rewriting the graph
    snapshot writes the flat graph too (:meth:`rubi.sync.livegraph.GraphKeeper.update`),
    since it holds the caught-up graph already (about 120 ms of CPU at 6,300 notes),
    where the next cold reader would read the snapshot, replay the run and write it
    (about 330 ms). A long-lived process (``rubi serve``, ``rubi watch``) is never
    marked: its watcher's saves stay as fast as they were. What the process loads
    is frozen out of the collector's passes (:func:`rubi.core.collector.freeze_loads`)."""
    if not _ONE_SHOT:
        from rubi.core.collector import freeze_loads

        freeze_loads()
        _ONE_SHOT.append(True)


def is_one_shot() -> bool:
    """Whether :func:`mark_one_shot` marked this process."""
    return bool(_ONE_SHOT)


def current_flat(paths: VaultPaths, *, once: bool = False) -> GraphBuild | None:
    """The flat graph of ``paths`` when this process reads it as a one-shot reader
    would anyway (or this call does: ``once``, a long-lived process answering a hook
    cold, :func:`rubi.app.searching.searching_once`) and it is current: it holds the
    store's generation and code stamp. None otherwise (not a one-shot reader; a vault
    sync of this process holds a live graph; no store or flat graph; one behind,
    damaged or untrusted; an unreadable store): ask :func:`rubi.sync.reading_graph`,
    which says what is wrong."""
    from rubi.graph.readmode import reads_frozen

    if not (once or reads_frozen()):
        return None
    if "rubi.sync.run" in sys.modules:  # else no vault sync in this process
        # Not the module sys.modules holds: in a long-lived process another thread (a
        # catch-up run starting) may be importing it still, half made; importing it
        # waits for that import to finish. By name, as before: the vault sync's modules
        # import this one, and this one never loads them.
        from importlib import import_module

        if import_module("rubi.sync.run").holds_live_graph(paths):
            return None  # it holds a live graph, maybe a run's journal: it decides
        # A vault sync without one (made for the code map a code hit's symbols come
        # from) holds no graph: the flat graph, checked against the store below, is
        # the one it would read.
    import sqlite3

    from rubi.core.errors import IndexCorruptError
    from rubi.core.picklefiles import UntrustedCacheError
    from rubi.sync.rows import CODE_STAMP, open_store
    from rubi.sync.snapshots import Snapshots

    try:
        store = open_store(paths.store_file, create=False)
    except (sqlite3.Error, UntrustedCacheError):
        return None
    if store is None:
        return None
    try:
        gen, stamp = store.gen(), int(store.meta_value(CODE_STAMP, 0))
    except (sqlite3.Error, TypeError, ValueError):
        return None
    finally:
        store.close()
    snapshots = Snapshots(paths.graph_file)
    # a one-shot process: its searches share one opening; a call answered ``once``:
    # the searches of that call only (:func:`sharing_flat`), none if outside one
    opened = _BLOCK.get() if once else _OPENED
    seen = _flat_identity(snapshots.flat_file) if opened is not None else None
    kept = opened.get(snapshots.flat_file) if opened is not None and seen is not None else None
    if kept is not None and kept[0] == (seen, gen, stamp):
        return kept[1]
    try:
        build, flat_gen, flat_stamp = snapshots.load_flat()
    except IndexCorruptError:
        return None
    if (flat_gen, flat_stamp) != (gen, stamp):
        return None
    if opened is not None and seen is not None and _flat_identity(snapshots.flat_file) == seen:
        opened[snapshots.flat_file] = ((seen, gen, stamp), build)
    return build


@contextmanager
def sharing_flat() -> Iterator[None]:
    """Within the block, this thread's ``once`` readings of a flat graph
    (:func:`current_flat`) share one opening, as a one-shot process's do: the recall of
    a prompt that names files searches code, then notes, in one hook call of a
    long-lived process. Kept for the block only (the server's next call may come
    after a watcher's save, and holds nothing it did not ask for); the same checks
    (the same file, unchanged, the store at the same generation)."""
    token = _BLOCK.set({})
    try:
        yield
    finally:
        _BLOCK.reset(token)


_Opened = dict["Path", tuple[tuple[tuple[int, int, int, int], int, int], "GraphBuild"]]

_OPENED: _Opened = {}
"""The flat graph a one-shot process opened, by file: the file's identity
(:func:`_flat_identity`) and the store's generation and code stamp it was current for,
and the build. A code project's recall searches twice (its code, then its notes), and a
second opening would map and decode again what the first decoded (the neighbours the
graph walk read): the second search gets the first's build when the file is the same
file, unchanged, and the store still at that generation. A process answering a hook
cold (``once``) keeps them for that call only (:func:`sharing_flat`)."""

_BLOCK: ContextVar[_Opened | None] = ContextVar("rubi_flat_block", default=None)
"""The openings a :func:`sharing_flat` block of this context shares (None: outside
one)."""


def _flat_identity(path: Path) -> tuple[int, int, int, int] | None:
    """The flat file's device, inode, size and modification time (a rewrite replaces
    the file: another inode), None when it cannot be read."""
    import os

    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
