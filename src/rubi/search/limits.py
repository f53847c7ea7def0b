"""How much a search may ask for: the caps every door (CLI, MCP, HTTP) goes through.

A search costs time per distinct word: each is analysed in every index language,
looked up in every field, matched against the name table and explained in why-lines.
Without a cap, 4,000 distinct words took 24 s and a 1 MB query kept the HTTP server
busy for minutes. A long query is not refused for its words: it is reduced to its
most discriminative ones (:mod:`rubi.search.longquery`), which bounds the words a
search weighs. :func:`check_query` refuses only what no question or pasted issue
needs, before anything is opened: more than :data:`MAX_QUERY_CHARS` characters, terms
of more than :data:`MAX_QUERY_WORDS` distinct words, control characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rubi.core.errors import RubiError
from rubi.core.lazyregex import Rx
from rubi.index.analysis import identifier_parts

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_QUERY_WORDS",
    "QueryTooLargeError",
    "check_query",
    "fit_query",
]

MAX_QUERY_CHARS = 100_000
"""Characters of the query and its terms together. GitHub caps an issue's body at
65,536 characters, so any issue with its title, or a long stack trace, fits; reading
100,000 characters into words takes a few milliseconds, and the reduction weighs at
most :data:`~rubi.search.longquery.MAX_SCANNED_WORDS` of them. More is a file or a
dump, not a question."""

MAX_QUERY_WORDS = 200
"""Distinct words of the terms, and of what a long query is reduced to, case-folded, an
identifier counted with its pieces (``HttpServerError`` is four: the engine searches
each). The time of a search grows with this count: on this repository's index (38 notes, 211
code files) 200 distinct words that all occur take 0.38 s, 1,000 take 1.4 s and
2,000 take 2.2 s (``bench/query_cap.py``); a question has a few dozen."""

_WORD = re.compile(r"\S+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""Characters no question holds: NUL and the other C0 and C1 controls (a terminal's
escape sequences among them), all but tab and line breaks (a pasted stack trace)."""
_SURROGATE = Rx(r"[\ud800-\udfff]")
"""Compiled for a text that holds one (:func:`_has_surrogate`): building the class
costs a cold recall 0.2–0.3 ms, and a prompt almost never does."""


def _has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate: its UTF-8 encoding fails (microseconds
    for a prompt), which only a surrogate makes it do."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class QueryTooLargeError(RubiError):
    """A query (with its terms) over :data:`MAX_QUERY_CHARS`, or terms over
    :data:`MAX_QUERY_WORDS`."""


def check_query(query: str, terms: Sequence[str] = ()) -> None:
    """Refuse a query that would cost more than any question needs.

    Args:
        query: the question in words.
        terms: related words and identifiers.

    Raises:
        RubiError: ``query`` is not text or ``terms`` not a list of text, or one of
            them holds a control character (NUL, an escape; tab and line breaks are
            fine) or a lone surrogate (not Unicode).
        QueryTooLargeError: over :data:`MAX_QUERY_CHARS` characters, query and
            terms together, or terms of over :data:`MAX_QUERY_WORDS` distinct words
            and identifier pieces. A query of many words is not refused: the search
            reduces it (:func:`rubi.search.longquery.reduce_query`).
    """
    if not isinstance(query, str):
        raise RubiError("query: must be text")
    if isinstance(terms, str) or not all(isinstance(t, str) for t in terms):
        raise RubiError("terms: expected a list of words or identifiers")
    for i, text in enumerate((query, *terms)):
        what = "query" if i == 0 else f"terms[{i - 1}]"
        _check_characters(text, what)
    chars = len(query) + sum(len(t) for t in terms)
    if chars > MAX_QUERY_CHARS:
        raise QueryTooLargeError(
            f"query: {chars:,} characters with its terms; at most {MAX_QUERY_CHARS:,}: "
            "search for the few words that matter (identifiers go in terms)"
        )
    words: set[str] = set()
    for text in terms:
        for word in _WORD.findall(text):
            words |= _counted(word)
        if len(words) > MAX_QUERY_WORDS:
            raise QueryTooLargeError(
                f"terms: more than {MAX_QUERY_WORDS} distinct words "
                "(identifiers count their pieces); "
                "give the few that matter, or split them into several searches"
            )


def _check_characters(text: str, what: str) -> None:
    """Refuse a control character or a lone surrogate in ``text``, naming where."""
    bad = _CONTROL.search(text)
    if bad is not None:
        raise RubiError(
            f"{what}: holds the control character U+{ord(bad.group()):04X} at character "
            f"{bad.start() + 1}; search with words only (remove NUL bytes and escapes)"
        )
    bad = _SURROGATE.search(text) if _has_surrogate(text) else None
    if bad is not None:
        raise RubiError(
            f"{what}: holds a lone surrogate (U+{ord(bad.group()):04X}) at character "
            f"{bad.start() + 1}, not Unicode text; send the words as UTF-8"
        )


def fit_query(text: str) -> str:
    """The longest start of ``text`` that :func:`check_query` accepts, cut after a
    whole word, with each control character and lone surrogate made a space: at most
    :data:`MAX_QUERY_CHARS` characters (the search then reduces a long one to its
    discriminative words). For a prompt searched as it comes (the recall hook), not
    for a question someone typed: that one is refused whole, with a message."""
    text = _CONTROL.sub(" ", text)
    if _has_surrogate(text):
        text = _SURROGATE.sub(" ", text)
    if len(text) <= MAX_QUERY_CHARS:
        return text.rstrip()
    cut = text[:MAX_QUERY_CHARS]  # drop the word the limit splits
    if not (cut[-1].isspace() or text[MAX_QUERY_CHARS].isspace()):
        cut = cut[: max((m.start() for m in _WORD.finditer(cut)), default=0)]
    return cut.rstrip()


def _counted(word: str) -> set[str]:
    """What one word adds to the distinct words a query is limited to: the word and
    its identifier pieces, case-folded."""
    return {word.casefold(), *(p.casefold() for p in identifier_parts(word))}
