"""Stemmers and stop words for every language rubi analyses, each loaded on first use.

Every language's stemmer is Snowball's (snowballstem.org, "Snowball: A language for
stemming algorithms", M. F. Porter 2001; Turkish: Eryiğit & Adalı 2004; Indonesian:
Tala 2003) from PyStemmer, Snowball's C build (0.5 µs a Turkish word against 47 µs for
the pure-Python ``snowballstemmer``, whose import also loads all 36 algorithms: 1
against 140 ms CPU; ``bench/stemmer_speed.py``), Whoosh's pure-Python ports of a dozen
of them no longer (:func:`stemmer`: they lost suffixes Snowball strips). Stop words are
Whoosh's lists where it has one, else the ``stop-words`` package's maintained lists. A
language's stemmer and list are read when a note or query of that language first needs
them: the cold hook's import pays for none.

Which languages are covered, and how they are recognised, is
:mod:`rubi.index.language`'s business; this module only loads.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

__all__ = [
    "SNOWBALL_NAMES",
    "STOP_WORD_SOURCES",
    "fold_marks",
    "function_bigram",
    "package_stop_words",
    "stemmer",
    "stop_words",
    "stop_words_folder",
]

SNOWBALL_NAMES: dict[str, str] = {
    "ar": "arabic",
    "hy": "armenian",
    "eu": "basque",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "nl": "dutch_porter",
    "en": "english",
    "eo": "esperanto",
    "et": "estonian",
    "fi": "finnish",
    "fr": "french",
    "de": "german",
    "el": "greek",
    "hi": "hindi",
    "hu": "hungarian",
    "id": "indonesian",
    "ga": "irish",
    "it": "italian",
    "lt": "lithuanian",
    "ne": "nepali",
    "no": "norwegian",
    "fa": "persian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sr": "serbian",
    "st": "sesotho",
    "es": "spanish",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
    "yi": "yiddish",
}
"""ISO 639-1 code → the name of Snowball's algorithm for it (Snowball 3: 34
languages). Dutch is the algorithm Snowball had before 3.0 (``dutch_porter``, the one
Whoosh ported, term for term the same): Snowball 3's revised ``dutch`` stems a
quarter of a Dutch text's words otherwise (``informatie`` → ``informeer``) and put
lang-tldr-nl's development half from 0.808 to 0.785 MRR@10."""

STOP_WORD_SOURCES: dict[str, str] = {
    "ca": "catalan",
    "cs": "czech",
    "hi": "hindi",
    "id": "indonesian",
    "pl": "polish",
    "ro": "romanian",
    "tr": "turkish",
}
"""Languages whose stop words come from the ``stop-words`` package → the package's
name for the list. Whoosh has none for them, but for Turkish, whose 53 words lack
``bir`` ("a", "one", the commonest word of Turkish prose): there the two lists are
joined, the package's repaired first (:func:`_repair_turkish`). Its Greek list is
Ancient Greek (polytonic ``ἀλλά``, ``γάρ``): Modern Greek is stemmed without stop
words."""


def fold_marks(word: str) -> str:
    """``word`` without its combining marks (``și`` → ``si``, ``ş`` → ``s``): some
    lists are written without them (the Romanian one is ASCII)."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=64)
def stemmer(lang: str) -> Callable[[str], str]:
    """The stemmer of ``lang`` (an ISO 639-1 code): one lower-case word → its stem.
    Snowball's own C build through PyStemmer (:data:`SNOWBALL_NAMES`), else Whoosh's
    (ISRI for Arabic: :func:`rubi.index.stemming.arabic_stem`).

    Why not Whoosh's pure-Python Snowball ports where Whoosh has one: they are older
    algorithms, and some lose suffixes Snowball strips. Hungarian kept a case ending
    after a plural (``kifizetésekből``, ``rendszerből``, ``vevőtől``: Snowball gives
    ``kifizetés``, ``rendszer``, ``vevő``), Swedish the definite ``-et``
    (``antalet``, ``systemet``: ``antal``, ``system``). German is Snowball 3's revised
    algorithm (2.5-2.8% of a German text's distinct words stem otherwise), Dutch the
    one Whoosh ported (:data:`SNOWBALL_NAMES`). A C stemmer is also some 40 times
    faster than a Python one. Figures: ``docs/benchmarks-history.md``, "issue 28:
    Snowball's own stemmers, nineteenth pass".

    Raises:
        ValueError: a language neither has (see :data:`SNOWBALL_NAMES`).
    """
    name = SNOWBALL_NAMES.get(lang) if lang != "ar" else None
    if name is None:
        from whoosh.lang import has_stemmer, stemmer_for_language

        if not has_stemmer(lang):
            raise ValueError(f"no stemmer for language {lang!r}")
        found: Callable[[str], str] = stemmer_for_language(lang)
        return found
    import Stemmer  # PyStemmer

    snowball: Callable[[str], str] = Stemmer.Stemmer(name).stemWord
    return snowball


@lru_cache(maxsize=64)
def stop_words(lang: str) -> frozenset[str]:
    """The stop words of ``lang`` (lower-case, as their list writes them): whoosh's
    where whoosh has a list, else the ``stop-words`` package's
    (:data:`STOP_WORD_SOURCES`), else none."""
    from whoosh.lang import has_stopwords, stopwords_for_language

    own = frozenset(stopwords_for_language(lang)) if has_stopwords(lang) else frozenset()
    name = STOP_WORD_SOURCES.get(lang)
    if name is None:
        return own
    words = (w.strip().lower() for w in package_stop_words(name))
    if lang == "tr":
        words = (_repair_turkish(w) for w in words)
    # one letter: never a term (the analysis drops it), and in a vote it is an
    # initial, a list marker or a variable (Polish ``w``, ``z``, Romanian ``b``)
    return own | frozenset(w for w in words if len(w) > 1 and w.isalpha())


def package_stop_words(name: str) -> list[str]:
    """The ``stop-words`` package's list ``name`` (a language's full name, as
    :data:`STOP_WORD_SOURCES` writes it), as ``stop_words.get_stop_words(name)`` gives it
    (its non-blank lines, stripped; rubi registers none of its filters), read from the
    package's file without importing the package: its ``__init__`` imports ``typing``,
    3 ms of a cold hook's CPU. The package's own function where its file is not found
    or not read; no words (never an error: a search goes on without them) where that
    fails too (a list missing, not UTF-8, the package absent)."""
    folder = _stop_words_folder()
    if folder is not None and name.isalpha():
        try:
            with open(f"{folder}/stop-words/{name}.txt", encoding="utf-8") as f:
                text = f.read()  # whole, then its lines: a third faster than line by line
            return [w for w in map(str.strip, text.split("\n")) if w]
        except (OSError, UnicodeError):
            pass
    try:
        from stop_words import get_stop_words

        words: list[str] = get_stop_words(name)
    except Exception:  # StopWordError, UnicodeError, ImportError: no list
        return []
    return words


def stop_words_folder() -> str | None:
    """The ``stop_words`` package's folder, where its lists are read from (None when it
    is not installed as a folder)."""
    return _stop_words_folder()


@lru_cache(maxsize=1)
def _stop_words_folder() -> str | None:
    """The ``stop_words`` package's folder, found as its import would find it (None
    when it is not installed as a folder). ``importlib.machinery``'s ``PathFinder`` is
    the interpreter's frozen one, always loaded: importing the module that names it
    cost a cold recall 0.4–0.7 ms of CPU, the search 0.05."""
    from _frozen_importlib_external import PathFinder

    spec = PathFinder.find_spec("stop_words")
    folders = spec.submodule_search_locations if spec is not None else None
    return folders[0] if folders else None


_LATIN1_AS_TURKISH = str.maketrans("ÐÝÞðýþ", "ĞİŞğış")
"""The six characters where ISO 8859-9 (Latin-5, Turkish) differs from Latin-1, by
byte: ``word.encode("latin-1").decode("iso8859_9")`` without the codec's import (0.2 ms
of a cold recall in an index with Turkish notes; a test compares all 256 bytes)."""


def _repair_turkish(word: str) -> str:
    """A word of the ``stop-words`` package's Turkish list, which was written in
    ISO 8859-9 and read as Latin-1 (``altmýþ``), as Turkish spells it (``altmış``);
    a word that cannot be repaired (a character beyond Latin-1) is returned as it is
    (and is no word)."""
    if word and max(word) > "\xff":
        return word
    return word.translate(_LATIN1_AS_TURKISH)


@lru_cache(maxsize=1)
def _chinese_function_characters() -> frozenset[str]:
    """The one-character words of the ``stop-words`` package's Chinese list (如, 何,
    怎, 么, 可, 以, 一, 个, 这, 的 …)."""
    return frozenset(w for w in (w.strip() for w in package_stop_words("chinese")) if len(w) == 1)


def function_bigram(term: str) -> bool:
    """Whether ``term`` is a Han bigram both of whose characters are Chinese function
    words (``如何`` "how", ``怎么``, ``可以``, ``一个``, ``这个``): a question word or
    grammar, not a topic, the Chinese counterpart of a stop word. The index cuts
    Chinese into bigrams, so no stop list of words applies to it; this reads the
    ``stop-words`` package's Chinese list, whose words are single characters."""
    return len(term) == 2 and all(
        "\u4e00" <= ch <= "\u9fff" and ch in _chinese_function_characters() for ch in term
    )
