"""The short X-ray summary: one finding per line, for the MCP tool and the CLI footer."""

from __future__ import annotations

from pathlib import Path

from rubi.transcripts.aggregate import XrayReport
from rubi.transcripts.settings import BIG_SESSION_TOKENS
from rubi.transcripts.tokenformat import format_tokens

__all__ = ["first_change", "format_tokens", "summary_lines"]

MIN_LEVER_SHARE = 0.01
"""A change is worth recommending only if it saves at least 1% of the cost."""


def count_of(number: int, noun: str) -> str:
    """``1 session``, ``2 sessions``: a count and its noun, plural unless it is 1."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _pct(part: float, whole: float) -> str:
    text = f"{(part / whole if whole else 0.0) * 100:.0f}%"
    return "0%" if text == "-0%" else text


def first_change(report: XrayReport) -> str:
    """The change that would save most, as one sentence.

    Args:
        report: the X-ray.

    Returns:
        A sentence naming the lever (early compaction, cache expiries or re-reads)
        and its share of the cost, or a note that nothing saves 1% or more.
    """
    options: list[tuple[float, str]] = []
    if report.best is not None:
        options.append(
            (
                report.best.saving,
                f"compact or hand off at {format_tokens(report.best.threshold)} "
                f"(saves about {_pct(report.best.saving, report.cost)})",
            )
        )
    if report.expiry_cost > 0:
        options.append(
            (
                report.expiry_cost,
                "avoid long pauses mid-task, or let the cache live 1 hour "
                f"(expiries cost {_pct(report.expiry_cost, report.cost)})",
            )
        )
    if report.rereads:
        tokens = sum(r.extra_tokens for r in report.rereads)
        cost = tokens * report.prices.cache_write_5m
        options.append(
            (
                cost,
                "keep notes on files read again and again "
                f"(re-reads cost {_pct(cost, report.cost)} or more)",
            )
        )
    worth = [option for option in options if option[0] >= MIN_LEVER_SHARE * report.cost]
    if not worth:
        return "nothing here would save 1% or more of the cost."
    return max(worth)[1] + "."


def summary_lines(report: XrayReport, *, top: int = 3) -> list[str]:
    """The short summary, one finding per line.

    Args:
        report: the X-ray.
        top: how many tools and files to name.

    Returns:
        About ten lines of plain text, the recommended first change last.
    """
    window = f"last {report.days} days" if report.days is not None else "all time"
    if not report.sessions:
        return [f"Token X-ray ({window}): no Claude Code sessions in {report.projects_root}."]
    cost = report.cost
    by_class = report.cost_by_class
    writes = by_class["cache_write_5m"] + by_class["cache_write_1h"]
    projects = len({s.folder for s in report.sessions})
    lines = [
        f"Token X-ray ({window}): {count_of(len(report.sessions), 'session')} in "
        f"{count_of(projects, 'project')}, "
        f"cost {format_tokens(cost)} input-token equivalents.",
        f"By class: cache reads {_pct(by_class['cache_read'], cost)}, cache writes "
        f"{_pct(writes, cost)}, output {_pct(by_class['output'], cost)}, "
        f"uncached input {_pct(by_class['input'], cost)}.",
        f"Sessions past {format_tokens(BIG_SESSION_TOKENS)}: {len(report.big_sessions)} "
        f"({_pct(report.big_cost_share, 1)} of cost); near 1M: {len(report.near_1m_sessions)}.",
    ]
    if report.startup_median is not None:
        lines.append(
            f"Startup context: median {format_tokens(report.startup_median)} tokens before "
            "the first message (`rubi audit` itemizes it)."
        )
    lines.append(
        f"Cache expiries: {report.expiries} (extra {_pct(report.expiry_cost, cost)}); "
        f"compactions: {report.compactions}."
    )
    if report.tools:
        heavy = ", ".join(
            f"{name} {format_tokens(w.tokens)} tok ({_pct(w.carried_cost, cost)} carried)"
            for name, w in report.tools[:top]
        )
        lines.append(f"Heaviest tool results: {heavy}.")
    if report.rereads:
        again = ", ".join(f"{Path(r.path).name} +{r.extra_reads}" for r in report.rereads[:top])
        lines.append(f"Most re-read files (extra reads): {again}.")
    replay = ", ".join(
        f"{format_tokens(s.threshold)}: {_pct(s.saving, cost)}" for s in report.savings
    )
    lines.append(
        f"Early compaction (handoff {format_tokens(report.policy.handoff_tokens)}) would save "
        f"{replay}."
    )
    lines.append("First change: " + first_change(report))
    return lines
