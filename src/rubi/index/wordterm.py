"""The term one word becomes in an analysis chain (:mod:`rubi.index.analysis`): its
language's stop words dropped, its stem accent-folded, and the stems of the scripts
every chain stems by script (Cyrillic as Russian, Arabic by ISRI, Greek, Armenian,
Devanagari and Tamil by their Snowball stemmers)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rubi.core.segmentreads import segments_mapped
from rubi.index.snowball import STOP_WORD_SOURCES, fold_marks, stemmer, stop_words
from rubi.index.stemming import arabic_stem, russian_stem, stem_code, stem_en

__all__ = ["STEM_CACHE_SIZE", "STOP_LIST_OF", "chain_stop_words", "fold", "word_terms"]

STOP_LIST_OF = {"code": "en", "fa": "en"}
"""A chain → the language whose stop words it drops, where not its own: code's and
Persian's are English's (Persian has no list, in rubi or in bm25s; its notes' Latin
words are English)."""

_SCRIPT_LANGUAGES = (
    ("ru", 0x0400, 0x04FF),
    ("ar", 0x0600, 0x06FF),
    ("ar", 0x0750, 0x077F),
    ("el", 0x0370, 0x03FF),
    ("el", 0x1F00, 0x1FFF),
    ("hy", 0x0531, 0x0587),
    ("hi", 0x0900, 0x097F),
    ("ta", 0x0B80, 0x0BFF),
)
"""Scripts whose words are stemmed by one language, whatever the note's: Cyrillic
words the Russian Snowball stemmer, Arabic-script ones ISRI; Greek, Armenian,
Devanagari (as Hindi) and Tamil ones their Snowball stemmer, after their stop words
where a list exists (Hindi)."""


_FOLD: dict[int, str | None] = {}
"""Whoosh's accent map, and every combining accent (U+0300-U+036F) removed: those that
compose with no letter (the dot above of Turkish ``İ`` lower-cased, ``i`` + U+0307)
stayed in the term, so ``İstanbul`` could not be found as ``istanbul``. Made by
:func:`_fold_map` for the first word that may change (Whoosh's charset module, 1 ms of
a cold recall whose prompt is plain ASCII, is imported only then)."""

ASCII_FOLDED = frozenset("HIJNPSTWY")
"""The ASCII characters :func:`fold` changes (Whoosh's map lower-cases a few capitals),
written out so that an ASCII word is folded without the map (a test compares it with
the map's): an ASCII word without one folds to itself."""


def _fold_map() -> dict[int, str | None]:
    """:data:`_FOLD`, made on first use."""
    if not _FOLD:
        from whoosh.support.charset import accent_map

        _FOLD.update({**accent_map, **dict.fromkeys(range(0x300, 0x370))})
    return _FOLD


def fold(word: str) -> str:
    """``word`` with its accents folded (:data:`_FOLD`: ``é`` → ``e``)."""
    if word.isascii() and ASCII_FOLDED.isdisjoint(word):
        return word
    return word.translate(_fold_map())


@lru_cache(maxsize=64)
def chain_stop_words(lang: str) -> frozenset[str]:
    """A language's stop words (:func:`rubi.index.snowball.stop_words`), as written and
    accent-folded (a query written without accents, ``mas``, drops the same words);
    none when there is no list. A process that searches once takes them from the sets
    kept by the last one (:mod:`rubi.index.keptstops`: the same sets, 2.2 ms less at 18
    chains)."""
    if segments_mapped():
        from rubi.index.keptstops import kept_or_made

        return kept_or_made(lang, _made_stop_words, __file__)
    return _made_stop_words(lang)


def _made_stop_words(lang: str) -> frozenset[str]:
    """:func:`chain_stop_words` made from the lists."""
    words = stop_words(lang)
    # Only words fold can change: five in six stop words are ASCII and fold to
    # themselves (1.5 ms of a cold recall's 19 chains went to translating them).
    changed = (w for w in words if not w.isascii() or not ASCII_FOLDED.isdisjoint(w))
    return words | frozenset(map(fold, changed))


STEM_CACHE_SIZE = 65_536
"""Tokens whose stem each chain remembers (least recently used dropped; about 8 MB).
The word table of :class:`rubi.index.analysis.TermAnalyzer` learns every distinct word, but a code
identifier is split into parts (``AbstractBeanFactory``: abstract, bean, factory)
that recur across thousands of words: without this, spring-framework's code
stemmed 1.1 million tokens, 15% of a first index."""

_cached_stem_en = lru_cache(maxsize=STEM_CACHE_SIZE)(stem_en)
_cached_stem_code = lru_cache(maxsize=STEM_CACHE_SIZE)(stem_code)


def word_terms(lang: str) -> Callable[[str], tuple[str, ...]]:
    """The terms one word (lower-case, not CJK, as written) becomes in the chain of
    ``lang``: :func:`_word_term`'s, and in a language other than English (or code) the
    English chain's as well when it differs (none for a stop word of ``lang``).

    Notes in another language are full of English (code, product names, the words of
    the trade), and Porter2 on a Spanish or French word mostly strips a plural, a light
    stemmer beside Snowball's heavier one: both readings in one field. Measured on the
    development halves of lang-jsinfo-es and -fr (MRR@10 0.708 -> 0.833 and
    0.522 -> 0.554 against the language's reading alone, with contractions folded then;
    ``docs/benchmarks-history.md``, "issue 28: language per note (tried, not kept)").
    It generalises the old Portuguese field, which read a
    Portuguese-looking note both ways in two fields."""
    own = _word_term(lang)
    if lang in ("en", "code", "fa"):  # Persian's chain is English's but for its script
        return lambda word: () if (t := own(word)) is None else (t,)
    english = _word_term("en")

    def terms(word: str) -> tuple[str, ...]:
        mine = own(word)
        if mine is None:
            return ()
        other = english(word)
        return (mine,) if other is None or other == mine else (mine, other)

    return terms


def _word_term(lang: str) -> Callable[[str], str | None]:
    """The term one word (lower-case, not CJK, as written) becomes in the chain of
    ``lang``, None for a stop word. A Cyrillic or Arabic-script word is its script's
    language's (:data:`_SCRIPT_LANGUAGES`) in every chain; any other word is the
    chain's: English and code fold accents before their stop words and stemmer, as
    they always did; the other languages stem the word as written (Snowball's
    stemmers know their accents: French ``-é``, Spanish ``-ción``) and fold the stem.
    Persian's chain (``fa``) is English's but for its Arabic-script words, stemmed by
    Snowball's Persian stemmer instead of ISRI (:data:`STOP_LIST_OF`)."""
    own = {"en": _cached_stem_en, "code": _cached_stem_code, "fa": _cached_stem_en}.get(lang)
    stops = chain_stop_words(STOP_LIST_OF.get(lang, lang))
    persian = stemmer("fa") if lang == "fa" else None
    russian_stops = chain_stop_words("ru")
    stem = None if own is not None else lru_cache(STEM_CACHE_SIZE)(stemmer(lang))
    unmarked = lang in STOP_WORD_SOURCES  # a list written without diacritics (ro)

    def term(word: str) -> str | None:
        # a stem can be empty (Turkish ``leri``, the suffix left of ``commit'leri``):
        # the word is its own term then (an empty term matched every note holding
        # such a word, and a search for it in a note's text found it at every offset);
        # a word that folds to nothing (a lone combining mark, U+0301) has no term
        found = _term(word)
        return (fold(word) if found == "" else found) or None

    def _term(word: str) -> str | None:
        folded = fold(word)
        if not word.isascii():
            first = ord(word[0])
            for script_lang, low, high in _SCRIPT_LANGUAGES:
                if low <= first <= high:
                    if script_lang == "ru":
                        return None if folded in russian_stops else fold(russian_stem(word))
                    if script_lang == "ar":
                        return str(arabic_stem(folded) if persian is None else persian(folded))
                    return _script_term(script_lang, word)
        if folded in stops or (unmarked and fold_marks(word) in stops):
            return None
        if own is not None:
            return str(own(folded))
        return fold(str(stem(word)))  # type: ignore[misc]

    return term


@lru_cache(maxsize=STEM_CACHE_SIZE)
def _script_term(lang: str, word: str) -> str | None:
    """The term of a Greek, Armenian, Devanagari or Tamil word (lower-case): None for a
    stop word of its language, else its Snowball stem without accents (a Greek query
    typed without its tonos meets the note)."""
    if word in chain_stop_words(lang):
        return None
    return fold(fold_marks(stemmer(lang)(word))) if lang == "el" else stemmer(lang)(word)
