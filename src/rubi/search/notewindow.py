"""How closely a note holds a question: the share of the question's IDF mass found
within one window of :data:`WINDOW_WORDS` consecutive words of the note, and the text
list of a search of notes reordered by it.

BM25F scores a note as one bag of words, so a long page (a guide of 3,000 words, a
blog post, a release note, a design document) that mentions each of a plain-words
question's common words somewhere matched it as well as the short page, or the one
section, where the words meet: on the knowledge-base development halves the note
ranked above the answer was most often such a page (k6's "running large tests" guide
of 3,047 words above a 256-word method page; an OpenTelemetry blog post of 2,186
words above the 224-word page that answers). Passage-level evidence ranks a document
by its best passage (Callan 1994, "Passage-level evidence in document retrieval";
Kaszkiel & Zobel 1997, fixed-length passages starting anywhere, of 150 to 300 words
best; here a little shorter): each of the first :data:`WINDOW_HITS` text hits'
scores is multiplied by the share of the question's IDF mass that one window of its
text holds (:data:`WINDOW_POWER`), and those hits are re-sorted. A note shorter than the window
is one window, so a short page is scored by how much of the question it holds at
all; a long one by its best stretch. In a search of notes and code together a code
file is measured by the same window. A search of code alone has its own rule
(:mod:`rubi.search.codewindow`), which counts lines; a note's lines are paragraphs of any
length, so here the window counts words. A term is found as the code rule finds it:
where a word, or an identifier's part, starts with its key and analyses to it (no
note is analysed whole: 20 notes a question, a millisecond each, cost 12 ms of CPU a
search), but for an Arabic-script term, which each Arabic-script word of the note is
analysed for (:func:`rubi.search.arabicwords.arabic_offsets`: the script writes its
article and particles against the word, and the stemmer's root is no prefix of it).

Only questions of :data:`~rubi.search.codecoverage.COVERAGE_MIN_WORDS` to ``MAX``
content words are reordered (the code rules' bounds; a Korean word counts once, not as
the bigrams the index cuts it into, :attr:`NoteQuestion.size`): a name or a few keywords
keep BM25F's order, and a long prompt or issue (reduced to its discriminative words,
:mod:`rubi.search.longquery`) is a document, not a question. The question's terms are
those of its own language's chain among the index's
(:func:`~rubi.index.language.query_chain`; English when it cannot tell and the index
has English notes), and a note's text is analysed
by the same chain, so a word and its stem meet as the index matched them. Measured on
the knowledge-base development halves: ``docs/benchmarks-history.md``, "issue 28:
knowledge bases, thirteenth pass".

The window's unit is the question's word, as BM25F's is (its terms saturate together):
a word of a language read twice (its own stem and English's,
:func:`rubi.index.wordterm.word_terms`) weighs, in a window, the largest IDF of its
terms the window holds, and in the question's mass its largest term's
(:func:`best_word_window`). Each term counted on its own, a word whose two stemmers
disagree (Dutch ``doorzichtig``: ``doorzicht``, ``doorzichtig``) weighed twice one
whose stemmers agree (``kleur``); counted once at its more specific reading's IDF, a
note writing the question's own form is told from one writing a relative of it
(Norwegian ``vilkårlig`` against ``vilkår``). Measured on 32 language development
halves: ``docs/benchmarks-history.md``, "issue 28: languages still below their own
BM25, twenty-first pass".
"""

from __future__ import annotations

import _thread  # threading's Lock, without its import
import math
from array import array
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rubi.index.analysis import is_cjk, text_analyzer
from rubi.index.bm25params import BM25_K1, BM25_PROSE_FIELD_B, BM25_PROSE_K1
from rubi.index.language import query_chain
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import BM25Hit
from rubi.index.searchindex import SearchIndex
from rubi.search.codecoverage import COVERAGE_MAX_WORDS, COVERAGE_MIN_WORDS, question_words
from rubi.search.snippet import aligned_lower
from rubi.search.termat import holds_term, term_key

__all__ = [
    "MIN_SHARE",
    "WINDOW_HITS",
    "WINDOW_POWER",
    "WINDOW_WORDS",
    "NoteQuestion",
    "by_best_passage",
    "by_note_window",
    "note_question",
    "note_window_share",
    "question_bm25",
    "question_k1",
    "word_numbers",
]

WINDOW_WORDS = 120
"""Words in a window (as whitespace separates them; in prose about 100 of the index's
terms, stop words being no terms). Chosen on the k6 and OpenTelemetry development
halves among 120, 150, 200 and 250 words, then checked on four other knowledge bases
(none lower than without the rule); a window of 100 terms, counted by analysing every
note whole, ranked within a question or two of it at three times the cost
(``docs/benchmarks-history.md``, "issue 28: knowledge bases, thirteenth pass")."""
WINDOW_POWER = 1.0
"""The exponent of the window's share: the full coordination factor of the best
window. 0.5 (the code rule's) moved the same questions less."""
WINDOW_HITS = 20
"""Text hits reordered (the first of the text list; the rest follow in BM25F's order):
the notes that can reach the first ten. All 50 moved no answer more on the halves."""
MIN_SHARE = 0.01
"""The smallest share a hit is scored by: a note whose text holds none of the question
(found by its title or path alone) goes down, not to 0, which would leave the graph
walk's seeds without weight."""


OFFSETS_KEPT = 1_000_000
"""What a process's :class:`_Offsets` keeps, in units of one offset (4 bytes in an
``array`` of ``I``); an entry is charged its offsets and :data:`ENTRY_CHARGE` (its key,
array and link, about 250 bytes): about 4 MB in all. 60 varied questions on
obsidian-hub (6.5k notes) found 8,221 (note, term) pairs and 78,000 offsets, charged
604,000: this holds about a hundred such questions' pairs."""
ENTRY_CHARGE = 64
"""What :class:`_Offsets` charges an entry besides its offsets (in 4-byte units)."""


class _Offsets:
    """A note's offsets of one term (:func:`_term_offsets`), by the note text's digest
    (:func:`rubi.search.textkey.text_key`), the chain, the term and its key: the same
    text gives the same offsets, and a changed note has another digest, so nothing is
    invalidated by hand; least recently used first out past :data:`OFFSETS_KEPT`.
    Varied questions share their common words (a third of the offsets of 60 distinct
    questions on obsidian-hub were found before)."""

    def __init__(self, budget: int) -> None:
        self._budget = budget
        self._held = 0
        self._kept: OrderedDict[tuple[bytes, str, str, str], array[int]] = OrderedDict()
        self._guard = _thread.allocate_lock()

    def get(self, key: tuple[bytes, str, str, str]) -> array[int] | None:
        with self._guard:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[bytes, str, str, str], offsets: array[int]) -> None:
        with self._guard:
            if key in self._kept:
                return
            self._kept[key] = offsets
            self._held += len(offsets) + ENTRY_CHARGE
            while self._held > self._budget and len(self._kept) > 1:
                _, gone = self._kept.popitem(last=False)
                self._held -= len(gone) + ENTRY_CHARGE

    def clear(self) -> None:
        with self._guard:
            self._kept.clear()
            self._held = 0


_OFFSETS = _Offsets(OFFSETS_KEPT)


@dataclass(frozen=True, slots=True)
class NoteQuestion:
    """A question's distinct terms in one analysis chain (``lang``), each with the
    prefix looked for in a note's text (``keys``, lower case) and its IDF (``idfs``);
    ``words``: its distinct words as its language writes them (:func:`note_question`),
    or -1 for one word a term; ``readings``: each term's word, numbered from 0 in
    the order of first appearance (a word of a language read twice, its own stem and
    English's, has two terms: :func:`rubi.index.wordterm.word_terms`), or empty for
    one word a term."""

    lang: str
    terms: tuple[str, ...]
    keys: tuple[str, ...]
    idfs: tuple[float, ...]
    words: int = -1
    readings: tuple[int, ...] = ()

    @property
    def mass(self) -> float:
        """The question's IDF mass: the sum of its words' IDFs, each word its largest
        term's (a word is held at most by its most specific reading)."""
        if not self.readings:
            return math.fsum(self.idfs)
        top: dict[int, float] = {}
        for word, idf in zip(self.readings, self.idfs, strict=True):
            top[word] = max(idf, top.get(word, idf))
        return math.fsum(top.values())

    @property
    def size(self) -> int:
        """The question's words, by which :func:`by_note_window` decides whether it
        is a question: :attr:`words`, or its terms when not given."""
        return self.words if self.words >= 0 else len(self.terms)


def note_question(
    query: str,
    langs: Sequence[str],
    idf_of: Callable[[list[str]], Mapping[str, float]],
    analysis: QueryAnalysis | None = None,
) -> NoteQuestion:
    """``query``'s distinct content terms in its language's chain (``langs``: the
    index's chains; :func:`rubi.index.language.query_chain`), with their IDFs from
    ``idf_of`` (a term it does not know weighs the largest, or 1.0); ``analysis``: the
    search's analysis of ``query``, whose tokens are reused (a prompt is analysed once
    for all its searches)."""
    lang = query_chain(query, langs)
    analyzer = text_analyzer(lang)
    found: dict[str, str] = {}
    word_of: dict[str, int] = {}  # a term -> its word (a word's readings are one word)
    numbered = 0  # words numbered so far
    for surface in QueryAnalysis.of(query, analysis).surfaces(query):
        read = analyzer.terms_of(surface)
        known = [word_of[term] for term in read if term in word_of]
        if known:
            word = known[0]
        elif read:
            word, numbered = numbered, numbered + 1
        else:
            continue
        for term in read:
            found.setdefault(term, term_key(surface, term))
            word_of.setdefault(term, word)
    terms = tuple(found)
    idf = idf_of(list(terms)) if terms else {}
    top = max(idf.values(), default=1.0)
    # Korean writes its words between spaces, and the index cuts each into bigrams
    # (a word of four syllables is three terms): a Korean word counts once, a lone
    # syllable (a particle written against a Latin word) not at all.
    korean: list[tuple[str, ...]] = []
    if not query.isascii():  # Hangul is not ASCII: the CJK module for such prompts only
        from rubi.index.cjkwords import korean_words

        korean = korean_words(query)
    words = sum(not _hangul(t) for t in terms) + len(korean) if korean else -1
    return NoteQuestion(
        lang,
        terms,
        tuple(found.values()),
        tuple(idf.get(t, top) for t in terms),
        words,
        tuple(word_of[t] for t in terms),
    )


def _hangul(term: str) -> bool:
    """Whether ``term`` is a Hangul bigram or syllable (U+AC00-U+D7AF)."""
    return all("\uac00" <= ch <= "\ud7af" for ch in term)


def question_k1(asked: NoteQuestion | None) -> float | None:
    """The BM25F saturation of a search of notes for ``asked`` (None, for a search that
    is not of notes: None, the index's own): :data:`BM25_PROSE_K1`
    for a question the window reorders (:data:`COVERAGE_MIN_WORDS` to ``MAX`` terms,
    :func:`by_note_window`), whose best window then measures how many of its words
    meet, so a note's score may follow how much it is about each word;
    :data:`BM25_K1` for a name or a few keywords, where saturation is what measures
    it (at 2.0 "how do I sync between phone and desktop" put two pages repeating
    "sync" above the one holding all three words)."""
    if asked is None:
        return None
    if COVERAGE_MIN_WORDS <= asked.size <= COVERAGE_MAX_WORDS:  # as the window counts
        return BM25_PROSE_K1
    return BM25_K1


def question_bm25(
    asked: NoteQuestion | None,
) -> tuple[float | None, Mapping[str, float] | None]:
    """BM25F's saturation (:func:`question_k1`) and its fields' length normalisation
    for ``asked``: :data:`BM25_PROSE_FIELD_B` with :data:`BM25_PROSE_K1` (a
    plain-words question of notes: a page's words then count by how much of the page
    they are), the index's own (None) otherwise."""
    k1 = question_k1(asked)
    return k1, BM25_PROSE_FIELD_B if k1 == BM25_PROSE_K1 else None


def note_window_share(
    text: str, question: NoteQuestion, window: int = WINDOW_WORDS, digest: bytes | None = None
) -> float | None:
    """The largest share (0 to 1) of ``question``'s IDF mass held by ``window``
    consecutive words of ``text`` (words as whitespace separates them); None for a
    question without terms (nothing to measure). ``digest``: ``text``'s
    :func:`~rubi.search.textkey.text_key`, to keep and reuse each term's offsets in
    it (the same share either way)."""
    mass = question.mass
    if mass <= 0:
        return None
    found = _term_offsets(text, question, digest)
    found.sort()
    ats = word_numbers(text, [pos for pos, _ in found])
    terms = [index for _, index in found]
    words = question.readings
    if words and len(set(words)) < len(words):  # a word of two terms
        best = best_word_window(ats, terms, question.idfs, words, window)
    else:
        from rubi.search.codewindow import best_window  # questions the window measures

        best = best_window(ats, terms, question.idfs, window)[0]
    return min(1.0, best / mass)


def best_word_window(
    ats: Sequence[int],
    terms: Sequence[int],
    idfs: Sequence[float],
    readings: Sequence[int],
    width: int,
) -> float:
    """The largest IDF mass of distinct words one window of ``width`` places holds, a
    word weighing the largest IDF of its terms the window holds (a sliding window, in
    one pass): :func:`rubi.search.codewindow.best_window` with a question's word, not
    its term, as the unit.

    Args:
        ats: each found term's place (a word number), ascending.
        terms: each found term's index into ``idfs``, in the same order.
        idfs: each question term's IDF.
        readings: each question term's word (:attr:`NoteQuestion.readings`).
        width: places a window spans.
    """
    held = [0] * len(idfs)  # occurrences of each term in the window
    weight = [0.0] * (max(readings, default=-1) + 1)  # each word's weight in the window
    of_word: dict[int, list[int]] = {}
    for term, word in enumerate(readings):
        of_word.setdefault(word, []).append(term)
    now = best = 0.0
    first = 0
    for at, index in zip(ats, terms, strict=True):
        while ats[first] <= at - width:
            gone = terms[first]
            held[gone] -= 1
            if not held[gone]:  # the word now weighs its largest reading still held
                word = readings[gone]
                left = 0.0
                for term in of_word[word]:
                    if held[term] and idfs[term] > left:
                        left = idfs[term]
                now += left - weight[word]
                weight[word] = left
            first += 1
        word = readings[index]
        if idfs[index] > weight[word]:
            now += idfs[index] - weight[word]
            weight[word] = idfs[index]
        held[index] += 1
        if now > best:
            best = now
    return best


def word_numbers(text: str, offsets: Sequence[int]) -> list[int]:
    """The number of each offset's word in ``text`` (words as whitespace separates
    them; 0 for the first), for ascending ``offsets``."""
    ats: list[int] = []
    word = last = 0
    for pos in offsets:
        if pos != last:
            word += len(text[last:pos].split())
            last = pos
        ats.append(word)
    return ats


def _term_offsets(
    text: str, question: NoteQuestion, digest: bytes | None = None
) -> list[tuple[int, int]]:
    """``(offset, term index)`` of every place ``text`` holds one of ``question``'s
    terms: where a word, or an identifier's part, starts with the term's key and
    analyses to the term (a CJK bigram anywhere in its run, as indexed); in term
    order. Each distinct part or word is analysed once a call (a common word's key is
    found hundreds of times in a long note); with ``digest`` (``text``'s), each term's
    offsets are kept (:class:`_Offsets`) and taken from there the next time. The keys
    are found in the text lower-cased as written (a key is the question's word as
    written, :func:`rubi.search.termat.term_key`, so an accent the question writes
    is looked for as written): the window does not see a word the index matched only by folding an
    accent the question and the note write differently (the question's ``methode`` in
    the text's ``méthode``). Finding the keys in the text folded as the index folds it
    (seventeenth pass, chosen on 29 language halves) cost on the halves it was not
    chosen on and was taken back: ``docs/benchmarks-history.md``, "issue 28: ranking
    rules on sets they were not designed on, eighteenth pass"."""
    lang = question.lang
    found: list[tuple[int, int]] = []
    low = ""
    arabic: dict[str, list[int]] | None = None
    for index, (term, key) in enumerate(zip(question.terms, question.keys, strict=True)):
        kept: Sequence[int] | None = None
        if digest is not None:
            kept = _OFFSETS.get((digest, lang, term, key))
        if kept is None:
            low = low or aligned_lower(text)
            if "\u0600" <= term[:1] <= "\u077f" and _arabic(term):
                if arabic is None:
                    from rubi.search.arabicwords import arabic_offsets

                    arabic = arabic_offsets(low, lang)
                kept = arabic.get(term, [])
            else:
                kept = _offsets_of(text, low, term, key, lang)
            if digest is not None:
                _OFFSETS.put((digest, lang, term, key), array("I", kept))
        found += [(pos, index) for pos in kept]
    return found


def _arabic(term: str) -> bool:
    """:func:`rubi.search.arabicwords.arabic_script`, its module imported only for a
    term in that range of code points (a question in another script imports nothing)."""
    from rubi.search.arabicwords import arabic_script

    return arabic_script(term)


def _offsets_of(text: str, low: str, term: str, key: str, lang: str) -> list[int]:
    """The offsets of :func:`_term_offsets` for one term (``low``: ``text`` lower-cased,
    its offsets ``text``'s)."""
    terms_of = text_analyzer(lang).terms_of
    find = low.find
    found: list[int] = []
    add = found.append
    size = len(key)
    if not size:  # an empty key is at every offset (and the loop below would not move)
        return found
    pos = find(key)
    if is_cjk(term):
        while pos >= 0:
            add(pos)
            pos = find(key, pos + size)
        return found
    holds: dict[str, bool] = {}  # a part or a token -> it analyses to ``term``
    while pos >= 0:
        if holds_term(text, pos, term, terms_of, holds):
            add(pos)
        pos = find(key, pos + size)
    return found


def by_note_window(
    hits: Sequence[BM25Hit],
    asked: NoteQuestion,
    text_of: Callable[[BM25Hit], str],
    digest_of: Callable[[BM25Hit], bytes] | None = None,
) -> list[BM25Hit]:
    """``hits`` (the text list of a search of notes, or of notes and code) with the
    first :data:`WINDOW_HITS` scored times their :func:`note_window_share` of
    ``asked`` (at least :data:`MIN_SHARE`) to :data:`WINDOW_POWER` and re-sorted (ties
    in the given order), when the question has :data:`COVERAGE_MIN_WORDS` to
    :data:`COVERAGE_MAX_WORDS` words (:attr:`NoteQuestion.size`); else as given. A
    code file among notes is measured by the same window (left unmeasured, it rose
    above every note the rule lowered: a module repeating one word of the question
    above the note holding all of them); a hit whose text cannot be read (``text_of``
    gives "") keeps its score. ``digest_of``: a hit's text's digest, to reuse its
    terms' offsets (:func:`note_window_share`)."""
    if not COVERAGE_MIN_WORDS <= asked.size <= COVERAGE_MAX_WORDS:
        return list(hits)
    head = []
    for h in hits[:WINDOW_HITS]:
        text = text_of(h)
        digest = digest_of(h) if text and digest_of is not None else None
        share = note_window_share(text, asked, WINDOW_WORDS, digest) if text else None
        factor = 1.0 if share is None else max(share, MIN_SHARE) ** WINDOW_POWER
        head.append(replace(h, score=h.score * factor))
    head.sort(key=lambda h: -h.score)
    return [*head, *hits[WINDOW_HITS:]]


def by_best_passage(
    hits: Sequence[BM25Hit],
    code: bool,
    query: str,
    analysis: QueryAnalysis | None,
    index: SearchIndex,
    text_of: Callable[[BM25Hit], str],
    digest_of: Callable[[BM25Hit], bytes] | None = None,
    asked: NoteQuestion | None = None,
) -> list[BM25Hit]:
    """The text list ordered by each hit's best passage: in a search of code alone
    (``code``) by its best window of lines (:func:`rubi.search.codewindow.by_window`),
    else by a note's best window of terms (:func:`by_note_window`); ``text_of``: a
    hit's text ("" when it cannot be read); ``digest_of``: its digest (a note's terms'
    offsets are kept by it); ``asked``: the question's :func:`note_question`, made
    already by the caller (a new one otherwise)."""
    if code:
        from rubi.search.codewindow import by_window, window_shares  # a search of code

        shares = window_shares(query, index.term_idf, text_of)
        return by_window(hits, question_words(query, analysis), shares)
    if asked is None:
        asked = note_question(query, index.languages(), index.term_idf, analysis)
    return by_note_window(hits, asked, text_of, digest_of)
