"""One query's analysis, done once and handed down a search.

A search analyses its query in several places: the text list weighs its words
(:func:`rubi.index.analysis.query_words`, :func:`rubi.index.querymatch.query_clauses`),
the name list compares a name with the query's terms, the why-lines and snippets map
terms back to what was written (:mod:`rubi.search.reasons`), and the recall hook
measures a hit against the prompt's terms before searching notes and then code with the
same prompt. A :class:`QueryAnalysis` is made once per request by whoever first needs
it and passed down; each analysis is computed on first use and kept in the value, not
in a process-wide cache, so it ends with the request. A caller asking about another
text than the value's (a query with the caller's extra terms joined to it) is
analysed afresh: the answers are always those of the functions in
:mod:`rubi.index.analysis`.
"""

from __future__ import annotations

from collections.abc import Iterable

from rubi.index.analysis import (
    analyze,
    identifier_parts,
    is_cjk,
    languages_in_use,
    query_words,
    text_analyzer,
)

__all__ = ["QueryAnalysis", "word_map"]


class QueryAnalysis:
    """The analysis of one query text (the words of a search, as it searches them).

    Attributes:
        text: the query as searched.
    """

    __slots__ = ("_maps", "_surfaces", "_terms", "_words", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._terms: dict[str, tuple[str, ...]] = {}
        self._words: dict[tuple[str, ...], list[dict[str, list[str]]]] = {}
        self._maps: tuple[dict[str, str], frozenset[str]] | None = None
        self._surfaces: tuple[str, ...] | None = None

    @classmethod
    def of(cls, text: str, given: QueryAnalysis | None) -> QueryAnalysis:
        """``given`` when it analyses ``text``, else a new analysis of ``text``."""
        return given if given is not None and given.text == text else cls(text)

    def __repr__(self) -> str:
        return f"QueryAnalysis({self.text!r})"

    def terms(self, text: str, lang: str = "en") -> list[str]:
        """:func:`~rubi.index.analysis.analyze` of ``text`` in chain ``lang`` (a new
        list each call); computed once for :attr:`text`."""
        if text != self.text:
            return analyze(text, lang)
        found = self._terms.get(lang)
        if found is None:
            found = self._terms[lang] = tuple(analyze(text, lang))
        return list(found)

    def words(
        self, text: str, langs: Iterable[str], join: bool = False
    ) -> list[dict[str, list[str]]]:
        """:func:`~rubi.index.analysis.query_words` of ``text`` in ``langs`` (a new
        copy each call: callers add to it); for :attr:`text`, its tokens are found
        once (the same in every chain) and the words once per chain set (a search of
        notes weighs other chains than one of code) and ``join``."""
        chains = tuple(langs)
        if text != self.text:
            return query_words(text, chains, join=join)
        key = (*chains, "+") if join else chains
        found = self._words.get(key)
        if found is None:
            if self._surfaces is None:
                self._surfaces = tuple(text_analyzer().surface(text))
            found = self._words[key] = query_words(text, chains, self._surfaces, join)
        return [{lang: list(terms) for lang, terms in word.items()} for word in found]

    def surfaces(self, text: str) -> tuple[str, ...]:
        """The tokens of ``text`` (:meth:`~rubi.index.analysis.TermAnalyzer.surface`,
        the same in every chain); computed once for :attr:`text`."""
        if text != self.text:
            return tuple(text_analyzer().surface(text))
        if self._surfaces is None:
            self._surfaces = tuple(text_analyzer().surface(text))
        return self._surfaces

    def word_map(self, text: str) -> tuple[dict[str, str], set[str]]:
        """:func:`word_map` of ``text`` (new containers each call); computed once for
        :attr:`text`."""
        if text != self.text:
            return word_map(text)
        if self._maps is None:
            found, pieces = word_map(text)
            self._maps = (found, frozenset(pieces))
        return dict(self._maps[0]), set(self._maps[1])


WORD_MEMO = 20_000
"""Distinct (word, chains) pairs whose :func:`word_map` entries are kept (a few hundred
bytes each, so a few MB at most); all are forgotten when more are asked for."""

_WORDS: dict[tuple[str, tuple[str, ...]], tuple[tuple[tuple[str, str], ...], tuple[str, ...]]]
_WORDS = {}
"""(word, chains) → what the word adds to :func:`word_map`: its (term, source) pairs
in the order they are met, and its identifier pieces."""


def word_map(text: str) -> tuple[dict[str, str], set[str]]:
    """Index term → the piece of the query it came from, and the pieces identifiers
    split into. An identifier's parts map to themselves (``dispatch_request``'s
    ``request`` term → ``request``), so a why-line never claims the whole identifier
    matched when only a part did; the pieces (``http``, ``server`` of ``HttpServer``) give way
    to the whole in a why-line, other words do not. A CJK bigram maps to itself: Chinese
    and Japanese have no spaces, so the "word" around it is often the whole question.
    Terms are mapped in every chain in use (:func:`~rubi.index.analysis.
    languages_in_use`), English first: a note's words are its language's terms.

    Each word's share is worked out once per set of chains and kept (:data:`WORD_MEMO`):
    a word becomes the same terms each time (the chains' own tables assume as much),
    and the first word to give a term names it, so the shares are merged in the
    query's word order, as when every word was analysed afresh (13 chains, each word
    analysed twice in each: 1.7 ms of a question's first search on obsidian-hub)."""
    out: dict[str, str] = {}
    pieces: set[str] = set()
    langs = ("en", *(lang for lang in languages_in_use() if lang != "en"))
    words = dict.fromkeys(raw.strip(".,;:!?\"'()") for raw in text.split())
    for word in words:  # a word said twice maps the same way: once is enough
        key = (word, langs)
        found = _WORDS.get(key)
        if found is None:
            found = _word_share(word, langs)
            if len(_WORDS) >= WORD_MEMO:
                _WORDS.clear()
            _WORDS[key] = found
        pairs, parts = found
        pieces.update(parts)
        for term, source in pairs:
            out.setdefault(term, source)
    return out, pieces


def _word_share(
    word: str, langs: tuple[str, ...]
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """What ``word`` adds to :func:`word_map` in the chains ``langs``: its (term,
    source) pairs, the first of each term only, in the order they are met, and its
    identifier pieces (none for a word of one part)."""
    parts = identifier_parts(word)
    pieces = tuple(p.lower() for p in parts) if len(parts) > 1 else ()
    out: dict[str, str] = {}
    for lang in langs:
        for part in parts:
            for term in analyze(part, lang):
                out.setdefault(term, term if is_cjk(term) else part.lower())
        for term in analyze(word, lang):
            if term not in out:
                out[term] = term if is_cjk(term) else _segment_of(word, term, lang)
    return tuple(out.items()), pieces


def _segment_of(word: str, term: str, lang: str) -> str:
    """The part of ``word`` (lower case) that a term of the whole word came from: for a
    path, the first of its ``/`` or ``\\`` segments that gives the term
    (``_cachedmethod.py`` of a traceback's
    ``/home/u/.venv/lib/python3.12/site-packages/cachetools/_cachedmethod.py``), so a
    why-line names the file name a title matched rather than the user's whole path;
    otherwise the whole word."""
    if "/" in word or "\\" in word:
        for segment in word.replace("\\", "/").split("/"):
            if segment and term in analyze(segment, lang):
                return segment.lower()
    return word.lower()
