"""List 4 of the hybrid search: documents close in meaning to the query
(:mod:`rubi.semantic`), for the words a question shares with no note, and how much
the list counts in the fusion (:func:`dense_weight`): a Reciprocal Rank Fusion list
(Cormack, Clarke & Büttcher 2009) whose vote is scaled by evidence from this query
and this vault, as issue 28 asks of every list.

Off (an empty list) when the ``semantic`` extra is not installed, ``RUBI_SEMANTIC=0``,
or the vault has no vectors yet; a failure to read the vectors is logged and treated
the same, so a search never fails because of this channel.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rubi.core.lazylog import get_logger

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from rubi.semantic.dense import DenseIndex, DenseMatch

__all__ = [
    "DENSE_FULL_GAP",
    "DENSE_LIMIT",
    "DENSE_MIN_GAP",
    "DENSE_MIN_SCORE",
    "DENSE_PEERS",
    "DenseList",
    "dense_list",
    "dense_weight",
    "text_closeness",
]

log = get_logger(__name__)

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
conversations (``docs/benchmarks-history.md``, "issue 17: fusing the dense channel"): the
conversations of one pair of people are all close in meaning to any question about
them (gap to the median: median 0.06, three quarters under 0.08), while on Obsidian
Help the note that answers a question stands out (three quarters over 0.23); bounds
from 0.08-0.12 to 0.15-0.20 all measured within one notes question and 0.3 R@5.
The same two gaps bound the best match's lead over its nearest documents
(:data:`DENSE_PEERS`), in :func:`dense_weight`."""

DENSE_PEERS = 10
"""The best match must also stand out from the list's own first this many documents
(itself included; their mean cosine is the local background): one page of hits, the
documents the list's first would be shown beside."""


@dataclass(frozen=True, slots=True)
class DenseList:
    """The dense list of one search.

    Attributes:
        matches: the eligible documents at least :data:`DENSE_MIN_SCORE` similar, best
            first (at most :data:`DENSE_LIMIT`).
        weight: how much the list counts in the fusion, 0 to 1 (:func:`dense_weight`).
        evidence: what the weight was measured on, for the why-line: the best match's
            gap above the median document and its lead over the mean of the list's
            first :data:`DENSE_PEERS` (``best match: 0.18 over typical, 0.12 over top 10``).
        gap: that gap, in cosine (0 for an empty list).
        lead: that lead, in cosine (0 for an empty list).
    """

    matches: tuple[DenseMatch, ...] = ()
    weight: float = 0.0
    evidence: str = ""
    gap: float = 0.0
    lead: float = 0.0


def _ramp(gap: float) -> float:
    """0 at or below :data:`DENSE_MIN_GAP`, 1 at or above :data:`DENSE_FULL_GAP`,
    linear between."""
    share = (gap - DENSE_MIN_GAP) / (DENSE_FULL_GAP - DENSE_MIN_GAP)
    return min(1.0, max(0.0, share))


def dense_weight(best: float, median: float, nearest: Sequence[float] = ()) -> float:
    """The dense list's confidence: the smaller of two separations, each mapped to 0
    at or below :data:`DENSE_MIN_GAP` and 1 at or above :data:`DENSE_FULL_GAP`,
    linearly between: how far its best score stands above the median score of every
    document in the index (the query is about something in this vault), and how far
    above the mean score of the list's own first :data:`DENSE_PEERS` documents (the
    list has a first at all).

    Args:
        best: the best eligible document's cosine.
        median: the median cosine of every document in the index (the background;
            :attr:`rubi.semantic.dense.DenseRanking.median`).
        nearest: the cosines of the list's first documents, best first, before the
            :data:`DENSE_MIN_SCORE` floor (the first :data:`DENSE_PEERS` are used);
            empty: the vault's background alone decides.

    Returns:
        A weight in [0, 1].

    Why the median: a static model scores every document alike when they share one
    topic (the sessions of one conversation), and ranked by RRF a flat list of
    near-equal cosines still gave its first document the weight of a BM25 first,
    reordering what the words found. The median, not the score of a rank, is the
    vault's background: ten near-copies of the answer leave it where it was.

    Why the list's own first documents too: RRF gives the list's first the vote of
    the text list's first, which it earns only when the model tells it apart from its
    neighbours. On the development questions of five sets nobody tuned on, the list
    voted with weight 0.5 or more on 52 of 81 (the best cosine up to 0.49 above the
    median) while its lead over its own first ten was 0.001-0.099 (median 0.017):
    near-equal candidates in an order the words contradicted, which cost four of the
    five sets (MRR@10 plain / semantic: Sourcegraph handbook 0.413 / 0.337, wiki
    0.525 / 0.385, zh 0.917 / 0.515, es 0.892 / 0.743). With the lead required too
    the list takes no part there, and votes on 7 of the 11 development questions of
    the notes set it was built on (lead 0.11-0.27). Ten copies of the answer now
    silence it; the text list, which finds the copies too, then ranks alone
    (``docs/benchmarks-history.md``, "issue 28: the dense list's vote").
    """
    weight = _ramp(best - median)
    top = list(nearest[:DENSE_PEERS])
    if top:
        weight = min(weight, _ramp(best - sum(top) / len(top)))
    return weight


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
    from rubi.core.picklefiles import UntrustedCacheError
    from rubi.semantic.dense import query_vector

    try:
        found = dense.ranked(query_vector(query, terms), eligible, DENSE_LIMIT)
    except (OSError, ValueError, ImportError, sqlite3.Error, UntrustedCacheError) as exc:
        log.warning("semantic channel skipped: %s", exc)
        return DenseList()
    matches = tuple(m for m in found.matches if m.score >= DENSE_MIN_SCORE)
    if not matches:
        return DenseList()
    best = matches[0].score
    nearest = [m.score for m in found.matches[:DENSE_PEERS]]
    gap, lead = best - found.median, best - sum(nearest) / len(nearest)
    # Every hit of the list carries this line: it says whose numbers they are.
    evidence = f"best match: {gap:.2f} over typical, {lead:.2f} over top {len(nearest)}"
    return DenseList(matches, dense_weight(best, found.median, nearest), evidence, gap, lead)


def text_closeness(
    query: str, terms: Sequence[str]
) -> Callable[[Sequence[str]], list[float]] | None:
    """A function giving each text's cosine with the query (texts of a hit's parts,
    read at search time: :mod:`rubi.search.turnranking` ranks a session's turns by
    it); None when the channel is off (:func:`rubi.semantic.enabled`) or the model
    cannot load.

    Not gated by the vault's measured separation (:mod:`rubi.search.densevote`): that
    asks notes' titles as queries, and a session record's title is its date and id, so
    on a vault of sessions it silences the file-level list; the turns of one
    conversation are what the model tells apart."""
    from rubi.semantic import enabled

    if not enabled():
        return None
    from rubi.semantic.dense import query_vector
    from rubi.semantic.encoder import load_encoder

    try:
        encoder = load_encoder()
        wanted = query_vector(query, terms)
    except (OSError, ValueError, ImportError) as exc:
        log.warning("semantic channel skipped: %s", exc)
        return None

    def closeness(texts: Sequence[str]) -> list[float]:
        return [float(v) for v in encoder.encode(texts) @ wanted] if texts else []

    return closeness
