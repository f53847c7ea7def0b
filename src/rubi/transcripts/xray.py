"""Token X-ray: scan Claude Code transcripts and report where the tokens went.

The one entry point for every surface: :func:`scan` builds an :class:`XrayReport`,
:func:`report_to_dict` makes it JSON-ready, :func:`xray_summary` is the short text the
MCP ``xray`` tool returns.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rubi.transcripts.aggregate import XrayReport, build_report
from rubi.transcripts.analyze import SessionStats, analyze_session
from rubi.transcripts.events import ReadStats
from rubi.transcripts.locate import discover_sessions, projects_dir, transcript_file_sessions
from rubi.transcripts.replay import ReplayOutcome, replay_curve
from rubi.transcripts.report_json import report_to_dict
from rubi.transcripts.settings import (
    DEFAULT_DAYS,
    FALLBACK_BASE_TOKENS,
    PriceRatios,
    ReplayPolicy,
)
from rubi.transcripts.summary import format_tokens, summary_lines
from rubi.transcripts.transcript import TranscriptReader

__all__ = [
    "XrayReport",
    "format_tokens",
    "replay_session",
    "report_to_dict",
    "scan",
    "xray_summary",
]

log = logging.getLogger(__name__)

SECONDS_PER_DAY = 86_400

ProgressCallback = Callable[[int, int], None]
"""Called after each session with (bytes done, bytes in all)."""


def replay_session(
    session: SessionStats, policy: ReplayPolicy, prices: PriceRatios
) -> tuple[ReplayOutcome, ...]:
    """Replay one session's main chain under each threshold of ``policy``.

    Args:
        session: the session.
        policy: thresholds, handoff and base (None: the session's startup context,
            or ``FALLBACK_BASE_TOKENS`` when it is unknown).
        prices: price ratios.

    Returns:
        One outcome per threshold, in ``policy.thresholds`` order.
    """
    base = policy.base_tokens
    if base is None:
        base = session.startup_tokens or FALLBACK_BASE_TOKENS
    return tuple(
        replay_curve(
            session.main_calls,
            threshold=threshold,
            base_tokens=base,
            handoff_tokens=policy.handoff_tokens,
            prices=prices,
            resumed_after=session.resumed_after,
        )
        for threshold in policy.thresholds
    )


def scan(
    *,
    days: int | None = DEFAULT_DAYS,
    project: Path | None = None,
    root: Path | None = None,
    policy: ReplayPolicy | None = None,
    prices: PriceRatios | None = None,
    now: float | None = None,
    progress: ProgressCallback | None = None,
    files: Sequence[Path] = (),
) -> XrayReport:
    """Read the transcripts and build the X-ray.

    Args:
        days: only sessions active in the last ``days`` days (by file modification
            time); None for all.
        project: only this project folder's sessions.
        root: the projects folder; default ``$CLAUDE_CONFIG_DIR/projects`` or
            ``~/.claude/projects``.
        policy: early-compaction policy to replay (default thresholds 100k/150k/250k,
            8k handoff).
        prices: price ratios (default: read 0.1, write 1.25 / 2, output 5).
        now: the current time (POSIX seconds), for tests.
        progress: called after each session with bytes done and bytes in all.
        files: read these transcript files (``*.jsonl``, each one session with its
            ``<stem>/subagents/`` beside it) instead of the projects folder; ``project``
            and ``root`` are then not used, ``days`` still filters.

    Returns:
        The report. Files are streamed line by line; memory grows with the number of
        API calls, not with the size of the files.

    Raises:
        TranscriptsNotFoundError: the projects folder or the project's folder is missing,
            or a file of ``files`` is not a readable JSONL transcript.
    """
    policy = policy or ReplayPolicy()
    prices = prices or PriceRatios()
    root = root if root is not None else projects_dir()
    clock = time.time() if now is None else now
    since = None if days is None else clock - days * SECONDS_PER_DAY
    if files:
        found = transcript_file_sessions(files)
        if since is not None:
            found = [s for s in found if s.mtime >= since]
        source = _files_label(files)
    else:
        found = discover_sessions(root, project=project, since=since)
        source = str(root)
    total_bytes = sum(s.size for s in found)
    reader = TranscriptReader()
    stats = ReadStats()
    sessions: list[SessionStats] = []
    replays: dict[str, tuple[ReplayOutcome, ...]] = {}
    done = 0
    for found_files in found:
        session = analyze_session(found_files, reader, prices)
        stats.add(session.read_stats)
        sessions.append(session)
        replays[session.session_id] = replay_session(session, policy, prices)
        done += found_files.size
        if progress is not None:
            progress(done, total_bytes)
    if stats.bad_lines:
        log.info("skipped %d lines that did not parse", stats.bad_lines)
    return build_report(
        sessions,
        replays,
        stats,
        days=days,
        project=str(project) if project is not None and not files else None,
        projects_root=source,
        prices=prices,
        policy=policy,
    )


def _files_label(files: Sequence[Path]) -> str:
    """How a report names the transcript files it read: up to three paths, else a count."""
    if len(files) <= 3:
        return ", ".join(str(p) for p in files)
    return f"{len(files)} transcript files"


def xray_summary(
    *, days: int | None = DEFAULT_DAYS, project: Path | None = None, root: Path | None = None
) -> str:
    """The short X-ray summary the MCP ``xray`` tool returns (about 10 lines).

    Args:
        days: only sessions active in the last ``days`` days; None for all.
        project: only this project folder's sessions.
        root: the projects folder (default ``~/.claude/projects`` or
            ``$CLAUDE_CONFIG_DIR/projects``).

    Returns:
        Plain text, one finding per line.

    Raises:
        TranscriptsNotFoundError: the transcripts folder is missing.
    """
    report = scan(days=days, project=project, root=root)
    return "\n".join(summary_lines(report))
