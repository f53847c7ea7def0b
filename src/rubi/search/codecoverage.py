"""How much of a long question a code file answers: the text list of a search of code
alone, reordered by how much of the question's IDF mass each file matches.

A code file's own fields (its name, symbols and comments) score each query word on its
own (:data:`rubi.index.schema.SOLO_FIELDS`), so one word of a question in a file's name
or in the symbols of a large module adds as much as a word the body repeats: for a
question asked in plain words (six to twenty content words, most common in the code), a
central module that names many of the common words, or a file named by one of them,
outranked the file holding most of the question. Scoring each file by its BM25F score
times the square root of its share of the question's IDF mass (the coordination factor
of the vector-space model, softened; ``BM25Hit.coverage``) lets a file that matches more
of the question come first, while a question of a few words (a name, a keyword phrase,
where each word is essential and one strong field match is the answer) is left as BM25F
ranks it. Measured on code search (NDCG@10, development halves only):
``docs/benchmarks-history.md``, "issue 28: code search, ninth pass".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rubi.index.bm25params import BM25_CODE_QUESTION_FIELD_B
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import BM25Hit

__all__ = [
    "COVERAGE_MAX_WORDS",
    "COVERAGE_MIN_WORDS",
    "COVERAGE_POWER",
    "by_coverage",
    "question_field_b",
    "question_words",
]

COVERAGE_MIN_WORDS = 6
"""Distinct content words (English analysis, stop words dropped) from which a question
is reordered by coverage; a shorter one keeps BM25F's order. Most questions of the
public benchmark (keyword phrases) have fewer, most of the unseen sets' plain-words
questions more."""
COVERAGE_MAX_WORDS = 20
"""Distinct content words above which a query is not a question but a document (a
GitHub issue, a log) reduced to its discriminative words (:mod:`rubi.search.longquery`
keeps 32 written words: 25 or more content words): there many matched words are
incidental, and coverage sent the issue's changed files down (issue -> files, whole
issue, development halves: MRR@10 0.729 -> 0.690). The code sets' questions have at most
13."""
COVERAGE_POWER = 0.5
"""The exponent of the coverage factor: 1 (the full coordination factor) cost more on
short keyword questions and gained no more on long ones."""


def question_words(query: str, analysis: QueryAnalysis | None = None) -> int:
    """The number of distinct content words of ``query`` (English analysis; from
    ``analysis``, the search's own analysis of the query, when it is one of ``query``:
    a prompt is analysed once for all its searches)."""
    return len(set(QueryAnalysis.of(query, analysis).terms(query)))


def by_coverage(hits: Sequence[BM25Hit], words: int) -> list[BM25Hit]:
    """``hits`` (a code search's text list) with each score times its coverage to the
    :data:`COVERAGE_POWER`, best first (ties in the given order), when the question has
    :data:`COVERAGE_MIN_WORDS` to :data:`COVERAGE_MAX_WORDS` content words (``words``);
    else as given."""
    if not COVERAGE_MIN_WORDS <= words <= COVERAGE_MAX_WORDS:
        return list(hits)
    scored = [replace(h, score=h.score * h.coverage**COVERAGE_POWER) for h in hits]
    return sorted(scored, key=lambda h: -h.score)


def question_field_b(words: int) -> Mapping[str, float] | None:
    """The length normalisation of a code search's fields for a query of ``words``
    distinct content words: :data:`~rubi.index.bm25params.BM25_CODE_QUESTION_FIELD_B`
    for a plain-words question (the questions :func:`by_coverage` reorders), the
    index's own (None) for a name, a few keywords or a document."""
    if COVERAGE_MIN_WORDS <= words <= COVERAGE_MAX_WORDS:
        return BM25_CODE_QUESTION_FIELD_B
    return None
