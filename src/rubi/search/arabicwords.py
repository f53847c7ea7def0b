"""Where a text holds each term of an Arabic-script word, for the note window
(:mod:`rubi.search.notewindow`): every Arabic-script word of the text analysed as the
index analysed it, since no key found where a word starts can find them."""

from __future__ import annotations

from rubi.core.lazyregex import Rx
from rubi.index.analysis import WORD_CHARS, text_analyzer

__all__ = ["arabic_offsets", "arabic_script"]

_ARABIC_WORD = Rx(rf"[\u0600-\u06ff\u0750-\u077f][{WORD_CHARS}]*")
"""An Arabic-script word as the index's tokenizer cuts it (its marks in it), from its
first letter: compiled on the first question with an Arabic-script term."""


def arabic_script(term: str) -> bool:
    """Whether ``term`` starts with an Arabic-script letter (U+0600-U+06FF,
    U+0750-U+077F), as :mod:`rubi.index.wordterm` tells a word stemmed by its script."""
    first = ord(term[0]) if term else 0
    return 0x0600 <= first <= 0x06FF or 0x0750 <= first <= 0x077F


def arabic_offsets(low: str, lang: str) -> dict[str, list[int]]:
    """Each term the Arabic-script words of ``low`` (a text lower-cased,
    :func:`~rubi.search.snippet.aligned_lower`) become in the chain ``lang`` → the
    offsets of the words that become it. Arabic script writes its article, its
    conjunctions and its prepositions against the word (``الأعداد``, ``والعدد``,
    ``بالعدد``) and every stemmer of it takes them off (ISRI down to the root, whose
    letters are not even a substring of the word: ``أعداد`` → ``عدد``), so a term's
    key, looked for where a word starts (the window's way for every other term), found
    only the words written bare: the window saw a fraction of what BM25F matched, and lowered the
    answers BM25F had ranked first (lang-jsinfo-ar). Every Arabic-script word of the
    text is analysed instead, as the index analysed it, each distinct word once (the
    chain's :meth:`~rubi.index.analysis.TermAnalyzer.terms_of`, which remembers a word
    it has met)."""
    places: dict[str, list[int]] = {}
    for found in _ARABIC_WORD.finditer(low):
        places.setdefault(found.group(), []).append(found.start())
    analyzer = text_analyzer(lang)
    out: dict[str, list[int]] = {}
    for word, ats in places.items():
        # a word of letters alone is one token the index did not split: its terms are
        # the chain's last step's (cached by word); any other word goes the whole chain
        if word.isalpha():
            terms = analyzer.terms_of(word) if len(word) > 1 else ()
        else:
            terms = tuple(dict.fromkeys(analyzer.terms(word)))
        for term in terms:
            out.setdefault(term, []).extend(ats)
    return out
