"""Across sessions: where the cost went, which sessions and tools weigh most, and what
early compaction would have saved at each threshold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rubi.transcripts.analyze import SessionStats, ToolWeight
from rubi.transcripts.events import ReadStats, Usage
from rubi.transcripts.replay import ReplayOutcome
from rubi.transcripts.settings import BIG_SESSION_TOKENS, NEAR_1M_TOKENS, PriceRatios, ReplayPolicy

__all__ = ["ReRead", "ThresholdSaving", "XrayReport", "build_report"]

TOKEN_CLASSES = ("input", "cache_write_5m", "cache_write_1h", "cache_read", "output")
"""The token classes, in the order reports show them."""


@dataclass(frozen=True, slots=True)
class ThresholdSaving:
    """What one early-compaction threshold would have saved across all sessions.

    Attributes:
        threshold: the threshold (tokens).
        sessions: sessions it would have compacted.
        compactions: early compactions in all.
        saving: cost saved (input-token equivalents; negative = it would cost more).
        share: ``saving`` as a share of the total cost of all sessions (0..1).
    """

    threshold: int
    sessions: int
    compactions: int
    saving: float
    share: float


@dataclass(frozen=True, slots=True)
class ReRead:
    """A file whose same part was read again within a conversation (see
    :class:`rubi.transcripts.analyze.FileReads`: denied reads and reads of other parts
    do not count).

    Attributes:
        path: the file path as the Read tool got it.
        extra_reads: repeated reads, summed over sessions.
        extra_tokens: result tokens of those repeated reads.
        sessions: sessions that re-read it.
    """

    path: str
    extra_reads: int
    extra_tokens: int
    sessions: int


@dataclass(frozen=True, slots=True)
class XrayReport:
    """The whole X-ray. Costs are input-token equivalents; shares are 0..1.

    Attributes:
        days: the window in days, or None for all time.
        project: the ``--project`` filter as given, or None.
        projects_root: the transcripts folder scanned.
        prices: the price ratios used.
        policy: the replay policy used.
        sessions: sessions with at least one API call, costliest first.
        replays: replay outcomes per session id, one per threshold (policy order).
        read_stats: what reading met (bad lines, duplicates, synthetic lines).
        usage: all tokens by class.
        cost: total cost.
        cost_by_class: cost per token class (keys of ``TOKEN_CLASSES``).
        cache_read_share: share of the cost that is cache reads.
        big_sessions: ids of sessions whose context passed ``BIG_SESSION_TOKENS``.
        big_cost_share: share of the cost those sessions account for.
        near_1m_sessions: ids of sessions whose context passed ``NEAR_1M_TOKENS``.
        tools: tool weights, heaviest (carried cost) first.
        rereads: re-read files, most extra tokens first.
        savings: one entry per threshold, policy order.
        best: the threshold with the largest positive saving, or None.
        expiries: cache expiries (rewrites after a pause) in all sessions.
        expiry_cost: their extra cost.
        compactions: real compactions in all sessions.
        startup_median: median startup context (tokens), or None.
    """

    days: int | None
    project: str | None
    projects_root: str
    prices: PriceRatios
    policy: ReplayPolicy
    sessions: tuple[SessionStats, ...]
    replays: Mapping[str, tuple[ReplayOutcome, ...]]
    read_stats: ReadStats
    usage: Usage
    cost: float
    cost_by_class: Mapping[str, float]
    cache_read_share: float
    big_sessions: tuple[str, ...]
    big_cost_share: float
    near_1m_sessions: tuple[str, ...]
    tools: tuple[tuple[str, ToolWeight], ...]
    rereads: tuple[ReRead, ...]
    savings: tuple[ThresholdSaving, ...]
    best: ThresholdSaving | None
    expiries: int
    expiry_cost: float
    compactions: int
    startup_median: int | None


def _share(part: float, whole: float) -> float:
    return part / whole if whole > 0 else 0.0


def _rereads(sessions: Sequence[SessionStats]) -> tuple[ReRead, ...]:
    merged: dict[str, tuple[int, int, int]] = {}
    for session in sessions:
        for path, reads in session.reads.items():
            if not reads.repeats:
                continue
            old = merged.get(path, (0, 0, 0))
            merged[path] = (old[0] + reads.repeats, old[1] + reads.repeat_tokens, old[2] + 1)
    found = [ReRead(path, *values) for path, values in merged.items()]
    return tuple(sorted(found, key=lambda r: (-r.extra_tokens, -r.extra_reads, r.path)))


def build_report(
    sessions: Sequence[SessionStats],
    replays: Mapping[str, tuple[ReplayOutcome, ...]],
    read_stats: ReadStats,
    *,
    days: int | None,
    project: str | None,
    projects_root: str,
    prices: PriceRatios,
    policy: ReplayPolicy,
) -> XrayReport:
    """Combine per-session statistics and replays into the report.

    Args:
        sessions: the sessions read (any order; sessions without calls are dropped).
        replays: replay outcomes per session id, one per threshold of ``policy``.
        read_stats: summed reading statistics.
        days: the window, for display.
        project: the project filter, for display.
        projects_root: the folder scanned, for display.
        prices: the price ratios used.
        policy: the replay policy used.

    Returns:
        The report.
    """
    kept = sorted(
        (s for s in sessions if s.main_calls or s.side_calls),
        key=lambda s: (-s.cost, s.session_id),
    )
    usage = Usage()
    for session in kept:
        usage = usage.plus(session.usage)
    by_class = {
        "input": usage.input * prices.input,
        "cache_write_5m": usage.cache_write_5m * prices.cache_write_5m,
        "cache_write_1h": usage.cache_write_1h * prices.cache_write_1h,
        "cache_read": usage.cache_read * prices.cache_read,
        "output": usage.output * prices.output,
    }
    cost = sum(by_class.values())
    big = [s for s in kept if s.peak_context > BIG_SESSION_TOKENS]
    tools: dict[str, ToolWeight] = {}
    for session in kept:
        for name, weight in session.tools.items():
            tools[name] = tools.get(name, ToolWeight()).plus(weight)
    savings: list[ThresholdSaving] = []
    for position, threshold in enumerate(policy.thresholds):
        outcomes = [replays[s.session_id][position] for s in kept if s.session_id in replays]
        saving = sum(o.saving for o in outcomes)
        savings.append(
            ThresholdSaving(
                threshold,
                sum(1 for o in outcomes if o.compactions),
                sum(o.compactions for o in outcomes),
                saving,
                _share(saving, cost),
            )
        )
    positive = [s for s in savings if s.saving > 0]
    expiries = [r for s in kept for r in s.rewrites if r.expired]
    startups = [s.startup_tokens for s in kept if s.startup_tokens is not None]
    return XrayReport(
        days=days,
        project=project,
        projects_root=projects_root,
        prices=prices,
        policy=policy,
        sessions=tuple(kept),
        replays=replays,
        read_stats=read_stats,
        usage=usage,
        cost=cost,
        cost_by_class=by_class,
        cache_read_share=_share(by_class["cache_read"], cost),
        big_sessions=tuple(s.session_id for s in big),
        big_cost_share=_share(sum(s.cost for s in big), cost),
        near_1m_sessions=tuple(s.session_id for s in kept if s.peak_context > NEAR_1M_TOKENS),
        tools=tuple(sorted(tools.items(), key=lambda item: (-item[1].carried_cost, item[0]))),
        rereads=_rereads(kept),
        savings=tuple(savings),
        best=max(positive, key=lambda s: s.saving) if positive else None,
        expiries=len(expiries),
        expiry_cost=sum(r.extra_cost for r in expiries),
        compactions=sum(len([c for c in s.compactions if c.chain == "main"]) for s in kept),
        startup_median=_median(startups),
    )


def _median(values: list[int]) -> int | None:
    """``int(statistics.median(values))``, None for none; ``statistics`` (with
    ``decimal``, ``fractions`` and ``random``: about 3 ms of CPU) imported only then:
    SessionStart's cost line imports this module and never needs it."""
    if not values:
        return None
    import statistics

    return int(statistics.median(values))
