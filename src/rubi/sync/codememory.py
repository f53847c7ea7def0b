"""What a vault sync keeps of the project's code between runs: the code map it last
read or saved, the listing its last code run saw, and the code map's memory
(:mod:`rubi.codemap.incremental`) with the background step that makes it.

A vault sync (:class:`rubi.sync.vaultsync.VaultSync`) owns one :class:`CodeMemory` and
shares its lock with it: the next run neither reads the map back nor lists the project
when a watcher says what changed, and an edit that changes files' shape re-resolves
only what it can reach.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection
from typing import TYPE_CHECKING

from rubi.core.paths import VaultPaths
from rubi.sync.code import CodeListing, CodeRun, map_code
from rubi.sync.codestore import code_map_key, read_code_map
from rubi.sync.manifest import IndexReport, VaultState
from rubi.sync.progress import Progress, stage

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.codemap.incremental import MapMemory

__all__ = ["REMEMBER_TRIES", "CodeMemory"]

log = logging.getLogger(__name__)

REMEMBER_TRIES = 3
"""Times :meth:`CodeMemory.remember` makes the memory again when a run replaced the
map while it was made."""


class CodeMemory:
    """The code a vault sync keeps (see the module docstring); guarded by the vault sync's
    ``lock`` (re-entrant), which :meth:`remember` holds only to read and keep."""

    def __init__(self, paths: VaultPaths, lock: threading.RLock) -> None:
        self.paths = paths
        self._lock = lock
        self._code_map: tuple[tuple[object, ...], CodeMap | None] | None = None
        """The map last read or saved, with the key of its file (:func:`code_map_key`)."""
        self._listing: CodeListing | None = None
        """The project's files as the last code run saw them; a watcher's run starts
        from it and the paths it saw change (None: list the project again)."""
        self._memory: MapMemory | None = None
        """What the code map was resolved from (:mod:`rubi.codemap.incremental`), kept
        since this process last built it in full: an edit that changes files' shape
        then re-resolves only what it can reach."""

    def code_map(self) -> CodeMap | None:
        """The project's code map as of the last run that mapped it (None for a plain
        vault or before the first index); read again only when its file changed."""
        with self._lock:
            key = code_map_key(self.paths)
            if key is None:
                return None
            if self._code_map is None or self._code_map[0] != key:
                self._code_map = (key, read_code_map(self.paths))
            return self._code_map[1]

    def holds_map(self, key: object) -> bool:
        """The map of ``key`` (:func:`code_map_key`) is kept in memory (read without
        the lock: one attribute)."""
        kept = self._code_map
        return kept is not None and kept[0] == key

    @property
    def held(self) -> bool:
        """A memory of the code map is held (read without the lock: a flag)."""
        return self._memory is not None

    def is_current(self, code_map: CodeMap) -> bool:
        """``code_map`` is the map kept now (no run replaced it). Call under the lock."""
        return self._code_map is not None and self._code_map[1] is code_map

    def map_code(
        self,
        old: VaultState,
        new: VaultState,
        report: IndexReport,
        full: bool,
        code: bool,
        progress: Progress | None,
        changed_code: Collection[str] | None,
    ) -> CodeRun:
        """The code side of a run (:func:`rubi.sync.code.map_code`); keeps the map it
        saved and the listing it saw, so the next run neither reads the map back nor
        lists the project when a watcher says what changed; the map before the run is
        read only when the code changed (:attr:`CodeRun.previous`). Call under the
        lock."""
        if not code or self.paths.project_root is None:
            return map_code(self.paths, old, new, report, full, code, None)
        held, self._listing = self._listing, None  # kept only if this run ends
        memory, self._memory = self._memory, None  # changed in place by the run
        # read only when the code changed: a run that finds nothing changed reads no map
        previous = None if full else self.code_map
        code_run = map_code(
            self.paths,
            old,
            new,
            report,
            full,
            code,
            stage(progress, "Mapping code"),
            previous=previous,
            held=held,
            changed=changed_code,
            memory=memory,
        )
        if (code_run.saved or code_run.memory) and code_run.code_map is not None:
            key = code_map_key(self.paths)
            self._code_map = None if key is None else (key, code_run.code_map)
        self._listing = code_run.listing
        self._memory = memory if code_run.code_map is None else code_run.memory
        return code_run

    def remember(self) -> tuple[bool, CodeMap | None]:
        """Make the code map's memory (:func:`rubi.codemap.incremental.memory_of`) when
        the listing of the last code run is held and no memory. See
        :meth:`rubi.sync.vaultsync.VaultSync.remember_code`.

        Returns:
            Whether a memory is held afterwards (tried :data:`REMEMBER_TRIES` times
            while runs replace the map), and the map a memory was made of here (None
            when none was made): the caller may load the graph ahead for it. Never
            raises (logged).
        """
        for _ in range(REMEMBER_TRIES):
            made = self._remember_once()
            if made is not None:
                return made
        return False, None

    def _remember_once(self) -> tuple[bool, CodeMap | None] | None:
        """One try of :meth:`remember`; None when a run came between (try again)."""
        root = self.paths.project_root
        if root is None:
            return False, None
        with self._lock:
            if self._memory is not None:
                return True, None
            held = self._listing
            code_map = self.code_map() if held is not None else None
        if held is None or code_map is None:
            return False, None
        from rubi.codemap.incremental import memory_of

        try:
            memory = self._saved(code_map, held)
            if memory is None:
                memory = memory_of(
                    root, self.paths.codemap_cache, code_map, held.listing, held.stats
                )
        except Exception:  # an optimisation: the first shape edit builds in full instead
            log.warning("code map memory not made", exc_info=True)
            return False, None
        if memory is None:
            log.info("code map memory not made: the map moved on since it was saved")
            return False, None
        with self._lock:
            if self._memory is not None:
                return True, None
            current = self._listing
            if (
                current is None
                or current.listing is not held.listing
                or not self.is_current(code_map)
            ):
                return None  # a run came between: its map is not this one
            self._memory = memory
        return True, code_map

    def _saved(self, code_map: CodeMap, held: CodeListing) -> MapMemory | None:
        """The memory on disk (:mod:`rubi.sync.memorystore`, written by the last full
        build or a cold reshape) as the memory of ``code_map`` seen as ``held``: read
        back (0.4 s of CPU on spring-framework) instead of made again from the parse
        cache (:func:`~rubi.codemap.incremental.memory_of`, 2.1 s). A memory written
        before the files last changed is first reshaped to ``held``, as a cold run
        does, reading only the files whose stat differs.

        Returns:
            The memory, holding ``code_map`` itself and ``held``'s listing; None when
            there is none, it cannot be read, or it does not give ``code_map``'s files,
            modules and edges (then it is made from the parse cache).
        """
        from rubi.codemap.incremental import reshape_code_map, stamps_of
        from rubi.sync.memorystore import load_memory

        root = self.paths.project_root
        assert root is not None
        memory = load_memory(self.paths)
        if memory is None:
            return None
        listing, stats = held.listing, held.stats
        if (
            memory.listing.paths != listing.paths
            or memory.stamps != stamps_of(listing, stats)
            or not _same_shape(memory.code_map, code_map)
        ):
            got = reshape_code_map(root, self.paths.codemap_cache, memory, listing, stats)
            if got is None:
                return None
            memory = got[1]
        if not _same_shape(memory.code_map, code_map):
            log.info("code map memory on disk not used: it does not give the map held")
            return None
        memory.code_map, memory.listing, memory.touched = code_map, listing, 0
        return memory


def _same_shape(remembered: CodeMap, code_map: CodeMap) -> bool:
    """Two maps of the same files (contents, modules, imports, symbols), modules and
    import edges: a memory of one is a memory of the other (ranks may differ within
    the rank tolerance). About 30 ms on 10,000 files."""
    return (
        remembered.files == code_map.files
        and remembered.edges == code_map.edges
        and remembered.modules == code_map.modules
    )
