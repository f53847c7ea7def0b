"""The live graph a vault sync keeps: caught up with the store, moved to a code map
that changed shape, and its snapshot on disk (:mod:`rubi.sync.snapshots`) written
when it falls behind.

A vault sync (:class:`rubi.sync.vaultsync.VaultSync`) owns one :class:`GraphKeeper` and
calls it under its own lock, which it shares with it (a deferred snapshot write takes
it from a timer thread); the graph gets the code map and the stored notes from the
vault sync's :class:`~rubi.sync.codememory.CodeMemory` and
:class:`~rubi.sync.notes.NoteCache`, never from the vault sync. The two changes made to
the live graph in place (a journal applied, code nodes moved) are made inside the
vault sync's ``changing`` block, which waits for the graph's readers of the moment;
everything else here (a graph built or read back, a snapshot written) makes a new
graph or only reads it. Another process's runs reach it as the store's journal
(changed notes since a generation) and code stamp (:data:`CODE_STAMP`).

A one-shot reader (:func:`rubi.graph.readmode.reads_frozen`: a cold recall hook, a
cold ``rubi search``) that has no live graph yet reads the flat graph
(:mod:`rubi.graph.flat`) when it holds the store's generation and code stamp: no live
graph is loaded at all (:meth:`GraphKeeper.read`). Otherwise it reads the snapshot and
replays the journal as any process does, then writes the flat graph for the next one.
The flat graph is also written with every snapshot, and marked current by a run that
committed without changing the graph (:meth:`GraphKeeper.unchanged`). A run that
changed the graph does not write it (about 130 ms of CPU at 6,500 notes): in a
headless session every turn's session record is such a change, which the next
prompt's hook indexes and reads through the live graph it has loaded anyway.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from rubi.core.errors import IndexCorruptError
from rubi.core.model import Note
from rubi.sync.codememory import CodeMemory
from rubi.sync.notes import NoteCache
from rubi.sync.oneshot import is_one_shot
from rubi.sync.rows import CODE_STAMP, Store
from rubi.sync.snapshots import Snapshots

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.graph.build import GraphBuild
    from rubi.graph.live import GraphRecord, LiveGraph
    from rubi.sync.manifest import VaultState

__all__ = ["CODE_STAMP", "JOURNAL_MAX", "GraphKeeper"]

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from typing import TypeAlias

    PreviousMap: TypeAlias = "CodeMap | Callable[[], CodeMap | None] | None"
    """The map a graph's code nodes are moved from, or what reads it (called only when
    they move: a run that changed no code reads no map)."""

JOURNAL_MAX = 512
"""Changed notes the store may hold beyond the graph snapshot before the snapshot is
rewritten: a cold reader replays at most this many (about a millisecond each)."""


class GraphKeeper:
    """The live graph of one vault as of a store generation, and its snapshot.

    Args:
        graph_file: the snapshot's file.
        code: the project's code map as of the last run (None for a plain vault).
        notes: the store's notes as of its generation (a full rebuild's input).
        lock: the vault sync's lock, taken by a deferred snapshot write.
        changing: a block in which the live graph may be changed in place (no reader
            reads it meanwhile).
    """

    def __init__(
        self,
        graph_file: Path,
        code: CodeMemory,
        notes: NoteCache,
        lock: threading.RLock,
        changing: Callable[[], AbstractContextManager[None]],
    ) -> None:
        self.live: LiveGraph | None = None
        self.gen = -1
        self.flat: GraphBuild | None = None
        """The flat graph read instead of a live one (a one-shot reader: :meth:`read`),
        as of :attr:`flat_gen`; unused once a live graph is loaded."""
        self.flat_gen = -1
        self.snapshots = Snapshots(graph_file)
        self._code = code
        self._notes = notes
        self._lock = lock
        self._changing = changing
        self._base: CodeMap | None = None
        """The code map the snapshot on disk was saved with, when this process knows
        it (read it back and moved its code nodes, or wrote it): what a run that moves
        only code nodes writes its moves from (:mod:`rubi.sync.codeback`)."""

    def drop(self) -> None:
        """Forget the graph (a full build replaced everything behind it)."""
        from rubi.core.collector import new_generation

        new_generation()  # a settled server frees the old graph's cycles (rubi.core.collector)
        self.live = None
        self.flat = None
        self._base = None
        self.snapshots.forget_origin()  # nor is the graph kept for it

    def held(self) -> GraphBuild | None:
        """The build last read or made here (the live graph's, else the flat graph's),
        without asking the store whether it is current."""
        if self.live is not None:
            return self.live.build
        return self.flat

    def read(self, store: Store, *, watched: bool = False) -> GraphBuild:
        """The build a reader reads, caught up with ``store``: the live graph's
        (:meth:`get`), or in a one-shot reader without one the flat graph when it holds
        the store's generation and code stamp. A one-shot reader that found the flat
        graph missing, behind or damaged (one line logged) reads the live graph and
        writes the flat graph again.

        Raises:
            IndexCorruptError: nothing to read (no snapshot and no notes).
        """
        from rubi.graph.readmode import reads_frozen

        if self.live is not None or not reads_frozen():
            return self.get(store, watched=watched).build
        gen = store.gen()
        if self.flat is not None and self.flat_gen == gen:
            return self.flat
        flat = self._current_flat(store, gen)
        if flat is not None:
            return flat
        live = self.get(store, watched=watched)
        if not watched and self.snapshots.flat_behind(live, self.gen):
            self.snapshots.save_flat(live, self.gen)
        return live.build

    def _current_flat(self, store: Store, gen: int) -> GraphBuild | None:
        """The flat graph on disk when it holds generation ``gen`` and the store's code
        stamp, else None (logged when it is damaged)."""
        try:
            build, flat_gen, stamp = self.snapshots.load_flat()
        except IndexCorruptError as exc:
            if self.snapshots.flat_file.exists():
                log.warning("%s; made again from the graph snapshot or the notes", exc)
            return None
        if flat_gen != gen or stamp != int(store.meta_value(CODE_STAMP, 0)):
            return None
        self.flat, self.flat_gen = build, gen
        return build

    def get(
        self,
        store: Store,
        previous_map: PreviousMap = None,
        *,
        reader: bool = True,
        watched: bool = False,
    ) -> LiveGraph:
        """The live graph, caught up with ``store``: its notes and, when the code map
        changed shape since (:data:`CODE_STAMP`), its code nodes, moved from the map
        they were made of (``previous_map``, or what reads it, when the graph does not
        know it). A ``reader`` (not a run) that had to move them in a graph read back
        from disk writes the snapshot again, so the next process need not (not when
        ``watched``: a watcher writes it itself)."""
        gen = store.gen()
        if self.live is not None and self.gen == gen:
            return self.live  # the common case of every search: one small query
        live = self._caught_up(store, gen)
        stamp = int(store.meta_value(CODE_STAMP, 0))
        if live.code_stamp != stamp:
            stale_snapshot = live.code_stamp == self.snapshots.stamp
            code_map = self._code.code_map()
            saved = live.saved_shape
            previous = self._moved_from(saved, code_map, previous_map)
            with self._changing():
                live.set_code_map(code_map, previous)
            live.code_stamp = stamp
            if saved is not None:
                known = previous is not None and previous.shape_id == saved
                self._base = previous if known else None
            if reader and stale_snapshot and not watched:
                self.snapshots.write(live, self.gen)
                self._wrote(live)
        return live

    def _moved_from(
        self, saved: str | None, code_map: CodeMap | None, previous_map: PreviousMap
    ) -> CodeMap | None:
        """The map to move a graph's code nodes from: for a graph read back from a
        snapshot of a map of shape ``saved`` that a later run's moves left behind
        (``graph.codeback``), that map made again from ``code_map`` or the map
        before the run (read only when needed); else the map before the run."""
        back = None
        if saved is not None and code_map is not None and code_map.shape_id != saved:
            back = self.snapshots.read_back(saved)
            if back is not None and back.head == code_map.shape_id:
                return back.base_map(code_map)
        previous = previous_map() if callable(previous_map) else previous_map
        if back is not None and previous is not None and back.head == previous.shape_id:
            return back.base_map(previous)
        return previous

    def _wrote(self, live: LiveGraph) -> None:
        """After a snapshot write: when it was written, its map is ``live``'s."""
        if self.snapshots.stamp == live.code_stamp:
            self._base = live.graph_map

    def _write_moves(self, live: LiveGraph, gen: int) -> bool:
        """Write the code moves from the snapshot's map to ``live``'s instead of the
        snapshot, and the flat graph (as a snapshot write does); False when they
        cannot stand for the snapshot (its map not known here, too many moves, a
        failed write)."""
        from rubi.sync.codeback import code_back

        base, head = self._base, live.graph_map
        if base is None or head is None or base.shape_id == head.shape_id:
            return False
        back = code_back(base, head)
        if back is None or not self.snapshots.write_back(back):
            return False
        self.snapshots.save_flat(live, gen)
        return True

    def _caught_up(self, store: Store, gen: int) -> LiveGraph:
        """The live graph with the store's notes up to ``gen``."""
        base = int(store.meta_value("base_gen", 0))
        attachments = set(store.meta_value("attachments", []))
        if self.live is None or base > self.gen:
            if self.live is not None:
                from rubi.core.collector import new_generation

                new_generation()  # the graph read so far is replaced (see drop)
            try:
                self.live = self.snapshots.load()
                self.gen = self.snapshots.gen
            except IndexCorruptError as exc:
                log.info("%s; rebuilding it from the notes", exc)
                self.live = None
            if self.live is not None and self.snapshots.gen < base:
                self.live = None  # older than the last full build
            if self.live is None:
                from rubi.graph.live import LiveGraph

                code_map = self._code.code_map() if store.meta_value("code") else None
                self.live = LiveGraph.from_notes(self._notes.notes(store), attachments, code_map)
                self.live.code_stamp = int(store.meta_value(CODE_STAMP, 0))
                self.gen = gen
                self.snapshots.mark(gen, self.live.code_stamp)
                self.snapshots.save(self.live, gen)
                self._base = self.live.graph_map
                return self.live
        self.live.attach_code_map(self._code.code_map)
        if gen != self.gen:
            written, removed = store.changes_since(self.gen)
            with self._changing():
                self.live.apply(
                    written.values(),
                    removed,
                    sorted(attachments - self.live.attachments),
                    sorted(self.live.attachments - attachments),
                )
            self.gen = gen
        return self.live

    def unchanged(self, gen: int, new_gen: int) -> None:
        """A run committed generation ``new_gen`` over ``gen`` without changing the
        graph: the flat graph of ``gen`` holds ``new_gen`` too, so it is marked so
        (no cold reader replays a body edit)."""
        self.snapshots.restamp_flat(gen, new_gen)
        if self.flat is not None and self.flat_gen == gen:
            self.flat_gen = new_gen

    def update(
        self,
        store: Store,
        new: VaultState,
        changed: Mapping[str, Note],
        code_map: CodeMap | None,
        full: bool,
        *,
        records: Mapping[str, GraphRecord] | None = None,
        previous_map: PreviousMap = None,
        reshaped: bool = False,
        watched: bool = False,
    ) -> None:
        """Bring the live graph to a run: a full build adds every note (``changed``,
        or a streamed build's graph ``records``); otherwise the run's rows are
        replayed like any other journal and the code nodes moved to the new map when
        it changed shape (``reshaped``; from ``previous_map``, the map before the run,
        when the graph does not know its map: :meth:`get`). In a ``watched`` vault sync, a
        shape change's snapshot is written by :meth:`flush_locked` after
        :data:`~rubi.sync.snapshots.SNAPSHOT_DELAY_S`, once for a run of edits."""
        from rubi.graph.live import LiveGraph, graph_record

        if full:
            if records is None:
                records = {k: graph_record(n) for k, n in changed.items()}
            code_map = code_map or self._code.code_map()
            self.live = LiveGraph.from_records(records, new.attachments, code_map)
            self.live.code_stamp = self.gen = new.gen
            self.snapshots.mark(new.gen, new.gen)
            self.snapshots.save(self.live, new.gen)
            self._base = self.live.graph_map
            return
        live = self.get(store, previous_map, reader=False)  # the run's rows and map
        if (
            code_map is not None
            and not reshaped  # a kept map the graph never took (see SyncRun.regraphed)
            and (code_map.stats.reused_shape or code_map.stats.kept_graph)
        ):
            live.keep_code_map(code_map)  # same files, edges, names: nothing to redo
        elif reshaped and watched:
            self.snapshots.later(self.flush_locked)
        elif (journal_long := store.count_since(self.snapshots.gen) > JOURNAL_MAX) or reshaped:
            # A move of code nodes only is written as the moves from the snapshot's map
            # (a few KB), not as the whole graph (11 MB on 10,000 files).
            # The store's removal rows stay: another process's vault sync may be behind
            # this snapshot and learns of a deleted note only from them (one per id).
            moves_written = not journal_long and self._write_moves(live, store.gen())
            if not moves_written:
                self.snapshots.save(live, store.gen())
                self._base = live.graph_map
        if not watched and is_one_shot() and self.snapshots.flat_behind(live, self.gen):
            # this process exits soon, and the next cold reader would replay the run
            self.snapshots.save_flat(live, self.gen)

    def keep_flat(self) -> None:
        """Write the flat graph when the live graph is ahead of it (a run of a
        long-lived process, which leaves it behind, :meth:`update`), so the next cold
        reader opens it instead of reading the snapshot and replaying the run. Call
        under the vault sync's lock. A failed write is logged."""
        live = self.live
        if live is not None and self.snapshots.flat_behind(live, self.gen):
            self.snapshots.save_flat(live, self.gen)

    def flush_locked(self) -> None:
        """:meth:`flush` under the vault sync's lock (a deferred write's timer thread)."""
        with self._lock:
            self.flush()

    def flush(self) -> None:
        """Write the snapshot now when the graph is ahead of it, cancelling a pending
        deferred write. Call under the vault sync's lock. Never raises for a write that
        fails (logged)."""
        self.snapshots.cancel()
        live = self.live
        if live is None or not self.snapshots.behind(live, self.gen):
            return
        self.snapshots.write(live, self.gen)
        self._wrote(live)
