"""Snowball languages whoosh lacks: Turkish (a stemmer) and Indonesian (a stemmer and
stop words).

Whoosh ships Snowball stemmers for 15 languages and stop-word lists for 14, and a note
gets a language of its own only when both exist (:data:`rubi.index.analysis.
PROSE_LANGUAGES`; its language is voted by its stop words, :mod:`rubi.index.language`).
Turkish has a list and no stemmer; Indonesian has neither. A note in either was
analysed as English: its words kept every suffix (Turkish ``dosyaları``, ``dosyanın``,
``dosyayı`` three terms, none the question's ``dosya``).

The stemmers are PyStemmer's, the Snowball project's own C build of its algorithms
(Porter, "Snowball: A language for stemming algorithms", 2001; Turkish: Çilden 2006;
Indonesian: Tala 2003). The Indonesian stop words are those of the ``stop-words``
package (355 words). Measured with bm25s on the development halves (MRR@10 with /
without the stemmer): Turkish 0.768 / 0.569, Indonesian 0.933 / 0.894; rubi,
unstemmed, had 0.562 and 0.908 (``docs/benchmarks-history.md``, "issue 28: ninth
pass").

Not Polish, though PyStemmer (Snowball 3) has its stemmer and the package its stop
words: the list holds English words (``go``, ``to``, ``pod``, ``a``), so English notes
were voted Polish (4 of Dendron's 1,012, 3 of tldr's English ``go`` pages, one each in
two other English vaults) and their ``go`` dropped as a stop word, for 2 questions up
and 2 down on lang-tldr-pl.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache

from whoosh.lang import has_stopwords, stemmer_for_language, stopwords_for_language

__all__ = [
    "EXTRA_LANGUAGES",
    "EXTRA_STEMMERS",
    "EXTRA_STOP_WORDS",
    "extra_stemmer",
    "has_stop_words",
    "snowball_stemmer",
    "stop_words_for",
]

EXTRA_STEMMERS: dict[str, str] = {"tr": "turkish", "id": "indonesian"}
"""ISO 639-1 code -> PyStemmer's algorithm name, for the languages whoosh has no
Snowball stemmer for."""
EXTRA_STOP_WORDS: dict[str, str] = {"id": "indonesian"}
"""ISO 639-1 code -> the ``stop-words`` package's language name, for the languages of
:data:`EXTRA_STEMMERS` whoosh has no stop words for."""
EXTRA_LANGUAGES: tuple[str, ...] = tuple(EXTRA_STOP_WORDS)
"""Languages whoosh does not list at all (it lists Turkish)."""


def has_stop_words(lang: str) -> bool:
    """Whether ``lang`` has a stop-word list: whoosh's, or one of
    :data:`EXTRA_STOP_WORDS`."""
    return lang in EXTRA_STOP_WORDS or bool(has_stopwords(lang))


@lru_cache(maxsize=32)
def stop_words_for(lang: str) -> frozenset[str]:
    """The stop words of ``lang`` (:func:`has_stop_words` true), lower-case as listed.

    Raises:
        KeyError: whoosh and :data:`EXTRA_STOP_WORDS` have no list for ``lang``.
    """
    if lang in EXTRA_STOP_WORDS:
        from stop_words import get_stop_words

        return frozenset(get_stop_words(EXTRA_STOP_WORDS[lang]))
    return frozenset(stopwords_for_language(lang))


def extra_stemmer(lang: str) -> Callable[[str], str]:
    """The Snowball stemmer of ``lang`` (a key of :data:`EXTRA_STEMMERS`): one word in,
    its stem out. One PyStemmer object per call, used under a lock (PyStemmer's
    objects may not be shared between threads unguarded).

    Raises:
        KeyError: ``lang`` is not in :data:`EXTRA_STEMMERS`.
    """
    import Stemmer

    stemmer = Stemmer.Stemmer(EXTRA_STEMMERS[lang])
    lock = threading.Lock()

    def stem(word: str) -> str:
        with lock:
            return str(stemmer.stemWord(word))

    return stem


def snowball_stemmer(lang: str) -> Callable[[str], str]:
    """The Snowball stemmer of ``lang``: whoosh's, or PyStemmer's for a language whoosh
    has none for (:data:`EXTRA_STEMMERS`).

    Raises:
        whoosh.lang.NoStemmer: no Snowball stemmer for ``lang`` at all.
    """
    if lang in EXTRA_STEMMERS:
        return extra_stemmer(lang)
    stem: Callable[[str], str] = stemmer_for_language(lang)
    return stem
