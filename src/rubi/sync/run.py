"""The doors into sync: :func:`index_vault` for a run, :func:`reading_graph`,
:func:`graph_for` and :func:`notes_for` for what the last run saved.

Each goes through the vault's :class:`~rubi.sync.vaultsync.VaultSync`. A process
keeps one vault sync per vault (:func:`vault_sync_for`, at most :data:`MAX_VAULT_SYNCS`, the
least recently used dropped), so a long-lived process (the MCP server, the watcher,
the engine) keeps the manifest, notes and graph in memory between runs, and a
one-shot command builds them once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from rubi.core.model import Note
from rubi.core.paths import VaultPaths
from rubi.sync.manifest import IndexReport
from rubi.sync.progress import Progress
from rubi.sync.vaultsync import LOCK_TIMEOUT_S, VaultSync

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.graph.build import GraphBuild

__all__ = [
    "LOCK_TIMEOUT_S",
    "MAX_VAULT_SYNCS",
    "forget_vault_syncs",
    "graph_for",
    "has_vault_sync",
    "holds_live_graph",
    "index_vault",
    "load_code_map",
    "notes_for",
    "reading_graph",
    "vault_sync_for",
]

MAX_VAULT_SYNCS = 4
"""Sessions a process keeps: the project's and the personal vault's, with room."""

_VAULT_SYNCS: OrderedDict[Path, VaultSync] = OrderedDict()
"""Each vault's :class:`VaultSync` in this process, by its index folder, the least
recently used first: at most :data:`MAX_VAULT_SYNCS` (the oldest is dropped, and made
again from disk on its next use), replaced when the same index folder is asked for
with other paths, emptied by :func:`forget_vault_syncs`. What each holds follows the
files through its runs; its ``watched`` flag is the one state a watcher sets for the
whole process (see :attr:`VaultSync.watched`)."""
_GUARD = threading.Lock()


def vault_sync_for(paths: VaultPaths) -> VaultSync:
    """This process's vault sync of the vault at ``paths`` (made on first use)."""
    with _GUARD:
        vault_sync = _VAULT_SYNCS.get(paths.index_dir)
        if vault_sync is None or vault_sync.paths != paths:
            vault_sync = VaultSync(paths)
            _VAULT_SYNCS[paths.index_dir] = vault_sync
            while len(_VAULT_SYNCS) > MAX_VAULT_SYNCS:
                _VAULT_SYNCS.popitem(last=False)
        _VAULT_SYNCS.move_to_end(paths.index_dir)
        return vault_sync


def has_vault_sync(paths: VaultPaths) -> bool:
    """Whether this process keeps a vault sync of ``paths`` (:func:`vault_sync_for`
    made one and it was not dropped since)."""
    with _GUARD:
        return paths.index_dir in _VAULT_SYNCS


def holds_live_graph(paths: VaultPaths) -> bool:
    """Whether this process keeps a vault sync of ``paths`` that loaded its live graph
    (an index run, the watcher, a reader of the graph); one made only for the code map
    (a code hit's symbols) or a freshness check holds none."""
    with _GUARD:
        vault_sync = _VAULT_SYNCS.get(paths.index_dir)
    return vault_sync is not None and vault_sync.holds_live_graph()


def forget_vault_syncs() -> None:
    """Drop every vault sync (tests; a process that deleted derived data by hand)."""
    with _GUARD:
        _VAULT_SYNCS.clear()


def index_vault(
    paths: VaultPaths,
    *,
    full: bool = False,
    progress: Progress | None = None,
    on_wait: Callable[[], None] | None = None,
    verify: bool = True,
    code: bool = True,
    lock_timeout_s: float = LOCK_TIMEOUT_S,
    changed_paths: Collection[str] | None = None,
    changed_code: Collection[str] | None = None,
) -> IndexReport:
    """Index the vault incrementally (or from scratch with ``full``).

    Args:
        paths: the vault.
        full: drop the derived data and rebuild it from the files.
        progress: called as ``progress(done, total, stage)`` through a long run:
            ``Reading notes`` (only the notes that need reading count), ``Mapping
            code``, ``Indexing text``.
        on_wait: called once if another run holds the index lock (so a surface can
            say why it is waiting).
        verify: check the Whoosh index against the manifest (a full rebuild when they
            disagree) and report compaction advice; hooks and searches skip it.
        code: map the project's code when its files changed.
        lock_timeout_s: how long to wait for another run.
        changed_paths: vault-relative paths a watcher saw change; the run reads those
            instead of scanning the vault (a folder change still scans).
        changed_code: project-relative paths outside the vault a watcher saw change
            (with ``code``): when they are all files the last run listed, the project
            is not listed again (:func:`rubi.sync.code.map_code`).

    Returns:
        An :class:`IndexReport`; per-file problems are in ``warnings`` (the files
        are skipped or indexed in part, never modified).

    Raises:
        OSError: the index folder cannot be written.
        filelock.Timeout: another index run held the lock for ``lock_timeout_s``.
    """
    return vault_sync_for(paths).run(
        full=full,
        progress=progress,
        on_wait=on_wait,
        verify=verify,
        code=code,
        lock_timeout_s=lock_timeout_s,
        changed_paths=changed_paths,
        changed_code=changed_code,
    )


def reading_graph(paths: VaultPaths) -> AbstractContextManager[GraphBuild]:
    """The vault's graph as of the last index run, held still for a ``with`` block
    (:meth:`~rubi.sync.vaultsync.VaultSync.reading`): what every reader that may run
    beside a watcher (the MCP server, the engine) reads the graph through. Get the
    code map and the notes before the block, not inside it.

    Raises:
        IndexCorruptError: not indexed yet, or unreadable; run `rubi index`.
    """
    return vault_sync_for(paths).reading()


def graph_for(paths: VaultPaths) -> GraphBuild:
    """The vault's graph as of the last index run, for a caller no other thread runs
    beside (a reader beside a watcher uses :func:`reading_graph`).

    Raises:
        IndexCorruptError: not indexed yet, or unreadable; run `rubi index`.
    """
    return vault_sync_for(paths).graph()


def load_code_map(paths: VaultPaths) -> CodeMap | None:
    """The project's code map as of the last index run, or None."""
    return vault_sync_for(paths).code_map()


def notes_for(paths: VaultPaths) -> dict[str, Note]:
    """The vault's parsed notes (bodies cut short) as of the last index run; empty
    when not indexed yet."""
    from rubi.core.errors import IndexCorruptError

    try:
        return vault_sync_for(paths).notes()
    except IndexCorruptError:
        return {}
