"""Reading what changed: one changed note read and parsed into the new manifest, the
changed notes of a run, and the note ids a run removed; and the stored notes a vault sync
keeps in memory (:class:`NoteCache`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterator, Mapping

from rubi.core.errors import NoteParseError
from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths
from rubi.sync.manifest import (
    NOTES_BODY_KEPT,
    FileEntry,
    IndexReport,
    VaultState,
    graph_signature,
)
from rubi.sync.rows import Store
from rubi.vault.scan import GONE, FileStat, read_note_text

__all__ = ["ChangedNotes", "NoteCache", "deleted_ids", "read_changed_note", "store_copy"]


def read_changed_note(
    paths: VaultPaths,
    stat: FileStat,
    prev: FileEntry | None,
    new: VaultState,
    report: IndexReport,
) -> Note | None:
    """Read and parse one changed note file into ``new``'s manifest.

    Returns the note within the per-note limits (:func:`rubi.markdown.limits.bound_note`:
    what it left out is reported as a warning), or None when it could not be read
    (reported as a warning) or its bytes are the same as before (counted unchanged).
    """
    try:
        read = read_note_text(paths.root, stat.path, paths.project_root)
    except NoteParseError as exc:
        report.warnings.append(ScanWarning(stat.path, exc.reason))
        if exc.reason != GONE:
            new.files[stat.path] = FileEntry(stat.mtime_ns, stat.size, "", None, exc.reason)
        return None
    if prev is not None and prev.sha256 == read.sha256 and prev.note_id is not None:
        new.files[stat.path] = FileEntry(
            stat.mtime_ns, stat.size, read.sha256, prev.note_id, prev.problem, prev.signature
        )
        report.unchanged += 1
        if prev.problem:  # read again (touched, or saved too near the last listing)
            report.warnings.append(ScanWarning(stat.path, prev.problem))
        return None
    from rubi.markdown import parse_note
    from rubi.markdown.limits import bound_note

    note = parse_note(read.text, stat.path, strict=False)
    problems = [p for p in (read.problem, note.frontmatter_error) if p]
    if note.frontmatter_error:
        problems[-1] += "; indexed without its frontmatter"
    note, over = bound_note(note)
    if over:
        problems.append(over)
    problem = "; ".join(problems) or None
    if problem:
        report.warnings.append(ScanWarning(stat.path, problem))
    new.files[stat.path] = FileEntry(
        stat.mtime_ns, stat.size, read.sha256, note.id, problem, graph_signature(note)
    )
    return note


class ChangedNotes:
    """Reads a run's changed note files into the new manifest and ``changed``,
    counting what it finds in the report (the reading half of a sync apply)."""

    def __init__(
        self, paths: VaultPaths, old: VaultState, new: VaultState, report: IndexReport
    ) -> None:
        self.paths, self.old, self.new, self.report = paths, old, new, report
        self.changed: dict[str, Note] = {}
        self.relink = False
        """A changed note differs in what the graph sees (or is new)."""

    def notes(
        self,
        to_read: list[FileStat],
        progress: Callable[[int, int], None] | None,
        *,
        sink: Callable[[Note], None] | None = None,
        reread: Collection[str] = (),
    ) -> Iterator[Note]:
        """Each note that changed, as read; kept in ``changed``, or given to ``sink``
        instead (a streamed full build, :class:`rubi.sync.streamed.StreamedNotes`).
        The paths in ``reread`` are parsed again even when their bytes are as stored
        (:mod:`rubi.sync.reparse`)."""
        total = len(to_read)
        for i, stat in enumerate(to_read):
            if progress and (i % 50 == 0 or i == total - 1):
                progress(i + 1, total)
            prev = self.old.files.get(stat.path)
            seen = prev
            if prev is not None and stat.path in reread:
                seen = dataclasses.replace(prev, sha256="")  # not "the same bytes"
            note = read_changed_note(self.paths, stat, seen, self.new, self.report)
            if note is None:
                continue
            if sink is None:
                self.changed[note.id] = note
            else:
                sink(note)
            entry = self.new.files[stat.path]
            if prev is None or prev.note_id != note.id or prev.signature != entry.signature:
                self.relink = True
            if prev is None or prev.note_id is None:
                self.report.added += 1
            else:
                self.report.updated += 1
            yield note


def deleted_ids(
    old: VaultState, new: VaultState, touched: Collection[str], full: bool
) -> list[str]:
    """Note ids the run removed: those of the touched paths that no entry of the new
    manifest carries any more. The whole manifest is looked at only when a touched
    path lost its id (two file names in different Unicode forms share one id)."""
    if full:
        gone = {e.note_id for e in old.files.values() if e.note_id is not None}
    else:
        gone = {e.note_id for p in touched if (e := old.files.get(p)) and e.note_id}
        gone -= {e.note_id for p in touched if (e := new.files.get(p)) and e.note_id}
    if gone:
        gone -= {e.note_id for e in new.files.values() if e.note_id is not None}
    return sorted(gone)


def store_copy(note: Note) -> Note:
    """``note`` as the store keeps it (body cut to :data:`NOTES_BODY_KEPT`)."""
    return dataclasses.replace(note, body=note.body[:NOTES_BODY_KEPT])


class NoteCache:
    """The store's notes (bodies cut to :data:`NOTES_BODY_KEPT`) by id, kept in memory
    and brought up to the store's generation by replaying its journal; a full build's
    generation (``base_gen``) reads them all again. Not thread-safe: used under the
    vault sync's lock."""

    def __init__(self) -> None:
        self._notes: dict[str, Note] | None = None
        self._gen = -1

    def notes(self, store: Store) -> dict[str, Note]:
        """The notes as of ``store``'s generation (the cache's own dict: copy it to
        change it)."""
        gen, base = store.gen(), int(store.meta_value("base_gen", 0))
        if self._notes is None or base > self._gen:
            self._notes = store.notes()
        elif gen != self._gen:
            written, removed = store.changes_since(self._gen)
            for note_id in removed:
                self._notes.pop(note_id, None)
            self._notes.update(written)
        self._gen = gen
        return self._notes

    def drop(self) -> None:
        """Forget the notes (the store was rebuilt or deleted)."""
        self._notes = None

    def committed(
        self, old_gen: int, new_gen: int, changed: Mapping[str, Note], deletes: Collection[str]
    ) -> None:
        """Follow a run this process committed, when the cache was at ``old_gen``
        (else the next :meth:`notes` replays the journal)."""
        if self._notes is None or self._gen != old_gen:
            return
        for note_id in deletes:
            self._notes.pop(note_id, None)
        for note in changed.values():
            self._notes[note.id] = store_copy(note)
        self._gen = new_gen
