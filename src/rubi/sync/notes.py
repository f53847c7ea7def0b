"""Reading what changed: one changed note read and parsed into the new manifest."""

from __future__ import annotations

from rubi.core.errors import NoteParseError
from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths
from rubi.sync.manifest import FileEntry, IndexReport, VaultState, graph_signature
from rubi.vault.scan import FileStat, read_note_text

__all__ = ["read_changed_note"]


def read_changed_note(
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
