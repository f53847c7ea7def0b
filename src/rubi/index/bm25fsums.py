"""BM25F sums over a query's postings: each document's score word by word, and the best
``limit`` of them, in pure Python or, for long postings when numpy is loaded, with numpy
to the same last bit (:class:`rubi.index.termscore.TermScorer` calls these; the scoring
itself is described there: Robertson, Zaragoza & Taylor 2004, fields' frequencies added
before one saturation)."""

from __future__ import annotations

import heapq
import sys
from array import array
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Postings", "best", "best_allowed", "best_numpy", "loaded_numpy", "word_sums"]


@dataclass(frozen=True, slots=True)
class Postings:
    """A clause's live postings: ascending global document numbers and, beside each,
    the term's frequency weighted and length-normalised
    (``boost * tf / ((1 - b) + b * len / avglen)``: its share of the word's ``tf~``)."""

    docs: array[int]
    weights: array[float]


def word_sums(
    lists: Sequence[Postings],
    words: Sequence[Sequence[int]],
    scales: Sequence[float],
    idfs: Sequence[Callable[[int], float]],
    K1: float,
) -> dict[int, float]:
    """Each document's BM25F score: per word (its clauses' indexes into ``lists``),
    ``tf~`` added clause by clause, then ``scale * idf(df) * tf~ / (K1 + tf~)`` added
    word by word, ``df`` the documents holding the word in any clause (its ``tf~`` >
    0), ``scale`` the word's in ``scales`` (1, or an alone clause's boost)."""
    acc: dict[int, float] = {}
    get = acc.get
    for word, scale, idf in zip(words, scales, idfs, strict=True):
        # The first clause's weights as they are (0.0 + x is x: weights are > 0),
        # then the others' added clause by clause.
        held = [lists[i] for i in word if lists[i].docs]
        tf: dict[int, float] = dict(zip(held[0].docs, held[0].weights, strict=True)) if held else {}
        tget = tf.get
        for p in held[1:]:
            for d, x in zip(p.docs, p.weights, strict=True):
                tf[d] = tget(d, 0.0) + x
        if not tf:
            continue
        w = scale * idf(len(tf))
        for d, t in tf.items():
            acc[d] = get(d, 0.0) + w * t / (K1 + t)
    return acc


def best(
    acc: dict[int, float], candidates: Collection[int], limit: int, *, whole: bool
) -> list[tuple[float, int]]:
    """``heapq.nsmallest(limit, [(-acc[d], d) for d in candidates])``: the ``limit``
    best scores, ties by the lower document number. The ``limit``-th best score is
    found on the bare floats first, so only the documents scoring at least that make a
    tuple (a query of common words matches thousands). ``whole``: the candidates are
    all of ``acc``."""
    if len(candidates) <= limit:
        return sorted((-acc[d], d) for d in candidates)
    scores = acc.values() if whole else [acc[d] for d in candidates]
    floor = heapq.nlargest(limit, scores)[-1]
    if whole:
        pool = [(-s, d) for d, s in acc.items() if s >= floor]
    else:
        pool = [(-acc[d], d) for d in candidates if acc[d] >= floor]
    pool.sort()
    return pool[:limit]


def best_allowed(
    acc: dict[int, float], allow: frozenset[int] | None, mask: frozenset[int], limit: int
) -> list[tuple[float, int]]:
    """:func:`best` of ``acc``'s documents (every sum > 0: idf > 0, tf > 0) that are in
    ``allow`` (all when None) and not in ``mask``."""
    candidates: Collection[int] = acc.keys() if allow is None else acc.keys() & allow
    if mask:
        candidates = set(candidates) - mask
    return best(acc, candidates, limit, whole=allow is None and not mask)


def loaded_numpy() -> Any:
    """numpy when this process has imported it, else None (never imported for this: a
    cold hook). A module another thread is still importing is in ``sys.modules`` half
    made (no ``bincount`` yet): None too."""
    np = sys.modules.get("numpy")
    if np is None or getattr(getattr(np, "__spec__", None), "_initializing", False):
        return None
    return np


def best_numpy(
    np: Any,
    lists: Sequence[Postings],
    words: Sequence[Sequence[int]],
    scales: Sequence[float],
    idfs: Sequence[Callable[[int], float]],
    K1: float,
    limit: int,
    mask: frozenset[int],
) -> list[tuple[float, int]]:
    """:func:`best` of :func:`word_sums` over every document but ``mask``, with
    numpy: the documents are numbered by a mask of the document numbers met (ascending,
    as ``numpy.unique`` numbers them), then each word's frequencies are added by
    ``numpy.bincount`` over its clauses' postings in the order given (clause by clause,
    as the dict does) and its saturated score added to each document's in word order (a
    word a document lacks adds 0.0), so the sums, and the hits, are equal to the last
    bit. Ties by the lower document number. The cost follows the postings and the
    largest document number, not a sort of the (word, document) pairs (3 times the CPU
    on obsidian-hub's questions)."""
    held = [i for word in words for i in word if lists[i].docs]  # in the dict's order
    if not held:
        return []
    docs = np.concatenate([np.frombuffer(lists[i].docs, dtype=np.intc) for i in held])
    weights = np.concatenate([np.frombuffer(lists[i].weights, dtype=np.float64) for i in held])
    present = np.zeros(int(docs.max()) + 1, dtype=np.bool_)
    present[docs] = True
    cands = np.flatnonzero(present)  # the documents met, ascending
    n = len(cands)
    inverse = (np.cumsum(present, dtype=np.intp) - 1)[docs]  # each posting's document
    acc = np.zeros(n)
    start = 0
    for word, scale, idf in zip(words, scales, idfs, strict=True):
        size = sum(len(lists[i].docs) for i in word)  # its postings are consecutive
        if not size:
            continue
        part = inverse[start : start + size]
        tf = np.bincount(part, weights=weights[start : start + size], minlength=n)
        df = int(np.count_nonzero(np.bincount(part, minlength=n)))
        acc += (scale * idf(df)) * tf / (K1 + tf)
        start += size
    if mask:
        kept = ~np.isin(cands, np.fromiter(mask, dtype=np.intp, count=len(mask)))
        cands, acc = cands[kept], acc[kept]
    if len(cands) > limit:
        floor = np.partition(acc, len(acc) - limit)[len(acc) - limit]
        top = acc >= floor
        cands, acc = cands[top], acc[top]
    order = np.lexsort((cands, -acc))[:limit]
    return list(zip((-acc[order]).tolist(), cands[order].tolist(), strict=True))
