"""The steps of one sync run, in the order :meth:`rubi.sync.vaultsync.VaultSync.run`
takes them, over the state they pass on (:class:`SyncRun`):

1. :meth:`SyncRun.read_notes`: read and parse the changed notes (a streamed build
   also indexes and stores each as it goes);
2. :meth:`SyncRun.find_deletes`: the note ids gone;
3. :meth:`SyncRun.take_code`: what the code side of the run made (the vault sync's
   :class:`~rubi.sync.codememory.CodeMemory` maps the code);
4. :meth:`SyncRun.write_pages`: the map pages, written before indexing and read with
   the run's notes (a full build of a project; an incremental run whose code map
   changed shape or whose notes changed the graph);
5. :meth:`SyncRun.index_text`: one Whoosh commit (skipped when :attr:`SyncRun.changed`
   is False: only the manifest's times are kept, :meth:`SyncRun.keep_times`);
6. :func:`commit_rows`: the store's rows in one transaction, the manifest last; then
   the semantic vectors (:meth:`SyncRun.commit_vectors`);
7. the live graph, when :attr:`SyncRun.graph_changed` (the vault sync's
   :class:`~rubi.sync.livegraph.GraphKeeper`);
8. :meth:`SyncRun.commit_prints`: the notes' near-duplicate fingerprints
   (:mod:`rubi.search.printstore`), last: nothing waits for them.

Each step reads what the steps before it left and the frozen
:class:`~rubi.sync.plan.RunPlan`; none calls back into the vault sync.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths
from rubi.sync.code import CodeRun
from rubi.sync.livegraph import CODE_STAMP
from rubi.sync.manifest import NOTES_BODY_KEPT, IndexReport, VaultState, racy, state_meta
from rubi.sync.notes import ChangedNotes, deleted_ids
from rubi.sync.plan import Plan, RunPlan
from rubi.sync.progress import Progress, stage
from rubi.sync.rows import CODE_SHAPE, Store
from rubi.sync.streamed import StreamedNotes

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.graph.live import GraphRecord
    from rubi.index.searchindex import SearchIndex
    from rubi.semantic.sync import VectorSink
    from rubi.sync.livegraph import PreviousMap

__all__ = ["SyncRun", "commit_rows"]


_UNREAD = object()
"""A value not read yet."""


class SyncRun:
    """The state one run's steps pass on (see the module docstring).

    Args:
        paths: the vault.
        plan: the run's kind.
        store: the store, open for the run.
        index: the Whoosh index (closed by each step that opens it).
        old: the manifest before the run.
        changes: what differs on disk (:mod:`rubi.sync.plan`).
        attachments: the vault's attachments after the run.
        report: filled in by the steps.
        progress: where long steps report.
    """

    def __init__(
        self,
        paths: VaultPaths,
        plan: RunPlan,
        store: Store,
        index: SearchIndex,
        old: VaultState,
        changes: Plan,
        attachments: list[str],
        report: IndexReport,
        progress: Progress | None = None,
    ) -> None:
        self.paths, self.plan, self.store, self.index = paths, plan, store, index
        self.old, self.report, self.progress = old, report, progress
        self.changes = changes
        self.new = VaultState(
            files=dict(changes.kept),
            attachments=attachments,
            gen=old.gen,
            listed_ns=old.listed_ns if changes.listed_ns is None else changes.listed_ns,
        )
        report.unchanged = len(changes.kept)
        if changes.scanned:  # a watcher's batch reports on its own files only
            kept_problems = [(p, e.problem) for p, e in changes.kept.items() if e.problem]
            report.warnings.extend(ScanWarning(p, m) for p, m in sorted(kept_problems))
        self.touched: set[str] = {s.path for s in changes.to_read}.union(changes.removed_paths)
        """Note paths the run read or found gone (the map pages it wrote join them)."""
        self.reading = ChangedNotes(paths, old, self.new, report)
        self.vectors: VectorSink | None = _vector_sink(paths, plan.full)
        """Embeds what Whoosh is given; committed after the run's own rows."""
        self.streamed: StreamedNotes | None = None
        self.deletes: list[str] = []
        self.code = CodeRun()
        self.previous_map: PreviousMap = None
        self._shape_before: object = _UNREAD
        """The store's :data:`CODE_SHAPE` before this run's commit (read on demand)."""
        """The map the graph was last given, to move its code nodes from (or what reads
        it: :data:`~rubi.sync.livegraph.PreviousMap`)."""

    @property
    def changed(self) -> dict[str, Note]:
        """The notes read this run (added or changed), by id."""
        return self.reading.changed

    @property
    def code_map(self) -> CodeMap | None:
        """The map the code side made (None: the code was not mapped this run)."""
        return self.code.code_map

    @property
    def reshaped(self) -> bool:
        """The code map changed shape: the map pages may change. A code edit that kept
        every changed file's shape changes the text index only (a map built again with
        no code file changed, as after a manifest edit, also changed shape)."""
        return self.code.code_map is not None and not self.code.code_map.stats.reused_shape

    @property
    def regraphed(self) -> bool:
        """The code map changed what the graph's code nodes are made of: they move, and
        the store's code stamp with them. Not when it changed shape without that
        (``stats.kept_graph``: an import of a name outside the project), unless the
        store's rows were committed with a map of another shape (:data:`CODE_SHAPE`: a
        run killed after it kept its map and before its rows)."""
        code_map = self.code.code_map
        if code_map is None:
            return False
        if not (code_map.stats.reused_shape or code_map.stats.kept_graph):
            return True
        # a map kept by a run killed before its rows: the graph never took it
        if self._shape_before is _UNREAD:  # read once: the run's commit rewrites it
            self._shape_before = self.store.meta_value(CODE_SHAPE)
        committed = self._shape_before
        return committed is not None and committed != code_map.shape_id

    @property
    def graph_changed(self) -> bool:
        """Something the graph holds changed (links, notes gone, attachments, the code
        map's shape), or it is built afresh."""
        return bool(
            self.reading.relink
            or self.deletes
            or self.new.attachments != self.old.attachments
            or self.regraphed
            or self.plan.full
        )

    @property
    def changed_anything(self) -> bool:
        """Whoosh, the store or the graph has something to change."""
        return bool(
            self.plan.full
            or self.report.changed
            or self.code.docs
            or self.code.deletes
            or self.new.attachments != self.old.attachments
            or self.reshaped
        )

    # -- 1 ------------------------------------------------------------------------
    def read_notes(self) -> None:
        """Read and parse the changed notes. A streamed build (a full build of a plain
        vault) reads, parses, hands to Whoosh and writes to the store each note before
        the next (in a transaction the manifest's commit closes), keeping only its
        graph record, so memory does not grow with the vault's notes."""
        to_read = self.changes.to_read
        if not self.plan.streamed:
            reading = stage(self.progress, "Reading notes")
            for _ in self.reading.notes(to_read, reading, reread=self.changes.reread):
                pass
            return
        from rubi.index.documents import note_document

        assert self.vectors is not None
        self.store.begin()
        self.store.clear()
        self.streamed = StreamedNotes(self.store, self.old.gen + 1)
        indexing = stage(self.progress, "Indexing notes")
        notes = self.reading.notes(to_read, indexing, sink=self.streamed.add)
        self.index.rebuild(self.vectors.feed(note_document(n) for n in notes))
        self.index.close()
        self.streamed.flush()

    # -- 2 ------------------------------------------------------------------------
    def find_deletes(self) -> None:
        """The note ids the run removes from Whoosh and the store."""
        self.deletes = deleted_ids(self.old, self.new, self.touched, self.plan.full)
        self.report.deleted = len(self.deletes)

    # -- 3 ------------------------------------------------------------------------
    def take_code(self, code: CodeRun, previous_map: PreviousMap) -> None:
        """What the code side made (:meth:`rubi.sync.codememory.CodeMemory.map_code`),
        and the map before it (asked for when :attr:`RunPlan.moves_code_nodes`)."""
        self.code, self.previous_map = code, previous_map

    # -- 4 ------------------------------------------------------------------------
    @property
    def wants_pages(self) -> bool:
        """The map pages are written by this run: a full build of a project, or an
        incremental run of one that changes the graph or the code map's shape."""
        return self.plan.pages_first or (
            self.plan.pages_in_run and (self.graph_changed or self.reshaped)
        )

    def write_pages(self, code_map: CodeMap, notes_before: Mapping[str, Note]) -> None:
        """Write the map pages of ``code_map`` and read those written with the run's
        notes: one Whoosh commit, one store commit, one graph update for both.

        Args:
            code_map: the run's map, or the one kept when the run made none.
            notes_before: the notes as of the last commit (an incremental run renders
                from them with the run's changes; a full build from its own notes).
        """
        from rubi.sync.pages import pages_first, pages_in_run

        if self.plan.pages_first:
            pages_first(self.paths, code_map, self.changed, self.new, self.report)
            return
        rendered_from = dict(notes_before)
        for note_id in self.deletes:
            rendered_from.pop(note_id, None)
        rendered_from.update(self.changed)
        pages_in_run(self.paths, code_map, rendered_from, self.reading, self.touched)
        self.deletes = deleted_ids(self.old, self.new, self.touched, False)

    # -- 5 ------------------------------------------------------------------------
    def keep_times(self) -> bool:
        """For a run that changes nothing: whether the manifest must still be saved
        (touched but identical files: their new times are remembered)."""
        old, new = self.old, self.new
        if (
            new.files == old.files
            and new.code_fingerprint == old.code_fingerprint
            and not self._relisted()
        ):
            return False
        new.indexed_at = old.indexed_at
        return True

    def _relisted(self) -> bool:
        """This run's listing clears what the manifest's could not: no listing time
        was recorded, or some note was racy against it (read again this run,
        :func:`~rubi.sync.manifest.racy`). Saving the new time lets the next check
        trust those notes' stats."""
        old, new = self.old, self.new
        if new.listed_ns is None or new.listed_ns == old.listed_ns:
            return False
        return old.listed_ns is None or any(
            racy(e.mtime_ns, old.listed_ns) for e in old.files.values()
        )

    def index_text(self) -> None:
        """Give Whoosh the run's documents in one commit (a full build rebuilds it; a
        streamed one did in :meth:`read_notes`). Code documents are made as the index
        reads them (vectors are for notes only)."""
        from rubi.index.documents import note_document

        assert self.vectors is not None
        code = self.code
        streamed = self.streamed is not None
        note_docs = [] if streamed else [note_document(n) for n in self.changed.values()]
        to_write = code.docs.joined(list(self.vectors.feed(note_docs)))
        indexing = stage(self.progress, "Indexing text")
        if self.plan.full and not streamed:
            self.index.rebuild(to_write, progress=indexing)
        elif to_write or self.deletes or code.deletes:
            self.index.apply(to_write, [*self.deletes, *code.deletes], progress=indexing)
        self.index.close()
        self.new.indexed_at = time.time()
        self.new.gen = self.old.gen + 1

    # -- 6 ------------------------------------------------------------------------
    def commit_rows(self) -> None:
        """The run's rows (:func:`commit_rows`)."""
        commit_rows(
            self.store,
            self.old,
            self.new,
            self.changed,
            self.deletes,
            full=self.plan.full,
            touched=self.touched,
            cleared=self.streamed is not None,
            reshaped=self.regraphed,
            code_shape=None if self.code_map is None else self.code_map.shape_id,
        )

    def commit_prints(self) -> None:
        """The near-duplicate fingerprints of the run's notes, after its rows
        (:func:`rubi.search.printstore.record_prints`: the notes read, or every note
        for a full build or a store to make anew)."""
        from rubi.search.printwriter import record_prints

        files = self.new.files
        changed = sorted(p for p in self.touched if p in files and files[p].note_id)
        gone = sorted(p for p in self.touched if not (p in files and files[p].note_id))
        paths = self.paths
        record_prints(
            paths.index_dir,
            paths.root,
            paths.project_root,
            changed,
            gone,
            lambda: sorted(p for p, e in files.items() if e.note_id),
            full=self.plan.full,
        )

    def commit_vectors(self) -> None:
        """Commit the semantic vectors after the run's own rows, measure whether the
        dense list can vote in this vault when that figure is stale
        (:func:`rubi.search.densevote.measure_if_stale`), and let them go."""
        assert self.vectors is not None
        self.vectors.commit([*self.deletes, *self.code.deletes])
        if self.vectors.active:
            # whether the dense list can vote in this vault, measured when stale
            from rubi.search.densevote import measure_if_stale

            measure_if_stale(self.paths.index_dir, full=self.plan.full)
        self.vectors = None

    # -- 7 ------------------------------------------------------------------------
    def graph_records(self) -> Mapping[str, GraphRecord] | None:
        """A streamed build's graph records (None for any other run), handed over once:
        the run keeps no reference to them."""
        streamed, self.streamed = self.streamed, None
        return streamed.records if streamed is not None else None


def commit_rows(
    store: Store,
    old: VaultState,
    new: VaultState,
    changed: Mapping[str, Note],
    deletes: list[str],
    *,
    full: bool,
    touched: Collection[str] = (),
    cleared: bool = False,
    reshaped: bool = False,
    code_shape: str | None = None,
) -> None:
    """Write a run's rows in one transaction; the manifest is saved last, so an
    interrupted run is redone.

    Args:
        store: the vault's store.
        old, new: the manifest before and after the run.
        changed: the notes read (added or changed), by id.
        deletes: the note ids gone.
        full: the store is rebuilt (cleared first, unless ``cleared``).
        touched: the note paths the run read or lost (only they can differ from
            ``old``).
        cleared: a streamed full build cleared the store and wrote its notes in the
            transaction this commits.
        reshaped: the graph's code nodes moved (:data:`CODE_STAMP`).
        code_shape: the shape id of the run's code map, if it made one
            (:data:`CODE_SHAPE`).
    """
    with store.transaction():
        if full and not cleared:
            store.clear()
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
        if code_shape is not None:
            meta[CODE_SHAPE] = code_shape
        store.set_meta(meta)


def _vector_sink(paths: VaultPaths, full: bool) -> VectorSink:
    """The semantic vectors of one run (:class:`rubi.semantic.sync.VectorSink`): the
    documents given to Whoosh pass through its ``feed``, and its ``commit`` follows the
    run's own commit. A no-op without the ``semantic`` extra; never raises for its own
    failures."""
    from rubi.semantic.sync import VectorSink

    return VectorSink(paths.index_dir, full=full)
