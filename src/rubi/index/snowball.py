"""Snowball stemmers of languages whoosh has stop words for but no stemmer: Turkish.

Whoosh ships Snowball stemmers for 15 languages and stop-word lists for 14; Turkish is
the one language with a list and no stemmer, so a Turkish note was analysed as
English: its words kept every suffix (``dosyaları``, ``dosyanın``, ``dosyayı`` three
terms, none the question's ``dosya``). PyStemmer is the Snowball project's own C build
of its stemmers (Porter, "Snowball: A language for stemming algorithms", 2001); its
Turkish algorithm is Çilden's (2006). Measured with bm25s on the development half of
lang-tldr-tr (21 questions): MRR@10 0.768 with the stemmer, 0.569 without it, where
rubi, without one, had 0.562 (``docs/benchmarks-history.md``, "issue 28: ninth pass").

Languages with neither a stemmer nor stop words in whoosh (Polish, Indonesian) are not
here: a note is put in a language by a vote of its stop words
(:mod:`rubi.index.language`), which they have none of.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["EXTRA_STEMMERS", "extra_stemmer"]

EXTRA_STEMMERS: dict[str, str] = {"tr": "turkish"}
"""ISO 639-1 code -> PyStemmer's algorithm name, for the languages whoosh has stop
words but no stemmer for."""


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
