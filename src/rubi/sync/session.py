"""A sync session: the owned object that keeps a vault's manifest, parsed notes and
live graph, and brings them in line with the files as plan → apply.

One code path for ``rubi index``, first-use indexing, hooks, the MCP server and the
watcher. A run takes the index lock, **plans** (:func:`rubi.sync.plan.plan_changes`:
the vault's listing, or the paths a watcher reported, against the manifest) and
**applies** once: changed notes are read and parsed, Whoosh gets one commit, the
store (:mod:`rubi.sync.store`) gets the changed rows in one transaction, and the
live graph (:class:`rubi.graph.live.LiveGraph`) the changed notes. The work is the
change's, not the vault's: nothing whole-vault is rewritten on a save.

A long-lived process (``rubi serve``, ``rubi watch``) keeps its session between runs,
so it reads nothing back from disk; a session notices another process's runs by the
store's change counter and replays their rows, and a code map that changed shape by
the store's code stamp (:data:`CODE_STAMP`). The graph snapshot on disk is rewritten
only when the journal behind it grows long (:data:`JOURNAL_MAX`), or when the code
map changed shape (a watching session: :data:`~rubi.sync.snapshots.SNAPSHOT_DELAY_S`
after the last such change). The live graph and its snapshot are
:mod:`rubi.sync.sessiongraph`; the code a session keeps between runs,
:mod:`rubi.sync.codememory`.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from rubi.core.errors import IndexCorruptError
from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths, ensure_private_dir
from rubi.core.rwlock import ReadWriteLock
from rubi.sync.codememory import CodeMemory
from rubi.sync.manifest import (
    NOTES_BODY_KEPT,
    IndexReport,
    VaultState,
    state_from_store,
    state_meta,
)
from rubi.sync.notes import ChangedNotes, deleted_ids, store_copy
from rubi.sync.plan import Plan, plan_changes, plan_from_changes
from rubi.sync.progress import Progress, stage
from rubi.sync.sessiongraph import CODE_STAMP, JOURNAL_MAX, SessionGraph
from rubi.sync.store import Stamp, Store, open_store, quiet_stamp
from rubi.sync.streamed import StreamedNotes
from rubi.vault.scan import scan_vault

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.graph.build import GraphBuild
    from rubi.graph.live import LiveGraph
    from rubi.index.store import SearchIndex
    from rubi.semantic.sync import VectorSink

__all__ = ["CODE_STAMP", "JOURNAL_MAX", "LOCK_TIMEOUT_S", "SyncSession"]

log = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 120.0
"""How long an index run waits for another one (another session, the watcher)."""


class SyncSession:
    """The derived data of one vault, kept current (see the module docstring).

    Thread-safe: runs and reads take one lock. Readers get the graph and notes as of
    the last committed run (this process's or another's). The live graph is changed
    in place by a run (and by a read that catches up with another process's runs), so
    a reader in a thread of its own reads it inside :meth:`reading`, which holds
    those changes off; a change waits for the readers of the moment, and readers that
    come meanwhile wait for it.
    """

    def __init__(self, paths: VaultPaths) -> None:
        self.paths = paths
        self._lock = threading.RLock()
        self._graph_lock = ReadWriteLock()
        """Shared by the readers of the live graph (:meth:`reading`), taken alone for
        each change made to it in place (:class:`~rubi.sync.sessiongraph.SessionGraph`:
        a save's or another process's journal applied, code nodes moved), always
        inside ``_lock`` (lock order: ``_lock``, then this; so a reader must not ask
        for ``_lock`` while it reads). A snapshot written or a graph built afresh only
        reads or replaces the graph: readers go on meanwhile."""
        self._leased = threading.local()
        """The build a thread reads inside :meth:`reading` (a nested read gets it)."""
        self._state: VaultState | None = None
        self._notes: dict[str, Note] | None = None
        self._notes_gen = -1
        self._code = CodeMemory(paths, self._lock)
        self._graphs = SessionGraph(
            paths.graph_file, self.code_map, self._all_notes, self._graph_lock.writing
        )
        self._quiet: Stamp | None = None
        """The store's :func:`~rubi.sync.store.quiet_stamp` when :meth:`graph` last
        read it."""
        self._pages_indexed = False
        """The map pages the current run wrote were indexed by that run itself."""
        self.watched = False
        """A watcher in this process applies every change as it happens (set by
        :func:`rubi.watch.watch`): a refreshing read need not scan the vault."""

    # -- reading -------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[GraphBuild]:
        """The graph as of the last committed run, unchanged for the block: a run in
        another thread changes the live graph only once the block has ended, so the
        block reads one version of it (nodes, links, attributes, name tables, link
        problems) however long it iterates. A nested block in the same thread gets
        the same build.

        Inside the block, ask for nothing that takes the session's lock (a run, the
        code map, the notes): a run holding it may be waiting for this block to end.
        Get them before the block. Hold it for reads, not for file or network I/O
        that can take long (a waiting run holds back every new reader).

        Raises:
            IndexCorruptError: nothing indexed yet, or the store is unreadable.
        """
        held: GraphBuild | None = getattr(self._leased, "build", None)
        if held is not None:
            yield held
            return
        build = self.graph()
        with self._graph_lock.reading():
            # A run may have replaced the graph (a full build, a snapshot read back)
            # between the two lines above: the one it replaced is changed by no one
            # any more, and the next block gets the new one.
            self._leased.build = build
            try:
                yield build
            finally:
                self._leased.build = None

    def graph(self) -> GraphBuild:
        """The graph as of the last committed run, to read while no other thread
        runs this session (a thread of its own reads in :meth:`reading`).

        Raises:
            IndexCorruptError: nothing indexed yet, or the store is unreadable.
            RuntimeError: called inside :meth:`reading` of this session when the graph
                must catch up with another process's run (use the block's build).
        """
        with self._lock:
            # Taken before the store is read: a commit in between changes it, so the
            # next call reads the store again.
            stamp = quiet_stamp(self.paths.store_file)
            live = self._graphs.live
            if stamp is not None and stamp == self._quiet and live is not None:
                return live.build  # nobody committed since the last read
            store = self._open(create=False)
            try:
                build = self._graph(store).build  # a catch-up waits for the readers
            finally:
                store.close()
            self._quiet = stamp
            return build

    def notes(self) -> dict[str, Note]:
        """The parsed notes (bodies cut to :data:`NOTES_BODY_KEPT`) by id, as of the
        last committed run; the caller gets its own dict.

        Raises:
            IndexCorruptError: nothing indexed yet, or the store is unreadable.
        """
        self._not_reading("the notes")
        with self._lock:
            store = self._open(create=False)
            try:
                return dict(self._all_notes(store))
            finally:
                store.close()

    def code_map(self) -> CodeMap | None:
        """The project's code map as of the last run that mapped it (None for a plain
        vault or before the first index); read again only when its file changed.

        Raises:
            RuntimeError: called inside :meth:`reading` (get it before the block)."""
        self._not_reading("the code map")
        return self._code.code_map()

    def _not_reading(self, what: str) -> None:
        """Refuse what takes the session's lock inside :meth:`reading`: a run holding
        the lock may be waiting for that block to end, and would wait forever."""
        if self._graph_lock.reading_here():
            raise RuntimeError(f"{what} asked for while the graph is read; ask before it")

    def _open(self, *, create: bool) -> Store:
        try:
            store = open_store(self.paths.store_file, create=create)
        except sqlite3.Error as exc:
            raise IndexCorruptError(
                f"{self.paths.store_file}: unreadable ({exc}); run `rubi index --full`"
            ) from exc
        if store is None:
            raise IndexCorruptError(f"{self.paths.store_file}: no index yet; run `rubi index`")
        return store

    def _all_notes(self, store: Store) -> dict[str, Note]:
        gen, base = store.gen(), int(store.meta_value("base_gen", 0))
        if self._notes is None or base > self._notes_gen:
            self._notes = store.notes()
        elif gen != self._notes_gen:
            written, removed = store.changes_since(self._notes_gen)
            for note_id in removed:
                self._notes.pop(note_id, None)
            self._notes.update(written)
        self._notes_gen = gen
        return self._notes

    def _graph(
        self, store: Store, previous_map: CodeMap | None = None, *, reader: bool = True
    ) -> LiveGraph:
        """The live graph, caught up with ``store`` (:meth:`SessionGraph.get`)."""
        return self._graphs.get(store, previous_map, reader=reader, watched=self.watched)

    # -- running -------------------------------------------------------------------
    def run(
        self,
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
        """Bring the derived data in line with the files (see :func:`rubi.sync.index_vault`
        for the arguments)."""
        self._not_reading("an index run")
        started = time.perf_counter()
        ensure_private_dir(self.paths.index_dir)
        lock = FileLock(str(self.paths.lock_file), timeout=lock_timeout_s)
        try:
            lock.acquire(timeout=min(0.2, lock_timeout_s))
        except Timeout:
            if on_wait:
                on_wait()
            lock.acquire()
        try:
            with self._lock:
                self._pages_indexed = False
                report = self._run_locked(full, progress, verify, code, changed_paths, changed_code)
                if report.pages_written and not self._pages_indexed:
                    # index the pages just written (they are notes too); they are not
                    # rendered again (pages list no generated page: the same text)
                    again = self._run_locked(
                        False, None, False, False, report.pages_written, pages=False
                    )
                    report.warnings.extend(w for w in again.warnings if w not in report.warnings)
        finally:
            lock.release()
        report.seconds = time.perf_counter() - started
        return report

    def _store_for_run(self) -> Store:
        try:
            return self._open(create=True)
        except IndexCorruptError as exc:
            log.warning("%s: starting the index afresh", exc)
            for suffix in ("", "-wal", "-shm"):
                self.paths.store_file.with_name(self.paths.store_file.name + suffix).unlink(
                    missing_ok=True
                )
            self._state = self._notes = None
            self._graphs.drop()
            return self._open(create=True)

    def _run_locked(
        self,
        full: bool,
        progress: Progress | None,
        verify: bool,
        code: bool,
        changed_paths: Collection[str] | None,
        changed_code: Collection[str] | None = None,
        *,
        pages: bool = True,
    ) -> IndexReport:
        # Whoosh is imported here, markdown parsing and the graph only when something
        # changed: the hooks' "nothing changed" run pays for a scan, not for libraries.
        from rubi.index.store import SearchIndex

        store = self._store_for_run()
        try:
            index = SearchIndex(self.paths.whoosh_dir)
            index.sweep()  # build folders and temp files a killed run left
            old = None if full else self._current_state(store)
            if old is None or not index.exists() or (verify and not _consistent(index, old)):
                full, old = True, VaultState(gen=old.gen if old else store.gen())
            report = IndexReport(full=full)
            if verify and not full:  # `rubi index`, `rubi health`: surfaces that show warnings
                advice = index.compaction_advice()
                index.close()
                if advice:
                    report.warnings.append(ScanWarning(str(self.paths.whoosh_dir), advice))
            planned = None
            if changed_paths is not None and not full:
                planned = plan_from_changes(self.paths.root, old, changed_paths)
            if planned is None:
                listing = scan_vault(self.paths.root, self.paths.project_root)
                report.warnings.extend(listing.warnings)
                planned = plan_changes(old, listing), listing.attachments
            plan, attachments = planned
            # A full build starts the index afresh: without the code map it would drop
            # every code file.
            self._apply(
                store,
                index,
                old,
                plan,
                attachments,
                report,
                full,
                code or full,
                progress,
                changed_code,
                pages=pages,
            )
        finally:
            store.rollback()  # a streamed build's rows, when it failed before its commit
            store.close()
        return report

    def _current_state(self, store: Store) -> VaultState | None:
        if self._state is not None and self._state.gen == store.gen():
            return self._state
        self._state = state_from_store(store)
        return self._state

    def _apply(  # one apply step: each branch is one kind of derived data
        self,
        store: Store,
        index: SearchIndex,
        old: VaultState,
        plan: Plan,
        attachments: list[str],
        report: IndexReport,
        full: bool,
        code: bool,
        progress: Progress | None,
        changed_code: Collection[str] | None = None,
        *,
        pages: bool = True,
    ) -> None:
        paths = self.paths
        new = VaultState(files=dict(plan.kept), attachments=attachments, gen=old.gen)
        report.unchanged = len(plan.kept)
        if plan.scanned:  # a watcher's batch reports on its own files only
            kept_problems = [(p, e.problem) for p, e in plan.kept.items() if e.problem]
            report.warnings.extend(ScanWarning(p, m) for p, m in sorted(kept_problems))
        touched = {s.path for s in plan.to_read}.union(plan.removed_paths)
        reading = ChangedNotes(paths, old, new, report)
        changed = reading.changed
        vectors = _vector_sink(paths, full)  # hook: embeds what Whoosh is given
        streamed: StreamedNotes | None = None
        if full and paths.project_root is None:
            # A full build of a plain vault streams: each note is read, parsed, handed
            # to Whoosh and written to the store (in a transaction the manifest's
            # commit closes) before the next, and only its graph record is kept, so
            # memory does not grow with the vault's notes.
            from rubi.index.documents import note_document

            store.begin()
            store.clear()
            streamed = StreamedNotes(store, old.gen + 1)
            indexing = stage(progress, "Indexing notes")
            notes = reading.notes(plan.to_read, indexing, sink=streamed.add)
            index.rebuild(vectors.feed(note_document(n) for n in notes))
            index.close()
            streamed.flush()
        else:
            for _ in reading.notes(plan.to_read, stage(progress, "Reading notes")):
                pass
        relink = reading.relink
        deletes = deleted_ids(old, new, touched, full)
        report.deleted = len(deletes)
        # the map the graph was last given, for moving its code nodes to the new one
        # (what _map_code starts from anyway: no extra read)
        mapping = code and not full and paths.project_root is not None
        previous_map = self.code_map() if mapping else None
        code_run = self._code.map_code(old, new, report, full, code, progress, changed_code)
        code_map, code_docs, code_deletes = code_run.code_map, code_run.docs, code_run.deletes
        pages_before = full and code_map is not None and paths.project_root is not None
        if pages_before:
            assert code_map is not None
            from rubi.sync.pages import pages_first  # the code map: only when mapping

            pages_first(paths, code_map, changed, new, report)
        folded = pages and streamed is None and not full
        if folded and code_map is not None and not code_map.stats.reused_shape:
            deletes = self._pages_in_run(store, code_map, old, new, reading, touched, deletes)
            relink = reading.relink
            self._pages_indexed = pages_before = True
        attachments_changed = new.attachments != old.attachments
        code_changed = bool(code_docs or code_deletes)
        # A code edit that kept every changed file's shape changes the text index only:
        # the graph's code nodes and the map pages are made of what the map kept.
        # (A map built again with no code file changed, as after a manifest edit, also
        # changed shape.)
        reshaped = code_map is not None and not code_map.stats.reused_shape
        graph_changed = bool(relink or deletes or attachments_changed or reshaped or full)
        if not (full or report.changed or code_changed or attachments_changed or reshaped):
            if new.files != old.files or new.code_fingerprint != old.code_fingerprint:
                # touched but identical files: remember their new mtimes
                new.indexed_at = old.indexed_at
                self._commit(store, old, new, {}, [], full=False, touched=touched)
            return

        from rubi.index.documents import note_document

        # Code documents are made as the index reads them (vectors are for notes only).
        note_docs = [] if streamed is not None else [note_document(n) for n in changed.values()]
        to_write = code_docs.joined(list(vectors.feed(note_docs)))
        indexing = stage(progress, "Indexing text")
        if full and streamed is None:
            index.rebuild(to_write, progress=indexing)
        elif to_write or deletes or code_deletes:
            index.apply(to_write, [*deletes, *code_deletes], progress=indexing)
        index.close()
        new.indexed_at = time.time()
        new.gen = old.gen + 1
        self._commit(
            store,
            old,
            new,
            changed,
            deletes,
            full=full,
            touched=touched,
            cleared=bool(streamed),
            reshaped=reshaped,
        )
        vectors.commit([*deletes, *code_deletes])  # hook: after the run's own rows
        del vectors
        if not graph_changed:
            return  # bodies changed, nothing the graph sees: the text index only
        records = streamed.records if streamed is not None else None
        del streamed
        self._graphs.update(  # its change waits for the readers, who see before or after
            store,
            new,
            changed,
            code_map,
            full,
            records=records,
            previous_map=previous_map,
            reshaped=reshaped,
            later=self.flush_snapshot if self.watched else None,
        )
        report.graph_rebuilt = full
        if code_map is None and new.code:
            code_map = self.code_map()
        if code_map is not None and paths.project_root is not None and pages and not pages_before:
            from rubi.sync.pages import write_pages

            write_pages(paths, code_map, self._all_notes(store), report)

    def _pages_in_run(
        self,
        store: Store,
        code_map: CodeMap,
        old: VaultState,
        new: VaultState,
        reading: ChangedNotes,
        touched: set[str],
        deletes: list[str],
    ) -> list[str]:
        """The pages of a reshaped map written now and read with the run's notes, as
        a full build does (:func:`rubi.sync.pages.pages_in_run`): no second run for
        them (its Whoosh and store commits and graph update). Returns the run's
        deleted note ids with the pages removed."""
        if self.paths.project_root is None:
            return deletes
        from rubi.sync.pages import pages_in_run

        rendered_from = dict(self._all_notes(store))  # as of the last commit
        for note_id in deletes:
            rendered_from.pop(note_id, None)
        rendered_from.update(reading.changed)
        pages_in_run(self.paths, code_map, rendered_from, reading, touched)
        return deleted_ids(old, new, touched, False)

    def remember_code(self) -> bool:
        """Make the code map's memory (:func:`rubi.codemap.incremental.memory_of`) when
        this session holds the listing of its last code run and no memory, so that its
        first shape-changing edit re-resolves only what it can reach instead of
        building the map in full. For a long-lived process, after its first run, in a
        background thread: the session's lock is held only to read what the run left
        and to keep the result, never while the memory is made (about 1.5 s of CPU
        and 70 MiB held for a 10,000-file repository), and no index lock is taken. A
        run that ends in the meantime leaves its own memory or a newer map: the one
        made here is then dropped.

        Returns:
            True when the session holds a memory afterwards (tried
            :data:`~rubi.sync.codememory.REMEMBER_TRIES` times while runs replace
            the map). Never raises (logged).
        """
        return self._code.remember(self._warm_graph)

    def _warm_graph(self, code_map: CodeMap) -> None:
        """Load the live graph (what the first run that changes it would load) and have
        it recognize ``code_map`` as the map its code nodes were made of (the digest is
        taken outside the lock), so the first shape-changing edit only moves them."""
        from rubi.graph.codediff import shape_digest

        digest = shape_digest(code_map)
        with self._lock:
            try:
                store = self._open(create=False)
            except IndexCorruptError:
                return
            try:
                live = self._graph(store)
                if self._code.is_current(code_map):
                    live.recognize_code_map(code_map, digest)
            finally:
                store.close()

    @property
    def code_memory_held(self) -> bool:
        """This session holds the code map's memory (:meth:`remember_code`)."""
        return self._code.held

    def _commit(
        self,
        store: Store,
        old: VaultState,
        new: VaultState,
        changed: dict[str, Note],
        deletes: list[str],
        *,
        full: bool,
        touched: Collection[str] = (),
        cleared: bool = False,
        reshaped: bool = False,
    ) -> None:
        """Write the run's rows in one transaction (``touched``: the note paths the run
        read or found gone; ``cleared``: a streamed full build cleared the store and
        wrote its notes in the transaction this commits; ``reshaped``: the code map
        changed shape, :data:`CODE_STAMP`); the manifest is saved last, so an
        interrupted run is redone."""
        with store.transaction():
            if full and not cleared:
                store.clear()
            # Only the paths this run read or lost can differ from the old manifest.
            paths = new.files.keys() if full else touched
            rows = [
                (p, e.mtime_ns, e.size, e.sha256, e.note_id, e.problem, e.signature)
                for p in paths
                if (e := new.files.get(p)) is not None and (full or old.files.get(p) != e)
            ]
            store.put_files(rows)
            if not full:
                store.drop_files([p for p in touched if p in old.files and p not in new.files])
            store.put_notes(changed.values(), new.gen, NOTES_BODY_KEPT)
            store.drop_notes(deletes, new.gen)
            meta: dict[str, object] = dict(state_meta(new))
            if full:
                meta["base_gen"] = new.gen
            if full or reshaped:
                meta[CODE_STAMP] = new.gen
            store.set_meta(meta)
        self._state = new
        if full:
            self._notes = None
            self._graphs.drop()
        elif self._notes is not None and self._notes_gen == old.gen:
            for note_id in deletes:
                self._notes.pop(note_id, None)
            for note in changed.values():
                self._notes[note.id] = store_copy(note)
            self._notes_gen = new.gen

    def flush_snapshot(self) -> None:
        """Write the graph snapshot now when the graph is ahead of it (a pending
        deferred write, :meth:`rubi.sync.snapshots.Snapshots.later`). Never raises for
        a write that fails (logged): the next reader moves the code nodes itself."""
        with self._lock:
            self._graphs.flush()


# -- hook: derived data kept beside the index ------------------------------------------
def _vector_sink(paths: VaultPaths, full: bool) -> VectorSink:
    """The semantic vectors of one run (:class:`rubi.semantic.sync.VectorSink`): the
    documents given to Whoosh pass through its ``feed``, and its ``commit`` follows the
    run's own commit. A no-op without the ``semantic`` extra; never raises for its own
    failures."""
    from rubi.semantic.sync import VectorSink

    return VectorSink(paths.index_dir, full=full)


def _consistent(index: SearchIndex, state: VaultState) -> bool:
    """True when the Whoosh index holds as many notes as the manifest says."""
    try:
        count = index.doc_count()
    except IndexCorruptError as exc:
        log.warning("%s", exc)
        return False
    finally:
        index.close()
    expected = sum(1 for e in state.files.values() if e.note_id is not None) + len(state.code)
    if count != expected:
        log.warning("index holds %d notes, manifest %d: rebuilding", count, expected)
    return count == expected
