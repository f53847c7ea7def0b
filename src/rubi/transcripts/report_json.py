"""The X-ray report as plain JSON-ready data (``rubi xray --json``)."""

from __future__ import annotations

from typing import Any

from rubi.transcripts.aggregate import TOKEN_CLASSES, XrayReport
from rubi.transcripts.analyze import SessionStats

__all__ = ["report_to_dict"]


def _session_dict(session: SessionStats, report: XrayReport) -> dict[str, Any]:
    replays = report.replays.get(session.session_id, ())
    return {
        "session_id": session.session_id,
        "project": session.project,
        "cwd": session.cwd,
        "title": session.title,
        "start": session.start,
        "end": session.end,
        "calls": len(session.main_calls),
        "subagent_calls": session.side_calls,
        "cost": round(session.cost, 1),
        "subagent_cost": round(session.cost_side, 1),
        "tokens": {name: getattr(session.usage, name) for name in TOKEN_CLASSES},
        "peak_context": session.peak_context,
        "current_context": session.current_context,
        "startup_tokens": session.startup_tokens,
        "context_curve": list(session.curve),
        "compactions": [
            {"trigger": c.trigger, "pre_tokens": c.pre_tokens, "time": c.time}
            for c in session.compactions
        ],
        "cache_rewrites": [
            {
                "call": r.call_index,
                "gap_seconds": r.gap_seconds,
                "tokens": r.tokens,
                "extra_cost": round(r.extra_cost, 1),
                "expired": r.expired,
            }
            for r in session.rewrites
        ],
        "tools": {
            name: {"calls": w.calls, "tokens": w.tokens, "carried_cost": round(w.carried_cost, 1)}
            for name, w in sorted(session.tools.items())
        },
        "reads": {
            path: {"reads": r.reads, "tokens": r.tokens, "repeats": r.repeats}
            for path, r in session.reads.items()
        },
        "replay": [
            {"threshold": o.threshold, "compactions": o.compactions, "saving": round(o.saving, 1)}
            for o in replays
        ],
    }


def report_to_dict(report: XrayReport, *, curves: bool = True) -> dict[str, Any]:
    """The report as plain JSON-ready data (``rubi xray --json``).

    Args:
        report: the report.
        curves: include each session's context curve (one number per API call).

    Returns:
        A dict with ``window``, ``prices``, ``totals``, ``big_sessions`` (past 150k,
        their cost share, ids near 1M), ``tools``, ``rereads``, ``replay``, ``reading``
        and ``sessions`` (costliest first). Costs are input-token equivalents.
    """
    sessions = [_session_dict(s, report) for s in report.sessions]
    if not curves:
        for item in sessions:
            item.pop("context_curve")
    stats = report.read_stats
    return {
        "window": {"days": report.days, "project": report.project, "root": report.projects_root},
        "prices": {name: getattr(report.prices, name) for name in TOKEN_CLASSES},
        "totals": {
            "sessions": len(report.sessions),
            "cost": round(report.cost, 1),
            "tokens": {name: getattr(report.usage, name) for name in TOKEN_CLASSES},
            "cost_by_class": {k: round(v, 1) for k, v in report.cost_by_class.items()},
            "cache_read_share": round(report.cache_read_share, 4),
            "cache_expiries": report.expiries,
            "cache_expiry_cost": round(report.expiry_cost, 1),
            "compactions": report.compactions,
            "startup_median": report.startup_median,
        },
        "big_sessions": {
            "count": len(report.big_sessions),
            "cost_share": round(report.big_cost_share, 4),
            "near_1m": list(report.near_1m_sessions),
        },
        "tools": [
            {"tool": n, "calls": w.calls, "tokens": w.tokens, "carried_cost": round(w.carried_cost)}
            for n, w in report.tools
        ],
        "rereads": [
            {
                "path": r.path,
                "extra_reads": r.extra_reads,
                "extra_tokens": r.extra_tokens,
                "sessions": r.sessions,
            }
            for r in report.rereads
        ],
        "replay": {
            "handoff_tokens": report.policy.handoff_tokens,
            "base_tokens": report.policy.base_tokens,
            "thresholds": [
                {
                    "threshold": s.threshold,
                    "sessions": s.sessions,
                    "compactions": s.compactions,
                    "saving": round(s.saving, 1),
                    "share": round(s.share, 4),
                }
                for s in report.savings
            ],
            "best": report.best.threshold if report.best else None,
        },
        "reading": {
            "files": stats.files,
            "bytes": stats.bytes,
            "lines": stats.lines,
            "bad_lines": stats.bad_lines,
            "bad_examples": stats.bad_examples,
            "synthetic_lines": stats.synthetic_lines,
            "split_lines": stats.split_lines,
            "repeated_calls": stats.repeated_calls,
            "unreadable_files": stats.unreadable_files,
        },
        "sessions": sessions,
    }
