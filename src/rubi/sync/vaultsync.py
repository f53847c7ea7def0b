"""A vault sync: the owned object that keeps a vault's manifest, parsed notes and
live graph, and brings them in line with the files as plan → steps.

One code path for ``rubi index``, first-use indexing, hooks, the MCP server and the
watcher. A run takes the index lock, **plans** once (:mod:`rubi.sync.plan`: the run's
kind as one frozen :class:`~rubi.sync.plan.RunPlan`, and what differs on disk: the
vault's listing, or the paths a watcher reported, against the manifest) and takes its
**steps** in order, each once (:mod:`rubi.sync.steps`): changed notes are read and
parsed, the map pages written and read with them when they change, Whoosh gets one
commit, the store (:mod:`rubi.sync.rows`) the changed rows in one transaction, and
the live graph (:class:`rubi.graph.live.LiveGraph`) the changed notes. The work is the
change's, not the vault's: nothing whole-vault is rewritten on a save.

A long-lived process (``rubi serve``, ``rubi watch``) keeps its vault sync between runs,
so it reads nothing back from disk; a vault sync notices another process's runs by the
store's change counter and replays their rows, and a code map that changed shape by
the store's code stamp (:data:`CODE_STAMP`). The graph snapshot on disk is rewritten
only when the journal behind it grows long (:data:`JOURNAL_MAX`), or when the code
map changed shape (a watching vault sync: :data:`~rubi.sync.snapshots.SNAPSHOT_DELAY_S`
after the last such change). The live graph and its snapshot are
:mod:`rubi.sync.livegraph`; the code a vault sync keeps between runs,
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

from rubi.core.errors import IndexCorruptError, RubiError
from rubi.core.filestamp import Stamp
from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths, ensure_private_dir
from rubi.sync.codememory import CodeMemory
from rubi.sync.livegraph import CODE_STAMP, JOURNAL_MAX, GraphKeeper
from rubi.sync.manifest import IndexReport, VaultState, state_from_store
from rubi.sync.notes import NoteCache
from rubi.sync.plan import Plan, plan_changes, plan_from_changes, plan_run, reread_marked
from rubi.sync.progress import Progress
from rubi.sync.reparse import marked
from rubi.sync.rows import Store, open_store, quiet_stamp
from rubi.sync.rwlock import ReadWriteLock
from rubi.sync.steps import SyncRun, commit_rows
from rubi.vault.scan import scan_vault

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.graph.build import GraphBuild
    from rubi.graph.live import LiveGraph
    from rubi.index.searchindex import SearchIndex
    from rubi.sync.livegraph import PreviousMap

__all__ = ["CODE_STAMP", "JOURNAL_MAX", "LOCK_TIMEOUT_S", "VaultSync"]

log = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 120.0
"""How long an index run waits for another one (another process, the watcher)."""


class VaultSync:
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
        each change made to it in place (:class:`~rubi.sync.livegraph.GraphKeeper`:
        a save's or another process's journal applied, code nodes moved), always
        inside ``_lock`` (lock order: ``_lock``, then this; so a reader must not ask
        for ``_lock`` while it reads). A snapshot written or a graph built afresh only
        reads or replaces the graph: readers go on meanwhile."""
        self._leased = threading.local()
        """The build a thread reads inside :meth:`reading` (a nested read gets it)."""
        self._state: VaultState | None = None
        self._notes = NoteCache()
        self._code = CodeMemory(paths, self._lock)
        self._graphs = GraphKeeper(
            paths.graph_file, self._code, self._notes, self._lock, self._graph_lock.writing
        )
        self._quiet: Stamp | None = None
        """The store's :func:`~rubi.sync.rows.quiet_stamp` when :meth:`graph` read it."""
        self.watched = False
        """A watcher in this process applies every change as it happens: a refreshing
        read need not scan the vault. Set by :func:`rubi.watch.watch` only while its
        event source listens (from its subscription to its failure or stop; cleared
        in a ``finally``). It holds for every reader of this vault in the process (the
        MCP server's and the engine's searches beside ``rubi serve``'s watcher), which
        is right: they share this vault sync, whose index the watcher keeps current
        within its debounce. A read in the debounce window may miss a save that much
        younger; a read with no listening watcher scans as usual."""

    # -- reading -------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[GraphBuild]:
        """The graph as of the last committed run, unchanged for the block: a run in
        another thread changes the live graph only once the block has ended, so the
        block reads one version of it (nodes, links, attributes, name tables, link
        problems) however long it iterates. A nested block in the same thread gets
        the same build.

        Inside the block, ask for nothing that takes the vault sync's lock (a run, the
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
        runs this vault sync (a thread of its own reads in :meth:`reading`).

        Raises:
            IndexCorruptError: nothing indexed yet, or the store is unreadable.
            RuntimeError: called inside :meth:`reading` of this vault sync when the graph
                must catch up with another process's run (use the block's build).
        """
        with self._lock:
            # Taken before the store is read: a commit in between changes it, so the
            # next call reads the store again.
            stamp = quiet_stamp(self.paths.store_file)
            held = self._graphs.held()
            if stamp is not None and stamp == self._quiet and held is not None:
                return held  # nobody committed since the last read
            store = self._open(create=False)
            try:
                # a catch-up waits for the readers
                build = self._graphs.read(store, watched=self.watched)
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
                return dict(self._notes.notes(store))
            finally:
                store.close()

    @property
    def code_memory_held(self) -> bool:
        """This vault sync holds the code map's memory (:meth:`remember_code`, or a
        run that built or reshaped the map): its next shape edit reshapes in memory."""
        return self._code.held

    def code_map(self) -> CodeMap | None:
        """The project's code map as of the last run that mapped it (None for a plain
        vault or before the first index); read again only when its file changed.

        Raises:
            RuntimeError: called inside :meth:`reading` (get it before the block)."""
        self._not_reading("the code map")
        return self._code.code_map()

    def holds_code_map(self, key: object) -> bool:
        """The code map of ``key`` (:func:`rubi.sync.codestore.code_map_key`) is kept in
        memory: :meth:`code_map` reads nothing for it."""
        return self._code.holds_map(key)

    def _not_reading(self, what: str) -> None:
        """Refuse what takes the vault sync's lock inside :meth:`reading`: a run holding
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

    def _graph(
        self, store: Store, previous_map: CodeMap | None = None, *, reader: bool = True
    ) -> LiveGraph:
        """The live graph, caught up with ``store`` (:meth:`GraphKeeper.get`)."""
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
        from filelock import FileLock, Timeout  # a reader never takes it (secrets, hashlib)

        self._not_reading("an index run")
        started = time.perf_counter()
        lock = FileLock(str(self.paths.lock_file), timeout=lock_timeout_s)
        try:
            ensure_private_dir(self.paths.index_dir)
            lock.acquire(timeout=min(0.2, lock_timeout_s))
        except Timeout:
            if on_wait:
                on_wait()
            lock.acquire()
        except PermissionError as exc:
            raise RubiError(
                f"{exc.filename or self.paths.index_dir}: cannot write rubi's index there "
                "(read-only); make the folder writable, or set XDG_CACHE_HOME to a "
                "writable folder"
            ) from exc
        try:
            with self._lock:
                report = self._run_locked(full, progress, verify, code, changed_paths, changed_code)
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
            self._state = None
            self._notes.drop()
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
    ) -> IndexReport:
        """One run under both locks: plan it (:mod:`rubi.sync.plan`), then take its
        steps (:meth:`_take_steps`)."""
        # Whoosh is imported here, markdown parsing and the graph only when something
        # changed: the hooks' "nothing changed" run pays for a scan, not for libraries.
        from rubi.index.searchindex import SearchIndex

        store = self._store_for_run()
        try:
            index = SearchIndex(self.paths.whoosh_dir)
            index.sweep()  # build folders and temp files a killed run left
            old, full = self._starting_state(store, index, full, verify)
            report = IndexReport(full=full)
            if verify and not full:  # `rubi index`, `rubi health`: surfaces that show warnings
                advice = index.compaction_advice()
                index.close()
                if advice:
                    report.warnings.append(ScanWarning(str(self.paths.whoosh_dir), advice))
            changes, attachments = self._changes(old, full, changed_paths, report)
            plan = plan_run(
                full=full,
                code=code,
                verify=verify,
                project=self.paths.project_root is not None,
                watched=not changes.scanned,
            )
            run = SyncRun(
                self.paths, plan, store, index, old, changes, attachments, report, progress
            )
            self._take_steps(run, changed_code)
        finally:
            store.rollback()  # a streamed build's rows, when it failed before its commit
            store.close()
        return report

    def _starting_state(
        self, store: Store, index: SearchIndex, full: bool, verify: bool
    ) -> tuple[VaultState, bool]:
        """The manifest a run starts from, and whether it builds afresh: asked, nothing
        indexed, or (``verify``) Whoosh disagreeing with the manifest."""
        old = None if full else self._current_state(store)
        if old is None or not index.exists() or (verify and not _consistent(index, old)):
            return VaultState(gen=old.gen if old else store.gen()), True
        return old, full

    def _changes(
        self,
        old: VaultState,
        full: bool,
        changed_paths: Collection[str] | None,
        report: IndexReport,
    ) -> tuple[Plan, list[str]]:
        """What differs on disk, and the vault's attachments: from a watcher's paths
        when it gave them and they suffice, else from a listing of the vault."""
        planned = None
        if changed_paths is not None and not full:
            planned = plan_from_changes(self.paths.root, old, changed_paths)
        if planned is None:
            listed_ns = time.time_ns()  # before the first stat: see rubi.sync.manifest.racy
            listing = scan_vault(self.paths.root, self.paths.project_root)
            report.warnings.extend(listing.warnings)
            planned = plan_changes(old, listing, listed_ns), listing.attachments
        if not full and self._graphs.snapshots.reparse_file.exists():
            reread_marked(planned[0], marked(self._graphs.snapshots.reparse_file), old)
        return planned

    def _current_state(self, store: Store) -> VaultState | None:
        if self._state is not None and self._state.gen == store.gen():
            return self._state
        self._state = state_from_store(store)
        return self._state

    def _take_steps(self, run: SyncRun, changed_code: Collection[str] | None) -> None:
        """The run's steps in order (:mod:`rubi.sync.steps`); each is taken once."""
        plan = run.plan
        run.read_notes()
        run.find_deletes()
        code_run = self._code.map_code(
            run.old, run.new, run.report, plan.full, plan.code, run.progress, changed_code
        )
        # the map the graph was last given, to move its code nodes to the new one: what
        # the code run started from when the code changed (no extra read), else the map
        # kept, read only if the graph turns out to need it (a run that finds nothing
        # changed reads no map)
        previous_map: PreviousMap = None
        if plan.moves_code_nodes:
            changed = code_run.code_map is not None
            previous_map = code_run.previous if changed else self._code.code_map
        run.take_code(code_run, previous_map)
        pages_map = self._pages_map(run) if run.wants_pages else None
        if pages_map is not None:
            run.write_pages(pages_map, self._notes.notes(run.store))
        if not run.changed_anything:
            if run.keep_times():  # touched but identical files: remember their times
                commit_rows(run.store, run.old, run.new, {}, [], full=False, touched=run.touched)
                self._committed(run.old, run.new, {}, [], full=False)
            return
        run.index_text()
        run.commit_rows()
        self._committed(run.old, run.new, run.changed, run.deletes, full=plan.full)
        run.commit_vectors()
        if not run.graph_changed:
            # bodies changed, nothing the graph sees: the text index only (and the flat
            # graph marked as of the new generation)
            self._graphs.unchanged(run.old.gen, run.new.gen)
            run.commit_prints()  # last: a save is searchable without waiting for it
            return
        self._graphs.update(  # its change waits for the readers, who see before or after
            run.store,
            run.new,
            run.changed,
            run.code_map,
            plan.full,
            records=run.graph_records(),
            previous_map=run.previous_map,
            reshaped=run.regraphed,
            watched=self.watched,
        )
        run.report.graph_rebuilt = plan.full
        run.commit_prints()

    def _pages_map(self, run: SyncRun) -> CodeMap | None:
        """The code map a run's pages are rendered from: the run's, else the one kept
        (when the manifest has code)."""
        if run.code_map is not None:
            return run.code_map
        return self._code.code_map() if run.new.code else None

    def _committed(
        self,
        old: VaultState,
        new: VaultState,
        changed: dict[str, Note],
        deletes: list[str],
        *,
        full: bool,
    ) -> None:
        """Follow a commit of this vault sync's in what it keeps (manifest, notes, graph)."""
        self._state = new
        if full:
            self._notes.drop()
            self._graphs.drop()
        else:
            self._notes.committed(old.gen, new.gen, changed, deletes)

    def remember_code(self) -> bool:
        """Make the code map's memory (:func:`rubi.codemap.incremental.memory_of`) when
        this vault sync holds the listing of its last code run and no memory, so that its
        first shape-changing edit re-resolves only what it can reach instead of
        building the map in full. For a long-lived process, after its first run, in a
        background thread: the vault sync's lock is held only to read what the run left
        and to keep the result, never while the memory is made (about 1.5 s of CPU
        and 70 MiB held for a 10,000-file repository), and no index lock is taken. A
        run that ends in the meantime leaves its own memory or a newer map: the one
        made here is then dropped.

        Returns:
            True when the vault sync holds a memory afterwards (tried
            :data:`~rubi.sync.codememory.REMEMBER_TRIES` times while runs replace
            the map). Never raises (logged).
        """
        held, made = self._code.remember()
        if made is not None:
            try:
                self._warm_graph(made)
            except Exception:  # an optimisation: the first run loads the graph instead
                log.warning("graph not loaded ahead", exc_info=True)
        return held

    def _warm_graph(self, code_map: CodeMap) -> None:
        """Load the live graph (what the first run that changes it would load) and have
        it recognize ``code_map`` as the map its code nodes were made of, so the first
        shape-changing edit only moves them."""
        with self._lock:
            try:
                store = self._open(create=False)
            except IndexCorruptError:
                return
            try:
                live = self._graph(store)
                if self._code.is_current(code_map):
                    live.recognize_code_map(code_map)
            finally:
                store.close()

    def holds_live_graph(self) -> bool:
        """Whether the live graph is loaded here (a run or a reader loaded it)."""
        return self._graphs.live is not None

    def keep_flat(self) -> None:
        """Write the flat graph when this process's graph is ahead of it
        (:meth:`rubi.sync.livegraph.GraphKeeper.keep_flat`): for a run a long-lived
        process makes once, not for every save its watcher applies."""
        with self._lock:
            self._graphs.keep_flat()

    def flush_snapshot(self) -> None:
        """Write the graph snapshot now when the graph is ahead of it (a pending
        deferred write, :meth:`rubi.sync.snapshots.Snapshots.later`). Never raises for
        a write that fails (logged): the next reader moves the code nodes itself."""
        self._graphs.flush_locked()


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
