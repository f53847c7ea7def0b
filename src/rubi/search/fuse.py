"""Reciprocal Rank Fusion.

Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and
individual Rank Learning Methods" (SIGIR 2009): ``score(d) = Σ_lists w / (k + rank)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["RRF_K", "Fused", "rrf"]

RRF_K = 60
"""The constant from Cormack et al. 2009; damps the weight of the very top ranks."""


@dataclass(slots=True)
class Fused:
    """A fused result: id, RRF score, and its 1-based rank in each list it was in."""

    id: str
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)


def rrf(
    lists: Mapping[str, Sequence[str]],
    *,
    k: int = RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Fuse ranked lists of ids.

    Args:
        lists: list name → ids, best first (an id repeated in one list counts once,
            at its best rank).
        k: the RRF constant.
        weights: per-list multipliers (default 1.0).

    Returns:
        Fused results by descending score; ties broken by best single rank, then id.
    """
    fused: dict[str, Fused] = {}
    for name, ids in lists.items():
        w = (weights or {}).get(name, 1.0)
        seen: set[str] = set()
        for rank, doc_id in enumerate(ids, start=1):
            if doc_id in seen:
                continue
            seen.add(doc_id)
            f = fused.setdefault(doc_id, Fused(doc_id))
            f.score += w / (k + rank)
            f.ranks[name] = rank
    return sorted(fused.values(), key=lambda f: (-f.score, min(f.ranks.values()), f.id))
