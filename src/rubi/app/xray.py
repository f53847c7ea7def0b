"""The token X-ray as a use case: what ``rubi xray`` and the MCP ``xray`` tool call.

A submodule of the facade imported on use (``from rubi.app import xray``): the
transcript readers behind it are not paid for by a search or a hook.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.transcripts.settings import (
    CLASS_LABELS,
    DEFAULT_DAYS,
    DEFAULT_HANDOFF_TOKENS,
    DEFAULT_THRESHOLDS,
    ReplayPolicy,
)
from rubi.transcripts.summary import first_change, format_tokens, summary_lines

TYPE_CHECKING = False  # typing costs a hook ~2 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.transcripts.aggregate import XrayReport

__all__ = [
    "CLASS_LABELS",
    "DEFAULT_DAYS",
    "DEFAULT_HANDOFF_TOKENS",
    "DEFAULT_THRESHOLDS",
    "first_change",
    "format_tokens",
    "render_html",
    "report_dict",
    "scan",
    "summary",
    "summary_lines",
    "write_html",
]


def _days(days: int | None) -> int | None:
    """The one meaning of ``days`` on every surface: ``0`` (and None) mean every
    session, whatever its age; N > 0 the sessions active in the last N days.

    Raises:
        RubiError: ``days`` is negative (or not a whole number).
    """
    if days is None or days == 0:
        return None
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise RubiError(f"days: {days!r}; give 0 (all time) or a number of days")
    return days


def scan(
    *,
    days: int | None = DEFAULT_DAYS,
    project: Path | None = None,
    thresholds: Sequence[int] = (),
    handoff_tokens: int = DEFAULT_HANDOFF_TOKENS,
    progress: Callable[[int, int], None] | None = None,
    files: Sequence[Path] = (),
) -> XrayReport:
    """Read Claude Code's transcripts and build the X-ray
    (see :func:`rubi.transcripts.xray.scan`).

    Args:
        days: sessions active in the last ``days`` days; 0 or None for all time.
        project: only this project folder's sessions.
        thresholds: compaction thresholds to replay, in tokens (duplicates dropped);
            empty for :data:`DEFAULT_THRESHOLDS`.
        handoff_tokens: the handoff size a replayed compaction resumes from, in tokens.
        progress: called with bytes read and bytes in all.
        files: read these ``*.jsonl`` transcript files instead of the transcripts
            folder (``project`` is then not used).

    Raises:
        TranscriptsNotFoundError: the transcripts folder (or the project's) is missing,
            or a file of ``files`` is not a readable JSONL transcript.
        RubiError: ``days`` is negative.
    """
    from rubi.transcripts.xray import scan as run_scan

    policy = ReplayPolicy(
        thresholds=tuple(sorted(set(thresholds))) or DEFAULT_THRESHOLDS,
        handoff_tokens=handoff_tokens,
    )
    return run_scan(
        days=_days(days), project=project, policy=policy, progress=progress, files=files
    )


def summary(*, days: int | None = DEFAULT_DAYS, project: Path | None = None) -> str:
    """The short X-ray (about 10 lines of plain text, one finding per line) that the MCP
    ``xray`` tool returns; ``days`` as for :func:`scan`.

    Raises:
        TranscriptsNotFoundError: the transcripts folder is missing.
        RubiError: ``days`` is negative.
    """
    from rubi.transcripts.xray import xray_summary

    return xray_summary(days=_days(days), project=project)


def report_dict(report: XrayReport) -> dict[str, Any]:
    """The report as one JSON-ready dict (``rubi xray --json``)."""
    from rubi.transcripts.report_json import report_to_dict

    return report_to_dict(report)


def render_html(report: XrayReport) -> str:
    """The self-contained HTML report with charts (inline CSS and SVG, no scripts), as
    one string: what :func:`write_html` writes and ``rubi view`` serves."""
    from rubi.transcripts.report_html import render_html as render

    return render(report)


def write_html(report: XrayReport, path: Path) -> None:
    """Write the self-contained HTML report with charts to ``path`` (atomically).

    Raises:
        ReportWriteError: ``path`` cannot be written.
    """
    from rubi.transcripts.report_html import write_html as write

    write(report, path)
