"""Guess the language a note is written in, once, when it is indexed.

Two cheap steps, no model:

1. The script most of the note's letters are in (code left out: fenced blocks, inline
   code, addresses). Cyrillic is ``ru``, Arabic ``ar``, Greek ``el``; Chinese,
   Japanese and Korean are ``zh``, ``ja`` (any kana) and ``ko`` (mostly Hangul). A
   CJK character counts as :data:`CJK_LETTERS` letters: it is about a word.
2. In Latin script, a vote of function words (Cavnar & Trenkle 1994 found them the
   most telling n-grams; the stop-word vote is the usual cheap form): each word counts
   for every language whose stop words hold it, among the languages with both a
   Snowball stemmer and a stop-word list (whoosh's, and Turkish and
   Indonesian from :mod:`rubi.index.snowball`: :data:`VOTING_LANGUAGES`). The
   language with most votes wins if it has at least :data:`MIN_VOTES` (two different
   words at least), more than English, and :data:`MIN_SHARE` of the words; else the
   note is English (a tie, too
   little text, or a note of names and code). A note of too little prose for a vote
   is voted on again with its code, whose comments are in the note's language.

The result names the analysis a note's prose gets (:func:`rubi.index.analysis.
chain_language`): a Latin-script language's stop words and stemmer, or, for the others,
each word by its script (Cyrillic words the Russian stemmer, CJK bigrams, Latin words
English).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from whoosh.lang import has_stemmer, languages

from rubi.core.lazyregex import Rx
from rubi.index.snowball import EXTRA_LANGUAGES, EXTRA_STEMMERS, has_stop_words, stop_words_for

__all__ = [
    "CJK_LETTERS",
    "MIN_SHARE",
    "MIN_VOTES",
    "VOTING_LANGUAGES",
    "detect_language",
    "query_language",
    "stop_word_votes",
]

VOTING_LANGUAGES: tuple[str, ...] = tuple(
    lang
    for lang in (*languages, *EXTRA_LANGUAGES)
    if (has_stemmer(lang) or lang in EXTRA_STEMMERS) and has_stop_words(lang) and lang != "ru"
)
"""Latin-script languages with stop words in whoosh and a Snowball stemmer: da, nl,
en, fi, fr, de, hu, it, no, pt, es, sv (whoosh's stemmers), tr, id (PyStemmer's,
:mod:`rubi.index.snowball`)."""

MIN_VOTES = 3
"""Stop words a language other than English needs before a note is counted as it."""
MIN_SHARE = 0.08
"""Share of a note's words that must be the winning language's stop words (prose runs
at 30-50%; a list of names, links and code at a few percent)."""
CJK_LETTERS = 3
"""Latin letters a CJK character weighs in the script count (a Chinese word is one
or two characters, an English one five letters)."""
SAMPLE_CHARS = 20_000
"""Characters of a note read (its beginning)."""

_CODE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]*`", re.S)
_NOT_WORDS = re.compile(r"\]\([^)\n]*\)|https?://\S+|\w+(?:\.\w+)+")
"""Link targets, addresses and dotted names (``docs.example.com``: Portuguese
``com``)."""
_WORD = re.compile(r"[^\W\d_]+")
_SCRIPTS: tuple[tuple[str, Rx], ...] = (
    ("ru", Rx(r"[\u0400-\u04ff]")),
    ("el", Rx(r"[\u0370-\u03ff\u1f00-\u1fff]")),
    ("ar", Rx(r"[\u0600-\u06ff\u0750-\u077f]")),
    ("kana", Rx(r"[\u3040-\u30ff]")),
    ("hangul", Rx(r"[\uac00-\ud7af]")),
    ("han", Rx(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")),
)
"""Compiled on first use: only indexing detects a note's script (a query's language
is voted by stop words, :func:`query_language`)."""
_LATIN = Rx(r"[a-zA-Z\u00c0-\u024f]")


@lru_cache(maxsize=1)
def _stop_words() -> dict[str, frozenset[str]]:
    return {lang: stop_words_for(lang) for lang in VOTING_LANGUAGES}


def stop_word_votes(words: list[str], langs: Iterable[str] | None = None) -> Counter[str]:
    """Each voting language's count of ``words`` (lower-case) in its stop words; of
    ``langs`` alone when given (a query is read against its index's languages: the
    lists of the others are not loaded)."""
    counts = Counter(words)
    votes: Counter[str] = Counter()
    for lang in VOTING_LANGUAGES if langs is None else langs:
        stops = _stop_words()[lang] if langs is None else stop_words_for(lang)
        n = sum(c for w, c in counts.items() if w in stops)
        if n:
            votes[lang] = n
    return votes


def _script(prose: str) -> str | None:
    """The language named by the note's script when most letters are not Latin."""
    latin = len(_LATIN.findall(prose))
    found = {name: len(rx.findall(prose)) for name, rx in _SCRIPTS}
    cjk = found.pop("kana") + found.pop("hangul") + found["han"]
    found["han"] = cjk * CJK_LETTERS
    name, most = max(found.items(), key=lambda kv: kv[1])
    if most <= latin:
        return None
    if name != "han":
        return name
    kana = len(_SCRIPTS[3][1].findall(prose))
    hangul = len(_SCRIPTS[4][1].findall(prose))
    if kana:
        return "ja"
    return "ko" if hangul * 2 > cjk else "zh"


def detect_language(text: str) -> str:
    """The language of ``text`` (a note's title and body) as an ISO 639-1 code: one of
    :data:`VOTING_LANGUAGES`, or ``ru``, ``ar``, ``el``, ``zh``, ``ja``, ``ko`` by
    script; ``en`` on a tie or too little text (see the module docstring)."""
    sample = _NOT_WORDS.sub(" ", text[:SAMPLE_CHARS])
    prose = _CODE.sub(" ", sample)
    script = _script(prose)
    if script is not None:
        return script
    found = _vote(_WORD.findall(prose.lower()))
    if found is None and prose != sample:  # too little prose: its code's comments vote
        found = _vote([w for w in _WORD.findall(sample.lower()) if len(w) > 1])
    return found or "en"


def _vote(words: list[str]) -> str | None:
    """The language of ``words`` by their stop words, or None when no language wins
    clearly enough (see the module docstring); English only when it has the most."""
    votes = stop_word_votes(words)
    if not votes:
        return None
    english = votes.get("en", 0)
    lang, most = max(votes.items(), key=lambda kv: (kv[1], kv[0] == "en"))
    if most < MIN_VOTES or most < MIN_SHARE * len(words):
        return None
    if len(_stop_words()[lang].intersection(words)) < 2:  # one word said again
        return None
    if lang == "en" or most <= english:
        return "en"
    return lang


def query_language(text: str, candidates: Iterable[str]) -> str | None:
    """The language a query is written in, among ``candidates`` (the languages of an
    index's notes): the one whose stop words it holds most, by a margin over every
    other candidate; None when none holds any or two tie (``map set``, ``la de`` in
    an index of Spanish and French). A query is too short for :func:`detect_language`'s
    thresholds, but it is read against the languages its index has."""
    wanted = [c for c in dict.fromkeys(candidates) if c in VOTING_LANGUAGES]
    if not wanted:
        return None
    votes = stop_word_votes(_WORD.findall(text.lower()), wanted)
    ranked = sorted(((votes.get(c, 0), c) for c in wanted), reverse=True)
    if ranked[0][0] == 0 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]
