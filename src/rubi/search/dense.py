"""List 4 of the hybrid search: documents close in meaning to the query
(:mod:`rubi.semantic`), for the words a question shares with no note, and how much
the list counts in the fusion (:func:`dense_weight`).

Off (an empty list) when the ``semantic`` extra is not installed, ``RUBI_SEMANTIC=0``,
or the vault has no vectors yet; a failure to read the vectors is logged and treated
the same, so a search never fails because of this channel.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rubi.semantic.dense import DenseIndex, DenseMatch

__all__ = [
    "DENSE_FULL_GAP",
    "DENSE_LIMIT",
    "DENSE_MIN_GAP",
    "DENSE_MIN_SCORE",
    "DenseList",
    "dense_list",
    "dense_weight",
]

log = logging.getLogger(__name__)

DENSE_LIMIT = 50
"""Candidates the dense list contributes to the fusion."""

DENSE_MIN_SCORE = 0.4
"""A document less similar than this is not close in meaning, however few are closer.
Without a floor the list always brought 50 candidates, so a word no note has
(``zebrafish``) still returned notes. Set from queries about nothing in the vault
(made-up and off-topic words on obsidian-help-en: best scores 0.08–0.50, most under
0.36), not from the question sets the channel is measured on."""

DENSE_MIN_GAP = 0.10
"""A best match at most this far (in cosine) above the median document of the index
stands out from nothing: the list weighs 0 and the search ranks as with the channel
off."""
DENSE_FULL_GAP = 0.20
"""From this gap up the list weighs 1 (its full :data:`rubi.search.engine.LIST_WEIGHTS`
weight); linear between the two gaps. Measured on notes QA and the LoCoMo development
conversations (``docs/benchmarks.md``, "issue 17: fusing the dense channel"): the
conversations of one pair of people are all close in meaning to any question about
them (gap to the median: median 0.06, three quarters under 0.08), while on Obsidian
Help the note that answers a question stands out (three quarters over 0.23); bounds
from 0.08-0.12 to 0.15-0.20 all measured within one notes question and 0.3 R@5."""


@dataclass(frozen=True, slots=True)
class DenseList:
    """The dense list of one search.

    Attributes:
        matches: the eligible documents at least :data:`DENSE_MIN_SCORE` similar, best
            first (at most :data:`DENSE_LIMIT`).
        weight: how much the list counts in the fusion, 0 to 1 (:func:`dense_weight`).
        evidence: what the weight was measured on, for the why-line: the best match's
            gap above the median document (``gap 0.18``).
    """

    matches: tuple[DenseMatch, ...] = ()
    weight: float = 0.0
    evidence: str = ""


def dense_weight(best: float, median: float) -> float:
    """The dense list's confidence: how far its best score stands above the median
    score of every document in the index, mapped to 0 at or below
    :data:`DENSE_MIN_GAP` and 1 at or above :data:`DENSE_FULL_GAP`, linearly between.

    Args:
        best: the best eligible document's cosine.
        median: the median cosine of every document in the index (the background;
            :attr:`rubi.semantic.dense.DenseRanking.median`).

    Returns:
        A weight in [0, 1].

    Why: a static model scores every document alike when they share one topic (the
    sessions of one conversation), and ranked by RRF a flat list of near-equal
    cosines still gave its first document the weight of a BM25 first, reordering
    what the words found. The median, not the score of a rank, is the background:
    ten near-copies of the answer (a vault's notes copied, templates) leave the
    median where it was, where the tenth score would come up to the best.
    """
    share = (best - median - DENSE_MIN_GAP) / (DENSE_FULL_GAP - DENSE_MIN_GAP)
    return min(1.0, max(0.0, share))


def dense_list(
    dense: DenseIndex | None,
    query: str,
    terms: Sequence[str],
    eligible: Callable[[str], bool],
) -> DenseList:
    """The eligible documents closest to the query and terms and the list's weight
    (:class:`DenseList`); an empty list when ``dense`` is None or the vectors cannot
    be read."""
    if dense is None:
        return DenseList()
    from rubi.core.storage import UntrustedCacheError
    from rubi.semantic.dense import query_vector

    try:
        found = dense.ranked(query_vector(query, terms), eligible, DENSE_LIMIT)
    except (OSError, ValueError, ImportError, sqlite3.Error, UntrustedCacheError) as exc:
        log.warning("semantic channel skipped: %s", exc)
        return DenseList()
    matches = tuple(m for m in found.matches if m.score >= DENSE_MIN_SCORE)
    if not matches:
        return DenseList()
    evidence = f"gap {matches[0].score - found.median:.2f}"
    return DenseList(matches, dense_weight(matches[0].score, found.median), evidence)
