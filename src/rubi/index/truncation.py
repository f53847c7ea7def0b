"""A question word no document holds, read by the relevance floor as the words that
begin like it (its truncation to its first letters).

A question is written in the asker's forms of a word, a page in its own: Czech asks
``skončil`` (it ended), ``prodavačů`` (of the shop assistants), ``přecházíme`` (we are
moving), the pages write ``skončit``, ``prodavač``, ``přechod``. Snowball's stemmers
strip the endings they know, not a verb's person or an aspect's stem, so the asker's
form may be a word no page holds: the floor (:func:`rubi.index.querymatch.coverage`)
counted it at the highest IDF, "the vault has nothing on it", and a page holding the
same word in the page's form fell below the floor. Truncating every word to its first
five letters is the fallback stemmer that holds across European languages (McNamee,
Nicholas & Mayfield 2009, "Addressing morphological variation in alphabetic
languages", SIGIR: 5-prefixes as good as or better than Snowball in most of 18
languages; Can et al. 2008 found the same length best for Turkish). Here it is read
only for a word no document holds that is no compound (:mod:`rubi.index.compounds`):
the word is measured by the documents holding a term that shares its longest prefix
of at least :data:`PREFIX_LETTERS` letters some term begins with (:func:`family`), in
the floor's co-occurrence significance only, which weighs that family by its own
document frequency; in the coverage it stays a word no document holds. Ranking is
untouched: the family is no clause of the query, only of the floor's measure.

Measured on 37 development halves (``docs/benchmarks-history.md``, "issue 28: the
relevance floor on many languages, twenty-sixth pass"): top-10 answers the floor hid
50 → 44 (46 → 40 on the 35 halves it was not designed on: Turkish 9 → 6, Polish,
Portuguese and Swedish one each), off-topic questions silenced 133 of 159 before and
after. Read in the coverage too, it let two off-topic questions through (a family of
the vault's commonest words in place of a word at the highest IDF shrinks every
page's question mass).
"""

from __future__ import annotations

from collections.abc import Callable

from rubi.index.wordterm import fold

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_FAMILY", "PREFIX_LETTERS", "family", "terms_beginning", "truncated"]

PREFIX_LETTERS = 5
"""Letters a word is truncated to (McNamee, Nicholas & Mayfield 2009: five for the
European languages they measured; chosen from the literature, not from a set)."""
MAX_FAMILY = 200
"""Terms of one prefix read at most (a bound on the postings read for one word, not a
reading of a set: a prefix with more terms is a part of the vocabulary too common to
say anything, and is left unread)."""


def truncated(written: str) -> str | None:
    """The first :data:`PREFIX_LETTERS` letters of ``written`` (a lower-case word of
    the question, as written), accents folded as the index's terms are; None for a
    shorter word (its truncation is the word itself, which no document holds) or one
    not made of letters alone (a number, an identifier)."""
    word = fold(written)
    if len(word) < PREFIX_LETTERS or not word.isalpha():
        return None
    return word[:PREFIX_LETTERS]


def family(written: str, prefixed: Callable[[str], list[str]]) -> list[str]:
    """The index's terms that begin like ``written``: those sharing its longest prefix
    some term begins with, of at least :data:`PREFIX_LETTERS` letters (the nearest
    forms the vault writes; :func:`truncated`), read by ``prefixed(prefix)`` (the
    terms of the floor's field beginning with it); none when the word is not
    truncated, no term shares its first letters, or the prefix has more than
    :data:`MAX_FAMILY` terms."""
    if truncated(written) is None:
        return []
    word = fold(written)
    for end in range(len(word) - 1, PREFIX_LETTERS - 1, -1):
        terms = prefixed(word[:end])
        if terms:
            return [] if len(terms) > MAX_FAMILY else terms
    return []


def terms_beginning(reader: Any, field: str, prefix: str) -> list[bytes]:
    """The terms of ``field`` that begin with ``prefix``, in order, UTF-8: a Whoosh
    reader's ``expand_prefix``, or the term tables of the index read without Whoosh
    (:class:`rubi.index.segmentfiles.ColdReader`'s segments, each found by a binary
    search from the prefix on, the rest of the field unread)."""
    whoosh = getattr(reader, "expand_prefix", None)
    if whoosh is not None:
        return list(whoosh(field, prefix))
    start = prefix.encode("utf-8")
    return sorted({t for leaf, _ in reader.leaf_readers() for t in leaf.lexicon(field, start)})
