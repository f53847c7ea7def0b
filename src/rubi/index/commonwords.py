"""BM25F sums that skip a query's commonest words wherever its other words are absent
(max-score pruning: Turtle & Flood 1995, "Query evaluation: strategies and
optimizations"), exact or declined.

A word nearly every document holds (obsidian-hub's note footer puts "community",
"plugin" and "note" in 6,100–7,200 of 7,700 documents) costs a pure-Python query one
weight, one frequency sum and one score sum per posting, for a few tenths of a point
on each document. :func:`partial_sums` adds every word's saturated score, in the
query's word order and each word's clauses in their order (so the same floats as
:func:`rubi.index.bm25fsums.word_sums`), only for the documents of the other (rare)
words; a document that holds none of those scores at most the common words' saturation
limits added up (``scale * idf``: ``tf~ / (k1 + tf~) < 1``), returned as the bound.
The caller (:meth:`rubi.index.termscore.TermScorer.top`) keeps the result only when
the ``limit``-th best sum it holds is above that bound (with a margin far wider than
the sums' rounding), so no document left out could enter or tie into the top; else it
sums every posting as before.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Callable, Collection, Mapping, Sequence

from rubi.index.bm25fsums import Postings, best
from rubi.index.segmentdata import segment_id

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from array import array
    from typing import Any

    # rubi.index.termscore's TermScorer and TermQuery (it imports this module)
    TermScorer = Any
    TermQuery = Any

__all__ = [
    "BOUND_MARGIN",
    "COMMON_MIN_DOCS",
    "COMMON_SHARE",
    "common_words",
    "partial_sums",
    "pruned_top",
]

COMMON_SHARE = 0.25
"""A word is common when at least this share of the live documents hold it..."""
COMMON_MIN_DOCS = 1000
"""...and at least this many (a small index sums every posting: nothing to save)."""
BOUND_MARGIN = 1e-9
"""The bound's relative margin over the rounding of a sum of a few dozen saturated
scores (about 1e-14)."""


def common_words(dfs: Sequence[int], doc_count: int) -> list[bool]:
    """Which words (their document frequencies ``dfs``) are common: see
    :data:`COMMON_SHARE` and :data:`COMMON_MIN_DOCS`. All False unless at least one word
    is common and one is not (the rare words' documents are the candidates)."""
    least = max(COMMON_MIN_DOCS, COMMON_SHARE * doc_count)
    common = [df >= least for df in dfs]
    if not any(common) or all(common):
        return [False] * len(dfs)
    return common


def partial_sums(
    words: Sequence[Sequence[int]],
    scales: Sequence[float],
    idfs: Sequence[Callable[[int], float]],
    dfs: Sequence[int],
    common: Sequence[bool],
    rare_lists: Mapping[int, Postings],
    weights_at: Callable[[int, set[int]], Mapping[int, float]],
    K1: float,
) -> tuple[dict[int, float], float]:
    """Each candidate document's BM25F score and the bound on any other's.

    Args:
        words: each word's clause indexes, in the query's order.
        scales, idfs: each word's scale and IDF of its document frequency.
        dfs: each word's document frequency (its clauses' documents, united).
        common: which words are summed only at the candidates.
        rare_lists: the postings of every clause of a word not common.
        weights_at: ``(clause index, documents)`` → the clause's weight at each of
            those documents it holds.
        K1: the saturation.

    Returns:
        (document → score for every document of a rare word, the sum of the common
        words' ``scale * idf(df)`` that are > 0).
    """
    candidates: set[int] = set()
    for word, skip in zip(words, common, strict=True):
        if not skip:
            for i in word:
                candidates.update(rare_lists[i].docs)
    acc: dict[int, float] = {}
    get = acc.get
    bound = 0.0
    for word, scale, idf, df, skip in zip(words, scales, idfs, dfs, common, strict=True):
        tf: dict[int, float] = {}
        tget = tf.get
        if skip:
            if not df:
                continue
            for i in word:
                for d, x in weights_at(i, candidates).items():
                    tf[d] = tget(d, 0.0) + x
            w = scale * idf(df)
            bound += max(w, 0.0)
        else:
            for i in word:
                p = rare_lists[i]
                for d, x in zip(p.docs, p.weights, strict=True):
                    tf[d] = tget(d, 0.0) + x
            if not tf:
                continue
            w = scale * idf(len(tf))
        for d, t in tf.items():
            acc[d] = get(d, 0.0) + w * t / (K1 + t)
    return acc, bound


def pruned_top(
    scorer: TermScorer,
    clauses: Sequence[TermQuery],
    docs: Sequence[array[int]],
    words: Sequence[Sequence[int]],
    scales: Sequence[float],
    idfs: Sequence[Callable[[int], float]],
    k1: float,
    limit: int,
    allow: frozenset[int] | None,
    mask: frozenset[int],
    field_b: Mapping[str, float] | None,
) -> list[tuple[float, int]] | None:
    """:meth:`TermScorer.top`'s ranking (``(-score, document)``, best first) with the
    common words summed only at the other words' documents: the same pairs, or None
    when no word is common or a document left out could reach the ``limit``-th score
    (the caller sums every posting). ``docs``: each clause's live documents."""
    # A word's largest clause is a floor of its document frequency: enough to choose;
    # only the common words' unions are counted here.
    common = common_words([max(len(docs[i]) for i in w) for w in words], scorer.doc_count)
    if not any(common):
        return None
    dfs = [
        len(set().union(*(docs[i] for i in w))) if skip else 0
        for w, skip in zip(words, common, strict=True)
    ]
    rare = {
        i: scorer.postings(clauses[i], field_b)
        for w, skip in zip(words, common, strict=True)
        if not skip
        for i in w
    }

    # each segment's reader, offset and id, as the scorer numbers them (offsets ascending)
    leaves = [(leaf, offset, segment_id(leaf)) for leaf, offset in scorer.reader.leaf_readers()]

    def weights_at(i: int, candidates: set[int]) -> dict[int, float]:
        return _weights_at(scorer, leaves, clauses[i], field_b, docs[i], candidates)

    acc, bound = partial_sums(words, scales, idfs, dfs, common, rare, weights_at, k1)
    candidates: Collection[int] = acc.keys() if allow is None else acc.keys() & allow
    if mask:
        candidates = set(candidates) - mask
    if len(candidates) < limit:
        return None
    floor = heapq.nlargest(limit, [acc[d] for d in candidates])[-1]
    if not bound * (1 + BOUND_MARGIN) < floor:
        return None
    return best(acc, candidates, limit, whole=False)


def _weights_at(
    scorer: TermScorer,
    leaves: Sequence[tuple[Any, int, str]],
    clause: TermQuery,
    field_b: Mapping[str, float] | None,
    docs: array[int],
    candidates: set[int],
) -> dict[int, float]:
    """The clause's weights (as :meth:`TermScorer.postings` makes them: the same
    floats) at those of ``candidates`` among its live documents ``docs``."""
    held = sorted(candidates.intersection(docs))
    if not held:
        return {}
    field = clause.field
    B = (field_b or {}).get(field, scorer.field_B.get(field, scorer.B))
    avgfl, w = scorer.avg_field_length(field), 1.0 if clause.alone else clause.boost
    out: dict[int, float] = {}
    ends = [offset for _, offset, _ in leaves[1:]] + [None]
    for (leaf, offset, segid), end in zip(leaves, ends, strict=True):
        lo = bisect_left(held, offset)
        hi = len(held) if end is None else bisect_left(held, end)
        if lo == hi:
            continue
        ids, tfs = scorer.segments.postings(segid, leaf, field, clause.text)
        codes, table = scorer.segments.lengths(segid, leaf, field)
        norms = scorer.segments.divisors(segid, field, B, avgfl, table)
        for d in held[lo:hi]:
            out[d] = (w * tfs[bisect_left(ids, d - offset)]) / norms[codes[d - offset]]
    return out
