"""Bring the derived index and graph in line with the vault's files.

One code path for ``rubi index``, first-use indexing and (later) the watcher: find
what changed against the manifest (mtime, size, SHA-256 per note), re-parse only
that, update Whoosh in one commit, rebuild the graph when anything changed, and save
the manifest last, so an interrupted run is simply redone next time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from rubi.errors import IndexCorruptError, NoteParseError
from rubi.graph.store import save_graph
from rubi.manifest import (
    STATE_FORMAT,
    FileEntry,
    IndexReport,
    VaultState,
    graph_signature,
    load_notes,
    load_state,
    save_notes,
)
from rubi.model import Note, ScanWarning, note_files
from rubi.paths import VaultPaths, ensure_private_dir
from rubi.safeio import has_surrogates
from rubi.storage import load_pickle, save_pickle
from rubi.vault.scan import FileStat, VaultListing, read_note_text, scan_vault

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.index.store import IndexDoc, SearchIndex

__all__ = [
    "STATE_FORMAT",
    "FileEntry",
    "IndexReport",
    "VaultState",
    "index_vault",
    "load_code_map",
    "load_notes",
    "load_state",
]

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


def _listing_from(root: Path, old: VaultState, changed: Collection[str]) -> VaultListing | None:
    """The vault's listing from the manifest plus the changed paths, or None when a
    full scan is needed (a folder was added, moved or removed)."""
    import os
    import stat as st

    files = {p: FileStat(p, e.mtime_ns, e.size) for p, e in old.files.items()}
    attachments = set(old.attachments)
    for rel in changed:
        rel = rel.strip("/")
        if not rel or any(part.startswith(".") for part in rel.split("/")):
            continue
        if has_surrogates(rel):
            return None  # a name that is not UTF-8: the full scan reports and skips it
        try:
            info = os.stat(os.path.join(root, rel))
        except OSError:
            info = None
        if info is not None and st.S_ISDIR(info.st_mode):
            return None
        if info is None and any(p.startswith(rel + "/") for p in files):
            return None  # a folder went away
        if rel.lower().endswith(".md"):
            if info is not None and st.S_ISREG(info.st_mode):
                files[rel] = FileStat(rel, info.st_mtime_ns, info.st_size)
            else:
                files.pop(rel, None)
        elif info is not None:
            attachments.add(rel)
        else:
            attachments.discard(rel)
    return VaultListing(sorted(files.values(), key=lambda f: f.path), sorted(attachments))


def _read_note(
    paths: VaultPaths,
    stat: FileStat,
    prev: FileEntry | None,
    new: VaultState,
    report: IndexReport,
) -> Note | None:
    """Read and parse one changed note file into ``new``'s manifest.

    Returns the note, or None when it could not be read (reported as a warning) or its
    bytes are the same as before (counted unchanged).
    """
    try:
        read = read_note_text(paths.root, stat.path, paths.project_root)
    except NoteParseError as exc:
        report.warnings.append(ScanWarning(stat.path, exc.reason))
        if "disappeared" not in exc.reason:
            new.files[stat.path] = FileEntry(stat.mtime_ns, stat.size, "", None, exc.reason)
        return None
    if prev is not None and prev.sha256 == read.sha256 and prev.note_id is not None:
        new.files[stat.path] = FileEntry(
            stat.mtime_ns, stat.size, read.sha256, prev.note_id, prev.problem, prev.signature
        )
        report.unchanged += 1
        return None
    from rubi.markdown import parse_note

    note = parse_note(read.text, stat.path, strict=False)
    problems = [p for p in (read.problem, note.frontmatter_error) if p]
    if note.frontmatter_error:
        problems[-1] += "; indexed without its frontmatter"
    problem = "; ".join(problems) or None
    if problem:
        report.warnings.append(ScanWarning(stat.path, problem))
    new.files[stat.path] = FileEntry(
        stat.mtime_ns, stat.size, read.sha256, note.id, problem, graph_signature(note)
    )
    return note


def _write_pages(
    paths: VaultPaths, code_map: CodeMap, notes: dict[str, Note], report: IndexReport
) -> list[str]:
    """Regenerate map.md and the module pages from ``notes``; the pages changed."""
    from rubi.knowledge.stale import NoteFiles, stale_files
    from rubi.mappages import note_refs, write_map_pages

    assert paths.project_root is not None
    stale = stale_files(
        paths.project_root,
        (NoteFiles(n.id, tuple(note_files(n)), _commit(n)) for n in notes.values()),
        paths.stale_cache,
    )
    pages = write_map_pages(paths.root, code_map, note_refs(notes, stale))
    report.warnings.extend(pages.warnings)
    report.pages_written = pages.written + pages.removed
    return report.pages_written


def _pages_first(
    paths: VaultPaths,
    code_map: CodeMap,
    notes: dict[str, Note],
    new: VaultState,
    report: IndexReport,
) -> None:
    """A full build writes the map pages before indexing and adds them to ``notes``
    and the manifest: one Whoosh segment and one graph build, not two (a second
    segment costs every later search a second pass over each term)."""
    import os

    from rubi.vault.scan import FileStat as Stat

    for rel in _write_pages(paths, code_map, notes, report):
        entry = new.files.pop(rel, None)
        if entry is not None and entry.note_id is not None:
            notes.pop(entry.note_id, None)
        try:
            info = os.stat(paths.root / rel)
        except FileNotFoundError:
            continue  # removed
        note = _read_note(paths, Stat(rel, info.st_mtime_ns, info.st_size), None, new, report)
        if note is not None:
            notes[note.id] = note
            if entry is None:
                report.added += 1


def _index_locked(
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
        listing = _listing_from(paths.root, old, changed_paths)
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
        note = _read_note(paths, stat, prev, new, report)
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
    code_map, code_docs, code_deletes = _map_code(paths, old, new, report, full, code, progress)
    pages_first = full and code and code_map is not None and paths.project_root is not None
    if pages_first:
        assert code_map is not None
        _pages_first(paths, code_map, changed, new, report)
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
        and not pages_first
        and _write_pages(paths, code_map, notes, report)
    ):
        # index the pages just written (they are notes too)
        _index_locked(paths, False, None, False, code=False)
    return report


def _commit(note: Note) -> str | None:
    value = note.metadata.get("commit")
    return value if isinstance(value, str) and value else None


_CODE_MAPS: dict[Path, tuple[int, int, CodeMap]] = {}
"""The last code map read per file, reused while unchanged (the MCP server's read)."""


def load_code_map(paths: VaultPaths) -> CodeMap | None:
    """The code map saved by the last index run (cached while the file is unchanged),
    or None."""
    from rubi.codemap import CodeMap

    path = paths.codemap_file
    try:
        st = path.stat()
        cached = _CODE_MAPS.get(path)
        if cached is not None and cached[:2] == (st.st_mtime_ns, st.st_size):
            return cached[2]
        loaded = load_pickle(path)
    except FileNotFoundError:
        return None
    except Exception as exc:
        log.warning("%s: unreadable (%s); run `rubi index` to rebuild it", path, exc)
        return None
    if not isinstance(loaded, CodeMap):
        return None
    _CODE_MAPS.clear()
    _CODE_MAPS[path] = (st.st_mtime_ns, st.st_size, loaded)
    return loaded


def code_fingerprint(root: Path) -> str:
    """A digest of the project's file list with each file's size and mtime: equal
    digests mean no file was added, removed or touched. "" when it cannot be taken.

    One ``git ls-files`` (or a walk) and one ``stat`` per file: about 0.1 s on a
    10,000-file repository, against seconds for re-resolving and re-ranking the map.
    """
    import hashlib
    import os

    from rubi.codemap.files import list_files

    try:
        listing = list_files(root)
    except OSError:
        return ""
    digest = hashlib.sha256()
    base = str(root)
    for rel in listing.paths:
        try:
            st = os.stat(os.path.join(base, rel))
        except OSError:
            continue
        digest.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _map_code(
    paths: VaultPaths,
    old: VaultState,
    new: VaultState,
    report: IndexReport,
    full: bool,
    code: bool,
    progress: Progress | None,
) -> tuple[CodeMap | None, list[IndexDoc], list[str]]:
    """Map the project's code when asked; return the map, the code documents to
    (re)write and the code ids to delete. Records the new code manifest in ``new``."""
    if paths.project_root is None or not code:
        new.code = dict(old.code)
        new.code_fingerprint = old.code_fingerprint
        return None, [], []
    fingerprint = code_fingerprint(paths.project_root)
    if (
        not full
        and fingerprint
        and fingerprint == old.code_fingerprint
        and paths.codemap_file.exists()
    ):
        # Not one file listed, added, removed or touched: the map cannot have changed.
        new.code, new.code_fingerprint = dict(old.code), fingerprint
        report.code_files = len(old.code)
        return None, [], []
    # Imported here: the search path (notes only) never pays for the code map.
    from rubi.codemap import build_code_map, comment_text, read_text_slice, symbol_text
    from rubi.index.documents import code_document

    new.code_fingerprint = fingerprint
    code_map = build_code_map(paths.project_root, paths.codemap_cache, progress=progress)
    new.code = {p: f.sha256 for p, f in code_map.files.items()}
    previous = {} if full else old.code
    docs = []
    for path, file in code_map.files.items():
        if previous.get(path) == file.sha256:
            continue
        text = read_text_slice(paths.project_root, path)
        docs.append(code_document(path, file.language, symbol_text(file), text, comment_text(text)))
    deletes = sorted(set(previous) - set(new.code))
    report.code_files = len(code_map.files)
    report.code_changed = len(docs)
    report.code_deleted = len(deletes)
    report.code_warnings = list(code_map.warnings)
    if docs or deletes or full or not paths.codemap_file.exists():
        save_pickle(paths.codemap_file, code_map)
    return code_map, docs, deletes
