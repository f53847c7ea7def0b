"""``rubi doctor``: everything in a vault that needs a person's attention.

Unreadable notes, links to notes and attachments that do not exist, ambiguous links,
links Obsidian leaves unresolved (rubi resolved them by title, alias or ``id``), git
conflict markers left in notes, secrets in notes (reported by line and kind, never
changed), notes whose ``files:`` name nothing in the project, generated pages whose
summary markers are broken (they are no longer regenerated), code files the map
skipped, rubi's help README without ``status: help`` (recall injects it), and notes
another git worktree holds that this one lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rubi.core.model import ScanWarning, note_files
from rubi.core.pagenames import MAP_PAGE, MODULES_DIR
from rubi.core.paths import VaultPaths
from rubi.graph.build import LinkProblem
from rubi.sync import index_vault, load_code_map, notes_for, reading_graph

__all__ = ["DoctorReport", "check_vault", "code_map_behind", "semantic_status"]


@dataclass(frozen=True, slots=True)
class DoctorReport:
    """What ``rubi doctor`` found; every list is sorted by path."""

    files: list[ScanWarning]
    missing: list[LinkProblem]
    ambiguous: list[LinkProblem]
    missing_attachments: list[LinkProblem] = field(default_factory=list)
    missing_note_files: list[ScanWarning] = field(default_factory=list)
    pages: list[ScanWarning] = field(default_factory=list)
    code: list[ScanWarning] = field(default_factory=list)
    ignored: list[ScanWarning] = field(default_factory=list)
    """Things in the vault that rubi deliberately never reads (a ``.index/`` folder of
    derived data, path settings in the project's ``config.toml``): reported so a person
    can delete them; they do not make the vault unhealthy."""
    obsidian: list[LinkProblem] = field(default_factory=list)
    """Links Obsidian leaves unresolved that rubi resolved by a note's title, alias or
    frontmatter ``id`` (status ``obsidian``, ``resolved_to`` the note rubi picked):
    broken for a person in Obsidian, so a problem; write the file name instead."""
    conflicts: list[ScanWarning] = field(default_factory=list)
    """Notes holding git conflict markers (an unfinished merge)."""
    secrets: list[ScanWarning] = field(default_factory=list)
    """Secrets in notes (one entry per secret: the note, its line and kind, never the
    value), found by the rules of session capture; the notes are left as they are."""
    help: list[ScanWarning] = field(default_factory=list)
    """The vault's README when it is rubi's help without ``status: help`` (recall
    injects it), with what to do (:func:`rubi.app.helpreadme.readme_problem`)."""
    worktrees: list[ScanWarning] = field(default_factory=list)
    """Other git worktrees whose vault holds notes this one lacks (one entry per
    worktree, ``path`` its folder): information, not a problem (merge the branch)."""
    hooks: list[ScanWarning] = field(default_factory=list)
    """Hooks (or a user-wide MCP server) ``rubi install`` wrote that call a rubi which
    no longer exists (a venv moved, rubi reinstalled), one entry per settings file and
    path, with the command that fixes it: a problem. Filled by the command line
    (``rubi.cli``), which may read :mod:`rubi.claude.hookpaths`; this facade sits
    below the Claude Code surface and never imports it."""
    pages_written: list[str] = field(default_factory=list)
    """The committed map pages this check's index run rewrote because the code changed
    since they were made (a pull of code without its pages, an edit): information, so
    a person who sees them in ``git status`` knows why. Empty after a first index (the
    pages of ``rubi init`` are placeholders)."""

    @property
    def ok(self) -> bool:
        """Nothing to fix (skipped code files alone do not count: they are reported)."""
        return not (
            self.files
            or self.missing
            or self.ambiguous
            or self.missing_attachments
            or self.missing_note_files
            or self.pages
            or self.obsidian
            or self.conflicts
            or self.secrets
            or self.help
            or self.hooks
        )


def _page_problems(paths: VaultPaths) -> list[ScanWarning]:
    """Generated pages whose summary markers are broken. Pages are read through
    :mod:`rubi.core.safeio`; a refused page (a symlink out, a FIFO) is already reported by
    the scan and skipped here."""
    from rubi.codemap import CuratedSummaryError, extract_curated
    from rubi.core.safeio import MAX_NOTE_BYTES, UnsafeFileError, allowed_root, read_text

    root = paths.root
    allowed, where = allowed_root(root, paths.project_root)
    pages = [root / MAP_PAGE, *sorted((root / MODULES_DIR).glob("*.md"))]
    out: list[ScanWarning] = []
    for page in pages:
        rel = page.relative_to(root).as_posix()
        try:
            text = read_text(allowed, page, limit=MAX_NOTE_BYTES, where=where)
        except (OSError, UnsafeFileError):
            continue
        try:
            extract_curated(text, rel)
        except CuratedSummaryError as exc:
            out.append(ScanWarning(rel, f"{exc.reason}; it is not regenerated until then"))
    return out


def _missing_note_files(paths: VaultPaths) -> list[ScanWarning]:
    if paths.project_root is None:
        return []
    out: list[ScanWarning] = []
    from rubi.core.safepaths import UnsafePathError, project_relative

    for note in notes_for(paths).values():
        for entry in note_files(note):
            try:
                rel = project_relative(paths.project_root, entry, what="files:")
            except UnsafePathError as exc:
                out.append(ScanWarning(note.path, str(exc)))
                continue
            if rel != "." and not (paths.project_root / rel).exists():
                out.append(ScanWarning(note.path, f"files: {entry} does not exist in the project"))
    return sorted(out, key=lambda w: (w.path, w.message))


def _ignored(paths: VaultPaths) -> list[ScanWarning]:
    from rubi.core.paths import LEGACY_INDEX_DIRNAME
    from rubi.knowledge.personal import ignored_project_settings

    out: list[ScanWarning] = []
    legacy = paths.root / LEGACY_INDEX_DIRNAME
    if legacy.is_dir() or legacy.is_symlink():
        out.append(
            ScanWarning(
                LEGACY_INDEX_DIRNAME + "/",
                "derived data inside the vault (an older rubi, or committed by someone); "
                "rubi never reads it (its index lives in the user cache): delete the folder",
            )
        )
    out.extend(ignored_project_settings(paths))
    return out


def _config_problems(paths: VaultPaths) -> list[ScanWarning]:
    """``config.toml`` refused (a symlink out, a FIFO), too large or not TOML."""
    from rubi.core.projectconfig import read_config

    _, problem = read_config(paths.root, paths.project_root)
    return [ScanWarning("config.toml", problem)] if problem else []


def _obsidian_problems(paths: VaultPaths, attachments: list[str]) -> list[LinkProblem]:
    from rubi.vault.obsidian import obsidian_unresolved

    return [
        LinkProblem(x.source, x.target, "obsidian", x.resolved_to)
        for x in obsidian_unresolved(notes_for(paths).values(), attachments)
    ]


def _text_problems(
    paths: VaultPaths, notes: list[str]
) -> tuple[list[ScanWarning], list[ScanWarning]]:
    """Notes holding git conflict markers, and secrets already in notes: each note read
    once (through :mod:`rubi.core.safeio`; never changed; a note that cannot be read is
    reported by the scan already).

    Returns:
        ``(conflicts, secrets)``, in the order of ``notes``.
    """
    from rubi.core.errors import NoteParseError
    from rubi.transcripts.privacy.vaulttext import find_secrets
    from rubi.vault.conflicts import conflict_line
    from rubi.vault.scan import read_note_text

    conflicts: list[ScanWarning] = []
    secrets: list[ScanWarning] = []
    for rel in notes:
        try:
            text = read_note_text(paths.root, rel, paths.project_root).text
        except NoteParseError:
            continue
        line = conflict_line(text)
        if line is not None:
            conflicts.append(
                ScanWarning(
                    rel,
                    f"git conflict markers from line {line} (an unfinished merge): keep the "
                    "right text, delete the <<<<<<< ======= >>>>>>> lines",
                )
            )
        secrets.extend(
            ScanWarning(
                rel,
                f"line {found.line}: a secret ({found.kind}); replace it with "
                f"[REDACTED:{found.kind}] and rotate it if the note was ever pushed",
            )
            for found in find_secrets(text)
        )
    return conflicts, secrets


def _worktrees(paths: VaultPaths) -> list[ScanWarning]:
    from rubi.knowledge.worktrees import MAX_LISTED, notes_elsewhere

    out: list[ScanWarning] = []
    for other in notes_elsewhere(paths):
        shown = ", ".join(other.notes[:MAX_LISTED])
        more = f" and {len(other.notes) - MAX_LISTED} more" if len(other.notes) > MAX_LISTED else ""
        branch = f"branch {other.branch}" if other.branch else "a detached HEAD"
        count = f"{len(other.notes)} note" + ("" if len(other.notes) == 1 else "s")
        out.append(
            ScanWarning(
                str(other.worktree),
                f"this worktree ({branch}) holds {count} this one lacks: {shown}{more}; "
                "they arrive here when its branch is merged",
            )
        )
    return out


def check_vault(paths: VaultPaths) -> DoctorReport:
    """Index the vault (notes and code), then collect its problems."""
    from rubi.app.helpreadme import readme_problem
    from rubi.vault.scan import scan_vault

    before = paths.store_file.exists()  # a first index writes the pages from nothing
    report = index_vault(paths)
    with reading_graph(paths) as build:
        problems = build.problems
    listing = scan_vault(paths.root, paths.project_root)
    conflicts, secrets = _text_problems(paths, [f.path for f in listing.notes])
    code_map = load_code_map(paths) if paths.project_root is not None else None
    return DoctorReport(
        files=sorted([*report.warnings, *_config_problems(paths)], key=lambda w: w.path),
        missing=[p for p in problems if p.status == "missing"],
        ambiguous=[p for p in problems if p.status == "ambiguous"],
        missing_attachments=[p for p in problems if p.status == "missing-attachment"],
        missing_note_files=_missing_note_files(paths),
        pages=_page_problems(paths) if paths.project_root is not None else [],
        code=sorted(code_map.warnings, key=lambda w: w.path) if code_map else [],
        ignored=_ignored(paths),
        obsidian=_obsidian_problems(paths, listing.attachments),
        conflicts=conflicts,
        secrets=secrets,
        help=[w for w in [readme_problem(paths)] if w is not None],
        worktrees=_worktrees(paths),
        pages_written=list(report.pages_written) if before else [],
    )


def semantic_status(paths: VaultPaths) -> str:
    """One line: ``on: N documents embedded (model)``, or ``off: why`` with how to
    turn it on (:func:`rubi.semantic.status.status_line`)."""
    from rubi.semantic.status import status_line

    return status_line(paths.index_dir)


def code_map_behind(paths: VaultPaths) -> bool:
    """True when the project's files changed since its code map was made (a pull, an
    edit, with no ``rubi index``, session start or watcher since): a search does not
    see those files yet, and the next map run rewrites the committed map pages
    (:func:`rubi.sync.freshness.code_map_current`). False outside a project, before
    the first map, or when it cannot be told."""
    from rubi.sync.freshness import code_map_current

    return code_map_current(paths) is False
