"""Reading what changed: the vault's listing from the manifest plus the paths a
watcher reported, and one changed note read and parsed into the new manifest."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from rubi.core.errors import NoteParseError
from rubi.core.model import Note, ScanWarning
from rubi.core.paths import VaultPaths
from rubi.core.safeio import has_surrogates
from rubi.sync.manifest import FileEntry, IndexReport, VaultState, graph_signature
from rubi.vault.scan import FileStat, VaultListing, read_note_text

__all__ = ["listing_from_changes", "read_changed_note"]


def listing_from_changes(
    root: Path, old: VaultState, changed: Collection[str]
) -> VaultListing | None:
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
