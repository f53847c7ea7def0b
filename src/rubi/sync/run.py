"""One sync run: bring the derived index and graph in line with the vault's files.

One code path for ``rubi index``, first-use indexing, hooks and the watcher: find
what changed against the manifest (mtime, size, SHA-256 per note;
:mod:`rubi.sync.notes`), map the code when its files changed (:mod:`rubi.sync.code`),
update Whoosh in one commit, rebuild the graph when anything it sees changed, rewrite
the map pages (:mod:`rubi.sync.pages`), and save the manifest
(:mod:`rubi.sync.manifest`) last, so an interrupted run is simply redone next time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from rubi.core.errors import IndexCorruptError
from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths, ensure_private_dir
from rubi.core.storage import save_pickle
from rubi.graph.store import save_graph
from rubi.sync.code import load_code_map, map_code
from rubi.sync.manifest import (
    IndexReport,
    VaultState,
    load_notes,
    load_state,
    save_notes,
)
from rubi.sync.notes import listing_from_changes, read_changed_note
from rubi.vault.scan import scan_vault

if TYPE_CHECKING:
    from rubi.index.store import SearchIndex

__all__ = ["LOCK_TIMEOUT_S", "index_vault"]

log = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 120.0
"""How long an index run waits for another one (another session, the watcher)."""

Progress = Callable[[int, int], None]


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
) -> IndexReport:
    """Index the vault incrementally (or from scratch with ``full``).

    Args:
        paths: the vault.
        full: drop the derived data and rebuild it from the files.
        progress: called as ``progress(done, total)`` while changed notes are read
            (``total`` counts only the notes that need reading).
        on_wait: called once if another run holds the index lock (so a surface can
            say why it is waiting).

    Returns:
        An :class:`IndexReport`; per-file problems are in ``warnings`` (the files
        are skipped or indexed in part, never modified).

    Raises:
        OSError: the index folder cannot be written.
        filelock.Timeout: another index run held the lock for ``LOCK_TIMEOUT_S``.
    """
    started = time.perf_counter()
    ensure_private_dir(paths.index_dir)
    lock = FileLock(str(paths.lock_file), timeout=lock_timeout_s)
    try:
        lock.acquire(timeout=min(0.2, lock_timeout_s))
    except Timeout:
        if on_wait:
            on_wait()
        lock.acquire()
    try:
        report = _index_locked(paths, full, progress, verify, code, changed_paths)
    finally:
        lock.release()
    report.seconds = time.perf_counter() - started
    return report


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


def _index_locked(  # noqa: C901  # replaced by a plan → apply step (next issue)
    paths: VaultPaths,
    full: bool,
    progress: Progress | None,
    verify: bool = True,
    code: bool = True,
    changed_paths: Collection[str] | None = None,
) -> IndexReport:
    # Whoosh is imported here, markdown parsing and the graph only when something
    # changed: the hooks' "nothing changed" run pays for a scan, not for libraries.
    from rubi.index.store import SearchIndex

    index = SearchIndex(paths.whoosh_dir)
    index.sweep()  # build folders and temp files a killed run left
    old = None if full else load_state(paths)
    if old is None or not index.exists() or (verify and not _consistent(index, old)):
        full, old = True, VaultState()
    # A full build starts the index afresh: without the code map it would drop every
    # code file (a search after an upgrade of the index format did just that).
    code = code or full
    report = IndexReport(full=full)
    if verify and not full:  # `rubi index`, `rubi health`: surfaces that show warnings
        advice = index.compaction_advice()
        index.close()
        if advice:
            report.warnings.append(ScanWarning(str(paths.whoosh_dir), advice))
    listing = None
    if changed_paths is not None and not full:
        listing = listing_from_changes(paths.root, old, changed_paths)
    if listing is None:
        listing = scan_vault(paths.root, paths.project_root)
    report.warnings.extend(listing.warnings)
    new = VaultState(attachments=listing.attachments)
    changed: dict[str, Note] = {}
    graph_changed = False
    to_read = []
    for stat in listing.notes:
        prev = old.files.get(stat.path)
        if prev is not None and (prev.mtime_ns, prev.size) == (stat.mtime_ns, stat.size):
            new.files[stat.path] = prev
            report.unchanged += 1
            if prev.problem:
                report.warnings.append(ScanWarning(stat.path, prev.problem))
        else:
            to_read.append(stat)
    total = len(to_read)
    for i, stat in enumerate(to_read):
        if progress and (i % 50 == 0 or i == total - 1):
            progress(i + 1, total)
        prev = old.files.get(stat.path)
        note = read_changed_note(paths, stat, prev, new, report)
        if note is None:
            continue
        changed[note.id] = note
        entry = new.files[stat.path]
        if prev is None or prev.note_id != note.id or prev.signature != entry.signature:
            graph_changed = True
        if prev is None or prev.note_id is None:
            report.added += 1
        else:
            report.updated += 1

    old_ids = {e.note_id for e in old.files.values() if e.note_id is not None}
    new_ids = {e.note_id for e in new.files.values() if e.note_id is not None}
    deletes = sorted(old_ids - new_ids)
    report.deleted = len(deletes)
    attachments_changed = new.attachments != old.attachments
    code_map, code_docs, code_deletes = map_code(paths, old, new, report, full, code, progress)
    pages_before = full and code and code_map is not None and paths.project_root is not None
    if pages_before:
        assert code_map is not None
        from rubi.sync.pages import pages_first  # the code map: only when mapping

        pages_first(paths, code_map, changed, new, report)
        new_ids = {e.note_id for e in new.files.values() if e.note_id is not None}
    code_changed = bool(code_docs or code_deletes)
    if not (
        full
        or report.changed
        or code_changed
        or attachments_changed
        or not paths.graph_file.exists()
    ):
        if new.files != old.files:  # touched but identical files: remember new mtimes
            new.indexed_at = old.indexed_at
            save_pickle(paths.state_file, new)
        return report

    from rubi.index.documents import note_document

    docs = [*(note_document(n) for n in changed.values()), *code_docs]
    if not (full or deletes or code_changed or attachments_changed or graph_changed) and (
        paths.graph_file.exists() and paths.notes_file.exists()
    ):
        # Bodies changed, nothing the graph sees: update the text index only.
        index.apply(docs, [])
        index.close()
        new.indexed_at = time.time()
        save_pickle(paths.state_file, new)
        return report

    from rubi.graph.build import build_graph

    if full:
        index.rebuild(docs)
    elif docs or deletes or code_deletes:
        index.apply(docs, [*deletes, *code_deletes])
    index.close()
    notes = {} if full else load_notes(paths)
    if not full and not set(notes) >= (new_ids - set(changed)):
        # The notes cache lost entries: re-read everything once.
        return _index_locked(paths, True, progress, verify, code)
    for doc_id in deletes:
        notes.pop(doc_id, None)
    notes.update(changed)
    notes = {k: notes[k] for k in sorted(new_ids)}
    if code_map is None and new.code:
        code_map = load_code_map(paths)
    save_graph(paths.graph_file, build_graph(notes, new.attachments, code_map))
    report.graph_rebuilt = True
    save_notes(paths, notes)
    new.indexed_at = time.time()
    save_pickle(paths.state_file, new)
    # The map pages list the notes about each file: rewrite them when the code changed,
    # and when notes came, went or changed what the map shows (a registered gotcha).
    if (
        (code or graph_changed or deletes)
        and code_map is not None
        and paths.project_root is not None
        and not pages_before
    ):
        from rubi.sync.pages import write_pages

        if not write_pages(paths, code_map, notes, report):
            return report
        # index the pages just written (they are notes too)
        _index_locked(paths, False, None, False, code=False)
    return report
