"""Write the generated map pages into a project vault: ``map.md`` (level 0) and
``modules/<slug>.md`` (level 1).

Pages are rewritten only when their text changes (no git churn, no needless
re-index), keep the curated summary block a person or the agent wrote, and a page
whose summary markers are broken is left alone with a warning, so no text is lost.

The pages are committed: the vault's ``.gitattributes`` (:data:`MERGE_RULES`, written
by ``rubi init`` and by the first page write when missing) has git merge them by
union, so two branches that each regenerated a page merge without a conflict and the
next run rewrites the page from the merged notes and code.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rubi.codemap import (
    SUMMARY_START,
    CodeMap,
    CuratedSummaryError,
    NoteRef,
    extract_curated,
    render_map,
    render_module_page,
)
from rubi.codemap.render_module import page_index
from rubi.core.atomic import atomic_write_text, create_exclusive
from rubi.core.model import Note, ScanWarning, note_files
from rubi.core.pagenames import MAP_PAGE, MODULES_DIR
from rubi.core.paths import PROJECT_VAULT_DIRNAME, VaultPaths
from rubi.core.safeio import MAX_NOTE_BYTES, UnsafeFileError, read_text
from rubi.sync.committed import shared_note
from rubi.sync.manifest import IndexReport, VaultState
from rubi.sync.notes import ChangedNotes, read_changed_note

__all__ = [
    "GITATTRIBUTES",
    "MAP_PAGE",
    "MERGE_RULES",
    "MODULES_DIR",
    "MapPagesReport",
    "ensure_merge_rules",
    "note_refs",
    "pages_first",
    "pages_in_run",
    "write_map_pages",
    "write_pages",
]

log = logging.getLogger(__name__)

GITATTRIBUTES = ".gitattributes"
MERGE_RULES = """\
# Pages rubi generates from the notes and the code (`rubi index` rewrites them).
# When two branches both changed one, git keeps the lines of both instead of
# stopping at a conflict; the next `rubi index` puts the page right.
/map.md merge=union
/modules/*.md merge=union
"""
"""The vault's ``.gitattributes`` as ``rubi init`` writes it (the vault template's)."""


@dataclass
class MapPagesReport:
    """Vault-relative pages written and removed, and pages left alone (warnings)."""

    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    warnings: list[ScanWarning] = field(default_factory=list)


def note_refs(notes: Mapping[str, Note], vault: Path | None = None) -> list[NoteRef]:
    """What the map renderers need from each note: generated pages excluded, and, given
    the ``vault`` folder, the notes git does not share (handoffs, captured sessions:
    :func:`rubi.sync.committed.shared_note`), which committed pages never list."""
    shared = shared_note(vault) if vault is not None else None
    return [
        NoteRef(n.id, n.title, n.type, n.status, tuple(note_files(n)))
        for n in notes.values()
        if n.id != MAP_PAGE.removesuffix(".md")
        and not n.id.startswith(MODULES_DIR + "/")
        and (shared is None or shared(n.id))
    ]


def _existing(vault: Path, path: Path) -> str | None:
    """A page's text, or None when it does not exist. Read through :mod:`rubi.core.safeio`
    (a regular file that stays inside the project or vault, at most 1 MB).

    Raises:
        UnsafeFileError: the page is refused (a symlink that leads out, a FIFO).
        OSError: it cannot be read.
    """
    root = _allowed(vault)
    try:
        return read_text(root, path, limit=MAX_NOTE_BYTES, label=path.relative_to(vault).as_posix())
    except FileNotFoundError:
        return None


def _allowed(vault: Path) -> Path:
    """The folder a page must resolve into: the project holding a ``.rubi/`` vault."""
    return vault.parent if vault.name == PROJECT_VAULT_DIRNAME else vault


def _update(vault: Path, rel: str, render: object, report: MapPagesReport) -> None:
    page = vault / rel
    try:
        old = _existing(vault, page)
    except UnsafeFileError as exc:
        report.warnings.append(ScanWarning(rel, f"{exc.reason}; page not regenerated"))
        return
    try:
        curated = extract_curated(old, rel) if old is not None else None
    except CuratedSummaryError as exc:
        report.warnings.append(ScanWarning(rel, f"{exc.reason}; page not regenerated"))
        return
    assert callable(render)
    text = render(curated)
    if text != old:
        atomic_write_text(page, text)
        report.written.append(rel)


def ensure_merge_rules(vault: Path) -> bool:
    """Write :data:`MERGE_RULES` as ``vault/.gitattributes`` unless a file has that
    name (a person's own rules are kept).

    Returns:
        True when the file was written.

    Raises:
        OSError: the vault cannot be written.
    """
    path = vault / GITATTRIBUTES
    if os.path.lexists(path):
        return False
    return create_exclusive(path, MERGE_RULES)


def write_map_pages(vault: Path, code_map: CodeMap, notes: Sequence[NoteRef]) -> MapPagesReport:
    """Regenerate ``map.md`` and every module page under ``vault``, and write the
    merge rules for them when the vault has none (:func:`ensure_merge_rules`).

    Module pages of modules that no longer exist are removed, unless they hold a
    curated summary (then they stay, with a warning).

    Returns:
        A :class:`MapPagesReport`.

    Raises:
        OSError: the vault cannot be written.
    """
    report = MapPagesReport()
    ensure_merge_rules(vault)
    _update(vault, MAP_PAGE, lambda cur: render_map(code_map, notes, cur), report)
    wanted = set()
    index = page_index(code_map, notes)
    for name, module in code_map.modules.items():
        rel = f"{MODULES_DIR}/{module.slug}.md"
        wanted.add(rel)
        _update(
            vault,
            rel,
            lambda cur, name=name: render_module_page(code_map, name, notes, cur, index),
            report,
        )
    folder = vault / MODULES_DIR
    if folder.is_dir():
        for page in sorted(folder.glob("*.md")):
            rel = f"{MODULES_DIR}/{page.name}"
            if rel in wanted:
                continue
            try:
                text = _existing(vault, page) or ""
            except UnsafeFileError as exc:
                report.warnings.append(ScanWarning(rel, f"{exc.reason}; page left alone"))
                continue
            try:
                curated = extract_curated(text, rel)
            except CuratedSummaryError:
                curated = "broken"
            if SUMMARY_START in text and curated is None:
                page.unlink()
                report.removed.append(rel)
            else:
                report.warnings.append(
                    ScanWarning(rel, "module no longer exists; page kept for its summary")
                )
    return report


def write_pages(
    paths: VaultPaths, code_map: CodeMap, notes: dict[str, Note], report: IndexReport
) -> list[str]:
    """Regenerate map.md and the module pages from ``notes``; the pages changed."""
    assert paths.project_root is not None
    pages = write_map_pages(paths.root, code_map, note_refs(notes, paths.root))
    report.warnings.extend(pages.warnings)
    report.pages_written = pages.written + pages.removed
    return report.pages_written


def pages_first(
    paths: VaultPaths,
    code_map: CodeMap,
    notes: dict[str, Note],
    new: VaultState,
    report: IndexReport,
) -> None:
    """A full build writes the map pages before indexing and adds them to ``notes``
    and the manifest: one Whoosh segment and one graph build, not two (a second
    segment costs every later search a second pass over each term)."""
    from rubi.vault.scan import FileStat as Stat

    for rel in write_pages(paths, code_map, notes, report):
        entry = new.files.pop(rel, None)
        if entry is not None and entry.note_id is not None:
            notes.pop(entry.note_id, None)
        try:
            info = os.stat(paths.root / rel)
        except FileNotFoundError:
            continue  # removed
        stat = Stat(rel, info.st_mtime_ns, info.st_size)
        note = read_changed_note(paths, stat, None, new, report)
        if note is not None:
            notes[note.id] = note
            if entry is None:
                report.added += 1


def pages_in_run(
    paths: VaultPaths,
    code_map: CodeMap,
    notes: dict[str, Note],
    reading: ChangedNotes,
    touched: set[str],
) -> None:
    """An incremental run writes the map pages before indexing, as a full build does
    (:func:`pages_first`), and reads those it wrote into its changed notes: one
    Whoosh commit, one store commit and one graph update, not a second run for them.

    Args:
        paths: the project vault.
        code_map: the map the run made.
        notes: every note as the run leaves it (the pages are rendered from them).
        reading: the run's reader (new manifest, changed notes, relink flag); its
            report's counts are left as they were (the pages are not the run's notes).
        touched: the run's touched paths; the pages written or removed are added.
    """
    from rubi.vault.scan import FileStat as Stat

    report = reading.report
    counts = (report.added, report.updated, report.unchanged)
    written = write_pages(paths, code_map, notes, report)
    to_read: list[Stat] = []
    for rel in written:
        touched.add(rel)
        reading.new.files.pop(rel, None)
        try:
            info = os.stat(paths.root / rel)
        except FileNotFoundError:
            continue  # removed: deleted_ids finds its note among the touched paths
        to_read.append(Stat(rel, info.st_mtime_ns, info.st_size))
    for _ in reading.notes(to_read, None):
        pass
    report.added, report.updated, report.unchanged = counts
