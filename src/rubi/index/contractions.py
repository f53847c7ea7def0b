"""Words joined by an apostrophe: English contractions and Romance elisions.

The tokenizer keeps ``don't`` and ``l'homme`` whole (it must, for ``O'Brien`` and
``app.py``), and splitting them at the apostrophe left fragments that are no words:
``don``, ``isn``, ``ll``, ``re`` (and ``we'r`` once stemmed). Here such a word becomes
the words it stands for:

- an English clitic at its end goes: ``'s``, ``'re``, ``'ll``, ``'ve``, ``'d``, ``'m``
  (``what's`` → what, ``we're`` → we, ``you'll`` → you, ``rubi's`` → rubi), and
  ``n't`` leaves its verb (``don't`` → do, ``isn't`` → is, ``can't`` → can,
  ``won't`` → will). What is left is a function word the stop words drop, or the word
  itself;
- an elided article, pronoun or preposition before an apostrophe goes: one letter
  (``l'homme`` → homme, ``d'accord`` → accord, ``O'Brien`` → Brien) or a stop word of
  a Snowball language, as written or with its elided vowel back (``dell'arte`` →
  arte, ``qu'il`` → il, ``all'opera`` → opera), as Lucene's ``ElisionFilter`` drops
  French and Italian articles (without its per-language lists).

A word changed so is not indexed joined as well (``dell'arte`` was ``dell'art`` too);
any other word with an apostrophe (``aujourd'hui``, ``rock'n'roll`` but for its ``n``)
is left as the tokenizer gave it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh.analysis import Filter
from whoosh.lang import has_stopwords, languages, stopwords_for_language

__all__ = ["ContractionFilter", "split_contraction"]

_APOSTROPHE = re.compile(r"['’]")
_CLITICS = frozenset({"s", "re", "ll", "ve", "d", "m"})
"""English clitics after an apostrophe: is/has, are, will, have, had/would, am."""
_NOT_HEADS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
"""Verbs whose ``n't`` form is not verb + ``n't`` (``can't``, ``won't``, ``shan't``,
``ain't``)."""


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    """Every stop word of every language whoosh has a list for."""
    return frozenset(
        w for lang in languages if has_stopwords(lang) for w in stopwords_for_language(lang)
    )


def _elided(head: str) -> bool:
    """Whether ``head`` (lower-case), before an apostrophe, is an elided function word."""
    if len(head) == 1:
        return True
    words = _function_words()
    return head in words or any(head + v in words for v in "aeio")


def split_contraction(word: str) -> list[str] | None:
    """The words ``word`` (as written, one token) stands for, when it is a contraction
    or an elision (see the module docstring); None when it is neither (kept as is).

    >>> split_contraction("don't"), split_contraction("l'homme"), split_contraction("app")
    (['do'], ['homme'], None)
    """
    if "'" not in word and "’" not in word:
        return None
    parts = _APOSTROPHE.split(word)
    changed = False
    last = parts[-1].lower()
    if len(parts) >= 2 and last in _CLITICS:
        parts.pop()
        changed = True
    elif len(parts) >= 2 and last == "t" and parts[-2].lower().endswith("n"):
        parts.pop()
        verb = parts[-1][:-1]
        parts[-1] = _NOT_HEADS.get(verb.lower(), verb)
        changed = True
    kept = [p for p in parts[:-1] if not _elided(p.lower())]
    if len(kept) < len(parts) - 1:
        changed = True
    if not changed:
        return None
    return [p for p in (*kept, parts[-1]) if p]


class ContractionFilter(Filter):  # type: ignore[misc]
    """Replace a contraction or an elision by the words it stands for
    (:func:`split_contraction`); other tokens pass as they are."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            words = split_contraction(t.text)
            if words is None:
                yield t
                continue
            for w in words:
                t.text = w
                yield t
