"""``rubi doctor``: everything in a vault that needs a person's attention.

Unreadable notes, links to notes and attachments that do not exist, ambiguous links,
notes whose ``files:`` name nothing in the project, generated pages whose summary
markers are broken (they are no longer regenerated), and code files the map skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rubi.config import MAP_PAGE, MODULES_DIR
from rubi.graph.build import LinkProblem
from rubi.graph.store import load_graph
from rubi.indexing import index_vault, load_code_map, load_notes
from rubi.model import ScanWarning, note_files
from rubi.paths import VaultPaths

__all__ = ["DoctorReport", "check_vault"]


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
        )


def _page_problems(root: Path) -> list[ScanWarning]:
    from rubi.codemap import CuratedSummaryError, extract_curated

    pages = [root / MAP_PAGE, *sorted((root / MODULES_DIR).glob("*.md"))]
    out: list[ScanWarning] = []
    for page in pages:
        if not page.is_file():
            continue
        rel = page.relative_to(root).as_posix()
        try:
            extract_curated(page.read_text(encoding="utf-8", errors="replace"), rel)
        except CuratedSummaryError as exc:
            out.append(ScanWarning(rel, f"{exc.reason}; it is not regenerated until then"))
    return out


def _missing_note_files(paths: VaultPaths) -> list[ScanWarning]:
    if paths.project_root is None:
        return []
    out: list[ScanWarning] = []
    for note in load_notes(paths).values():
        for entry in note_files(note):
            rel = entry.strip().lstrip("./").rstrip("/")
            if rel and not (paths.project_root / rel).exists():
                out.append(ScanWarning(note.path, f"files: {entry} does not exist in the project"))
    return sorted(out, key=lambda w: (w.path, w.message))


def check_vault(paths: VaultPaths) -> DoctorReport:
    """Index the vault (notes and code), then collect its problems."""
    report = index_vault(paths)
    build = load_graph(paths.graph_file)
    code_map = load_code_map(paths) if paths.project_root is not None else None
    return DoctorReport(
        files=sorted(report.warnings, key=lambda w: w.path),
        missing=[p for p in build.problems if p.status == "missing"],
        ambiguous=[p for p in build.problems if p.status == "ambiguous"],
        missing_attachments=[p for p in build.problems if p.status == "missing-attachment"],
        missing_note_files=_missing_note_files(paths),
        pages=_page_problems(paths.root) if paths.project_root is not None else [],
        code=sorted(code_map.warnings, key=lambda w: w.path) if code_map else [],
    )
