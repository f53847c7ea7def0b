"""Pseudo-relevance feedback: RM3, the relevance model of a first pass's top documents.

RM1 (Lavrenko & Croft 2001, "Relevance-based language models") estimates the words
of what the question is about from the documents a first pass ranked best:

    P(w | R)  ∝  sum over feedback documents d of  score(d) * tf(w, d) / |d|

with ``score(d)`` the first pass's score (the documents' weights summing to 1) and
``|d|`` the document's analysed length. RM3 (Abdul-Jaleel et al. 2004, "UMass at TREC
2004") keeps the ``terms`` heaviest words, normalises their weights to sum to 1 and
interpolates them with the question, ``alpha * P(w | Q) + (1 - alpha) * P(w | R)``;
Anserini's defaults are 10 documents, 10 terms and ``alpha`` 0.5, and, like Anserini,
a word more than :data:`MAX_DF_SHARE` of the documents hold is no feedback term.

Here the question's own words keep weight 1 each in the second BM25F pass (a query of
``n`` words is ``P(w | Q) = 1 / n`` scaled by ``n / alpha``: the ranking is the
same), so a feedback term weighs ``(1 - alpha) / alpha * n * P(w | R)``
(:func:`expansion_weights`); a feedback word that is already a question word adds
nothing (its clauses are the question's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from rubi.index.schema import CODE_SCOPE_FIELDS, DOCUMENT_LANGUAGE_FIELDS, FIELD_BOOSTS
from rubi.index.termscore import TermQuery, TermScorer

__all__ = ["MAX_DF_SHARE", "expansion_clauses", "expansion_weights", "relevance_model", "rm3"]

MAX_DF_SHARE = 0.1
"""A word held by more than this share of the live documents is no feedback term
(Anserini's RM3 filter): it tells one document from another too little."""


def relevance_model(
    docs: Sequence[tuple[float, Sequence[str]]],
    doc_frequency: Callable[[str], int],
    doc_count: int,
    terms: int,
    skip: Collection[str] = (),
) -> dict[str, float]:
    """RM1's ``P(w | R)`` of the feedback documents, its ``terms`` heaviest words,
    renormalised to sum to 1 (heaviest first; ties in the words' order).

    Args:
        docs: each feedback document's first-pass score (> 0) and analysed terms.
        doc_frequency: live documents holding a term (any field the caller reads).
        doc_count: live documents.
        terms: feedback terms kept at most (≥ 0).
        skip: terms never kept (the question's own).

    Returns:
        term → weight, empty when no document has a score or a kept term.
    """
    total = sum(max(score, 0.0) for score, _ in docs)
    if total <= 0 or terms <= 0:
        return {}
    model: dict[str, float] = {}
    for score, words in docs:
        if score <= 0 or not words:
            continue
        share = score / total / len(words)
        for word, tf in Counter(words).items():
            if _candidate(word, skip):
                model[word] = model.get(word, 0.0) + share * tf
    kept: dict[str, float] = {}
    limit = MAX_DF_SHARE * doc_count
    for word, weight in sorted(model.items(), key=lambda item: -item[1]):
        if doc_frequency(word) > limit:
            continue
        kept[word] = weight
        if len(kept) >= terms:
            break
    mass = sum(kept.values())
    return {w: v / mass for w, v in kept.items()} if mass > 0 else {}


def _candidate(word: str, skip: Collection[str]) -> bool:
    """A term that may be a feedback term: not skipped, not a number, two characters
    or more unless CJK (a Han bigram can be one character)."""
    if word in skip or word.isdigit():
        return False
    return len(word) >= 2 or not word.isascii()


def expansion_weights(model: Mapping[str, float], words: int, alpha: float) -> dict[str, float]:
    """Each feedback term's weight beside question words weighing 1 each: RM3's
    ``(1 - alpha) * P(w | R)`` over the question's ``alpha / words`` (``words`` ≥ 1,
    ``0 < alpha ≤ 1``; ``alpha`` 1 keeps none)."""
    if alpha >= 1 or words < 1:
        return {}
    scale = (1 - alpha) / alpha * words
    return {w: scale * p for w, p in model.items()}


def expansion_clauses(
    clauses: Sequence[TermQuery], weights: Mapping[str, float], fields: Iterable[str]
) -> list[TermQuery]:
    """``clauses`` and, for each feedback term of ``weights``, a word of its own in each
    of ``fields`` analysed in a document's language (where the feedback documents'
    terms come from), weighing its weight and counting in no share of the question's
    IDF mass (``origin`` -1: the relevance floor reads the question's words alone).
    A term the question's clauses already hold is left out."""
    held = {c.text for c in clauses}
    prose = [f for f in fields if f in DOCUMENT_LANGUAGE_FIELDS]
    out = list(clauses)
    word = max((c.word for c in clauses), default=-1) + 1
    for term, weight in weights.items():
        if term in held or weight <= 0:
            continue
        out.extend(TermQuery(f, term, FIELD_BOOSTS[f], word, weight=weight) for f in prose)
        word += 1
    return out


def rm3(
    feedback: Sequence[tuple[float, Sequence[str]]],
    terms: int = 10,
    alpha: float = 0.5,
    fields: Iterable[str] | None = None,
) -> Callable[[TermScorer, list[TermQuery]], list[TermQuery]]:
    """What adds RM3's feedback terms to a query (:meth:`SearchIndex.bm25`'s
    ``expand``): the ``terms`` heaviest words of the relevance model of ``feedback``
    (each feedback document's first-pass score and analysed terms; document
    frequencies in ``body``), interpolated at ``alpha``, in the prose fields of
    ``fields`` (None: every text field but the code-only ones)."""
    wanted = (
        list(fields)
        if fields is not None
        else [f for f in FIELD_BOOSTS if f not in CODE_SCOPE_FIELDS]
    )

    def expand(scorer: TermScorer, clauses: list[TermQuery]) -> list[TermQuery]:
        held = {c.text for c in clauses}
        model = relevance_model(
            feedback, lambda t: scorer.doc_frequency("body", t), scorer.doc_count, terms, held
        )
        words = len({c.origin for c in clauses if c.origin >= 0}) or 1
        return expansion_clauses(clauses, expansion_weights(model, words, alpha), wanted)

    return expand
