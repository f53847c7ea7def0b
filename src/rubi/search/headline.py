"""A long query's headline searched on its own, its hits fused with the whole's.

A GitHub issue is a title, a blank line and a body; a pasted report or a long prompt
often has the same shape (a first line that says what it is about, then the detail).
Reduced to its most discriminative words (:mod:`rubi.search.longquery`), the whole
text finds the files that share its rare words: a traceback's frames, an example's
names, a log's lines. The headline alone finds what the author says it is about. On the
issue → files development halves the headline alone found the changed files better
than the reduced whole (MRR@10 0.785 / 0.735 against 0.766 / 0.701, design / check
group), and the two fused better than either (0.791 / 0.751;
``docs/benchmarks-history.md``,
"issue 28: issue → files, a written path and the headline, twenty-fifth pass").

So a query that was reduced and whose first paragraph (the text before its first
blank line) has at most :data:`~rubi.search.longquery.LONG_QUERY_WORDS` written words
is searched twice, whole and headline, and the two hit lists are fused by reciprocal
rank fusion with equal weights (Cormack, Clarke & Büttcher 2009, "Reciprocal rank
fusion outperforms Condorcet and individual rank learning methods"; ``k`` =
:data:`~rubi.search.fuse.RRF_K`, the engine's own).

Such a query asks for tests, examples or type declarations
(:func:`rubi.search.nodeweights.wants_tests`) only in its headline: its whole search
reads the headline for that (``asks`` of :func:`rubi.search.engine.search_index`),
not the body's words. A report's body says "test" and "example" as a matter of
course (an issue template's "### Example", "Test passed" under "Current behavior", a
file ``test.py`` to reproduce with), and read there the words turned off the half
weight of test files for the whole issue, so test files that repeat the example's
names came first above the source (``docs/benchmarks-history.md``, "issue 28: a
reduced query asks for tests in its headline, twenty-seventh pass").
"""

from __future__ import annotations

import dataclasses
import re

from rubi.search.fuse import RRF_K
from rubi.search.hits import Hit, SearchResult
from rubi.search.longquery import LONG_QUERY_WORDS, written_words

__all__ = ["fuse_headline", "headline"]

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_HEADING_MARK = re.compile(r"^\s{0,3}#{1,6}\s+")
"""A markdown ATX heading's marker (``# Title``), left out of the headline."""


def headline(query: str) -> str:
    """The first paragraph of ``query`` (before its first blank line; a markdown heading
    marker left out), one line, when it has 1 to
    :data:`~rubi.search.longquery.LONG_QUERY_WORDS` written words and a body follows;
    "" otherwise (no blank line, nothing after it, or a first paragraph as long as a
    question is not)."""
    parts = _BLANK_LINE.split(query.replace("\r\n", "\n").strip(), maxsplit=1)
    if len(parts) < 2 or not parts[1].strip():
        return ""
    head = " ".join(_HEADING_MARK.sub("", parts[0]).split())
    count = len(written_words(head))
    return head if 0 < count <= LONG_QUERY_WORDS else ""


def fuse_headline(whole: SearchResult, head: SearchResult, top_k: int) -> SearchResult:
    """``whole``'s result with its hits and ``head``'s fused: each hit scored
    ``1 / (k + rank)`` summed over the two lists (rank from 1), best first, at most
    ``top_k``; ties keep ``whole``'s order, then ``head``'s. A hit in both lists is
    ``whole``'s (its reasons are the whole query's); its score is the fused one, so
    scores stay in the order shown. Everything else (coverage, the relevance floor,
    the candidate count) is ``whole``'s: the headline ranks, it does not judge."""
    scores: dict[str, float] = {}
    hits: dict[str, Hit] = {}
    for result in (whole, head):
        for rank, hit in enumerate(result.hits, start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
            hits.setdefault(hit.id, hit)
    order = sorted(scores, key=lambda i: -scores[i])  # stable: whole's order, then head's
    fused = [dataclasses.replace(hits[i], score=round(scores[i], 6)) for i in order[:top_k]]
    return dataclasses.replace(whole, hits=fused)
