"""Rank metrics for one ranked list and their summary over a set of queries.

Everything here is a pure function of result ids, scores and relevant ids: no system,
no file. Binary gains; the cut-off is :data:`K` (10) for MRR, hits and NDCG.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["K", "Outcome", "first_rank", "ndcg", "percentile", "summarise"]

K = 10


@dataclass(frozen=True, slots=True)
class Outcome:
    """One system's answer to one query.

    Attributes:
        results: result ids, best first (any length; metrics cut at :data:`K`).
        scores: the system's score of each result, same order.
        relevant: the ids that answer the query (empty: an off-topic query).
        ms: wall time of the query in milliseconds.
        refused: the system refused the query (it then has no results).
        above_floor: how many results the system itself calls relevant, or None when
            the system has no relevance floor.
    """

    results: tuple[str, ...]
    scores: tuple[float, ...]
    relevant: tuple[str, ...]
    ms: float
    refused: bool = False
    above_floor: int | None = None


def first_rank(results: Sequence[str], relevant: Sequence[str], k: int = K) -> int | None:
    """1-based rank of the first result in ``relevant`` within the top ``k``, or None."""
    wanted = set(relevant)
    return next((i for i, r in enumerate(results[:k], start=1) if r in wanted), None)


def ndcg(results: Sequence[str], relevant: Sequence[str], k: int = K) -> float:
    """NDCG@k with binary gains: each relevant id counts once, at its first rank; the
    ideal ranks every relevant id first (at most ``k`` of them). 0.0 for no relevant."""
    wanted = set(relevant)
    if not wanted:
        return 0.0
    seen: set[str] = set()
    dcg = 0.0
    for i, r in enumerate(results[:k], start=1):
        if r in wanted and r not in seen:
            seen.add(r)
            dcg += 1.0 / math.log2(i + 1)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(k, len(wanted)) + 1))
    return dcg / ideal


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between closest ranks; 0.0 for
    no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The figures of one system over ``outcomes``.

    Returns:
        ``{"queries", "on_topic", "mrr", "hits@1", "hits@5", "hits@10", "ndcg",
        "refused", "off_topic", "off_answered", "off_above_floor", "off_top_score_median",
        "on_top_score_median", "on_below_floor", "mean_ms", "p95_ms"}``; rank metrics
        are over on-topic queries (0.0 when there are none); ``off_above_floor`` (the
        share of off-topic queries the system called answered) and ``on_below_floor``
        (the share of on-topic ones it called unanswered) are "n/a" when the system
        has no floor; ``off_answered`` and the top-score medians are None without
        off-topic queries or scored results.
    """
    on = [o for o in outcomes if o.relevant]
    off = [o for o in outcomes if not o.relevant]
    ranks = [first_rank(o.results, o.relevant) for o in on]
    n = len(on) or 1
    floors = [o.above_floor for o in off]
    above: str | float = (
        "n/a"
        if not off or any(f is None for f in floors)
        else sum(1 for f in floors if f) / len(off)
    )
    on_floors = [o.above_floor for o in on]
    below: str | float = (
        "n/a"
        if not on or any(f is None for f in on_floors)
        else sum(1 for f in on_floors if not f) / len(on)
    )
    times = [o.ms for o in outcomes]
    return {
        "queries": len(outcomes),
        "on_topic": len(on),
        "mrr": sum(1.0 / r for r in ranks if r is not None) / n,
        "hits@1": sum(1 for r in ranks if r == 1) / n,
        "hits@5": sum(1 for r in ranks if r is not None and r <= 5) / n,
        "hits@10": sum(1 for r in ranks if r is not None) / n,
        "ndcg": sum(ndcg(o.results, o.relevant) for o in on) / n,
        "refused": sum(1 for o in outcomes if o.refused),
        "off_topic": len(off),
        "off_answered": sum(1 for o in off if o.results) / len(off) if off else None,
        "off_above_floor": above,
        "off_top_score_median": _top_median(off),
        "on_top_score_median": _top_median(on),
        "on_below_floor": below,
        "mean_ms": statistics.fmean(times) if times else 0.0,
        "p95_ms": percentile(times, 0.95),
    }


def _top_median(outcomes: Sequence[Outcome]) -> float | None:
    tops = [o.scores[0] for o in outcomes if o.scores]
    return statistics.median(tops) if tops else None
