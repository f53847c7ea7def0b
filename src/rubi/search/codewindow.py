"""How closely a code file holds a question: the share of the question's IDF mass found
within one window of :data:`WINDOW_LINES` consecutive lines, and the text list of a code
search reordered by it.

BM25F scores a file as one bag of words, so a large central module that mentions each of
a question's common words somewhere in its thousands of lines (``command.go``, a crate's
``lib.rs``, serde_json's ``value/mod.rs``) matched a plain-words question as well as the
small file, or the one function, where the words meet. Passage-level evidence ranks a
document by its best passage instead (Callan 1994, "Passage-level evidence in document
retrieval"; Kaszkiel & Zobel 1997, fixed-length passages starting anywhere): here each
text hit's score is multiplied by the share of the question's IDF mass that one window
of its file holds, to :data:`WINDOW_POWER` (the file's name and symbols still count in
its BM25F score, the factor reads its text alone). Only questions of six to twenty content words
are reordered (:data:`rubi.search.codecoverage.COVERAGE_MIN_WORDS` to ``MAX``, the
questions the coverage rule reorders); a name or a few keywords keep BM25F's order.
Measured on code search (NDCG@10, development halves only): ``docs/benchmarks-history.md``,
"issue 28: code search, tenth pass".

A term is found where one of the file's words starts with its *key* (the longest common
prefix of the query's word and the term, so ``happy`` -> ``happi`` looks for ``happ``), at
the start of a word or of an identifier's part (``SessionMiddleware`` holds
``middleware``, ``HTTPServer`` holds ``server``), and that part, or the whole token
starting there (``SQLite`` holds ``sqlite``), analysed as code gives the term
(:func:`rubi.search.termat.holds_term`): the same terms the index holds, found by
``str.find`` instead of analysing every line. Cost: 6 to 9 ms of CPU
per code search of such a question (``bench/code_window_cost.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rubi.index.analysis import is_cjk, text_analyzer
from rubi.index.querymatch import BM25Hit
from rubi.search.codecoverage import COVERAGE_MAX_WORDS, COVERAGE_MIN_WORDS
from rubi.search.snippet import aligned_lower
from rubi.search.termat import holds_term, part_at, term_key

__all__ = [
    "MIN_SHARE",
    "WINDOW_HITS",
    "WINDOW_LINES",
    "WINDOW_POWER",
    "QuestionTerms",
    "best_window",
    "by_window",
    "part_at",
    "question_terms",
    "window_share",
    "window_shares",
]

WINDOW_LINES = 30
"""Lines in a window: about one function or a class's few methods. Measured beside it
(NDCG@10, mean of the development halves of code-unseen, code-unseen2 and
code-unseen3, a first version reading every line): 15 lines 0.821, 30 0.829, 60 0.818;
0.814 without the rule."""
WINDOW_POWER = 0.5
"""The exponent of the window's share (a softened coordination factor, as the coverage
rule's :data:`rubi.search.codecoverage.COVERAGE_POWER`)."""
WINDOW_HITS = 20
"""Text hits reordered (the first of the text list; the rest follow in BM25F's order):
the files that can reach the first ten (read once: the shown hits' snippets use the
same text). All 50 of the list: 0.825 on the same three halves, with 2.5 times the
files read."""
UNREAD_SHARE = 1.0
"""The factor of a hit whose file cannot be read (gone since indexing, refused), or of
a question without terms to look for: left as BM25F ranks it."""
MIN_SHARE = 0.01
"""The smallest share a hit is scored by: a file whose text holds none of the question
(found by its name alone) goes down, not to a score of 0, which would leave the graph
walk's seeds without weight."""


@dataclass(frozen=True, slots=True)
class QuestionTerms:
    """A question's distinct terms as the index analyses code, each with the prefix
    looked for in a file's text (``keys``, lower case) and its IDF (``idfs``)."""

    terms: tuple[str, ...]
    keys: tuple[str, ...]
    idfs: tuple[float, ...]

    @property
    def mass(self) -> float:
        """The question's IDF mass (the sum of its terms' IDFs)."""
        return math.fsum(self.idfs)


def question_terms(query: str, idf_of: Callable[[list[str]], Mapping[str, float]]) -> QuestionTerms:
    """The distinct terms of ``query`` in the code chain, their keys and their IDFs
    (``idf_of``: terms -> IDF, the index's; a term it does not know weighs its
    largest, or 1.0)."""
    analyzer = text_analyzer("code")
    found: dict[str, str] = {}
    for surface in analyzer.surface(query):
        for term in analyzer.terms_of(surface):
            found.setdefault(term, term_key(surface, term))
    terms = tuple(found)
    idf = idf_of(list(terms)) if terms else {}
    top = max(idf.values(), default=1.0)
    return QuestionTerms(terms, tuple(found.values()), tuple(idf.get(t, top) for t in terms))


def window_share(text: str, question: QuestionTerms, lines: int = WINDOW_LINES) -> float | None:
    """The largest share (0 to 1) of ``question``'s IDF mass held by ``lines``
    consecutive lines of ``text``; None for a question without terms (nothing to
    measure)."""
    mass = question.mass
    if mass <= 0:
        return None
    terms_of = text_analyzer("code").terms_of
    low = aligned_lower(text)
    found: list[tuple[int, int]] = []  # (offset, term index)
    for index, (term, key) in enumerate(zip(question.terms, question.keys, strict=True)):
        cjk = is_cjk(term)  # a CJK bigram is found anywhere in its run, as indexed
        seen: dict[str, bool] = {}
        pos = low.find(key) if key else -1
        while pos >= 0:
            if cjk or holds_term(text, pos, term, terms_of, seen):
                found.append((pos, index))
                pos = low.find("\n", pos)  # one occurrence a line is enough
                if pos < 0:
                    break
            pos = low.find(key, pos + 1)
    found.sort()
    ats: list[int] = []  # each found term's line (0-based), in text order
    line = last = 0
    for pos, _ in found:
        line += text.count("\n", last, pos)
        last = pos
        ats.append(line)
    best = best_window(ats, [index for _, index in found], question.idfs, lines)[0]
    return min(1.0, best / mass)


def best_window(
    ats: Sequence[int], terms: Sequence[int], idfs: Sequence[float], width: int
) -> tuple[float, int, int]:
    """The largest IDF mass of distinct terms one window of ``width`` places holds
    (a sliding window over the found terms, in one pass), and the first and last
    index into ``ats`` of the window that holds it (0, -1 when nothing was found).

    Args:
        ats: each found term's place (a line or a word number), ascending.
        terms: each found term's index into ``idfs``, in the same order.
        idfs: each question term's IDF.
        width: places a window spans (a term at place ``p`` leaves it at ``p + width``).
    """
    held = [0] * len(idfs)  # occurrences of each term in the window
    now = best = 0.0
    first = start = 0
    end = -1
    for n, (at, index) in enumerate(zip(ats, terms, strict=True)):
        while ats[first] <= at - width:
            gone = terms[first]
            held[gone] -= 1
            if not held[gone]:
                now -= idfs[gone]
            first += 1
        if not held[index]:
            now += idfs[index]
        held[index] += 1
        if now > best:
            best, start, end = now, first, n
    return best, start, end


def by_window(
    hits: Sequence[BM25Hit], words: int, share_of: Callable[[BM25Hit], float | None]
) -> list[BM25Hit]:
    """``hits`` (a code search's text list) with the first :data:`WINDOW_HITS` scored
    times their file's :func:`window_share` (``share_of``; at least :data:`MIN_SHARE`;
    None: the file could not be read or the question has no terms,
    :data:`UNREAD_SHARE`) to :data:`WINDOW_POWER` and re-sorted (ties in the given
    order), when the question has :data:`COVERAGE_MIN_WORDS` to
    :data:`COVERAGE_MAX_WORDS` content words (``words``); else as given."""
    if not COVERAGE_MIN_WORDS <= words <= COVERAGE_MAX_WORDS:
        return list(hits)
    head = []
    for h in hits[:WINDOW_HITS]:
        share = share_of(h)
        factor = UNREAD_SHARE if share is None else max(share, MIN_SHARE) ** WINDOW_POWER
        head.append(replace(h, score=h.score * factor))
    head.sort(key=lambda h: -h.score)
    return [*head, *hits[WINDOW_HITS:]]


def window_shares(
    query: str,
    idf_of: Callable[[list[str]], Mapping[str, float]],
    text_of: Callable[[BM25Hit], str],
) -> Callable[[BM25Hit], float | None]:
    """Each hit's :func:`window_share` of ``query`` (its terms and IDFs asked of
    ``idf_of`` on the first hit read), the hit's text from ``text_of``; None when the
    text is "" (the file cannot be read) or the question has no terms."""
    asked: list[QuestionTerms] = []

    def share(hit: BM25Hit) -> float | None:
        text = text_of(hit)
        if not text:
            return None
        if not asked:
            asked.append(question_terms(query, idf_of))
        return window_share(text, asked[0])

    return share
