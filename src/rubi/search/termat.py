"""Whether a place in a text holds a term as the index analysed it, without analysing
the text whole: the search-time checks that find a question's terms by ``str.find`` of
a key (the window rules, :mod:`rubi.search.codewindow` and
:mod:`rubi.search.notewindow`) ask here, and the key itself is made here
(:func:`term_key`).

The index holds, for each token its tokenizer cuts (:data:`rubi.index.analysis`'s
pattern: words, with dotted names and apostrophes kept together), the terms of the
whole token and of each of its parts (:func:`rubi.index.wordparts.word_parts`):
``SQLite`` is ``sqlite``, ``sq`` and ``lite``; ``HTTPServer`` is ``httpserv``,
``http`` and ``serv``; ``os.path`` is ``os.path``, ``os`` and ``path``. A check that
looked at the part starting at a place alone missed the whole token of every
identifier the index splits (a question's ``sqlite``, ``graphql``, ``oauth``,
``ipv6``, ``__init__``), and one that cut parts by case changes alone missed the part
after an acronym (``Server`` of ``HTTPServer``, ``Response`` of ``getHTTPResponse``)
and after a digit (``beta`` of ``v2beta``): the index matched those words, the window
did not see them (``docs/benchmarks-history.md``, "issue 28: code window words,
fourteenth pass"). A token of one part inside underscores (``_root``, ``__init__``,
markdown's ``_change frequency_``) is held whole and as its part, like any other
("issue 28: underscore words and plural acronyms, fourteenth pass").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from rubi.index.analysis import TOKEN_PATTERN, WORD_CHARS
from rubi.index.wordparts import word_parts
from rubi.index.wordterm import fold

__all__ = ["holds_term", "part_at", "term_key", "token_at"]

_ASCII_PART = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
"""An ASCII identifier's first part, as :func:`rubi.index.wordparts.word_parts` cuts it."""
_WORD = re.compile(r"[^\W_]+")
_TOKEN = re.compile(TOKEN_PATTERN)
"""The index's tokenizer (:func:`token_at`)."""
_WORD_CHAR = re.compile(f"[{WORD_CHARS}]")
"""A character the tokenizer reads as part of a word."""
_JOINERS = frozenset(".'\u2019")
"""Characters that join two words into one token (``os.path``, ``don't``)."""


def _part_starts(text: str, pos: int) -> bool:
    """Whether an identifier part starts at ``pos`` (``text[pos]`` alphanumeric), as
    :func:`rubi.index.wordparts.word_parts` cuts (its classes: digit, upper-case,
    lower-case, another letter or number): after a separator, at a change of case from
    lower to upper, at the last capital of a run a lower-case letter follows
    (``HTTP|Server``) unless that letter is a plural's lone ``s`` (``URLs`` is one
    part), and between classes otherwise (``v|2|beta``)."""
    if pos == 0:
        return True
    before, here = text[pos - 1], text[pos]
    if not before.isalnum():
        return True
    if here.isupper():
        after = text[pos + 1 : pos + 2]
        if before.isupper() and after == "s":
            return text[pos + 2 : pos + 3].islower()  # ``URLs``: one part; ``UIsettings``: two
        return not before.isupper() or after.islower()
    if here.islower():
        return not (before.islower() or before.isupper())
    if here.isdecimal():
        return not before.isdecimal()
    return before.isupper() or before.islower() or before.isdecimal()


def part_at(text: str, pos: int) -> str | None:
    """The identifier part of ``text`` that starts at ``pos``, lower-cased; None when
    no word or part starts there (``design`` holds ``sign`` but no part starts at it)."""
    if not text[pos].isalnum() or not _part_starts(text, pos):
        return None
    if text[pos].isascii():
        found = _ASCII_PART.match(text, pos)
        return found.group().lower() if found else None
    word = _WORD.match(text, pos)
    parts = word_parts(word.group()) if word else []
    return parts[0].lower() if parts else None


def token_at(text: str, pos: int) -> str | None:
    """The index's token of ``text`` that starts at ``pos`` (its whole form, before
    it is cut into parts: ``sqlite``, ``os.path``, ``__init__``), lower-cased as the
    index's surface; None when no token starts there (inside a word, or after a dot
    that joins it to the word before)."""
    if pos > 0:
        before = text[pos - 1]
        if _WORD_CHAR.match(before):
            return None
        if before in _JOINERS and pos > 1 and _WORD_CHAR.match(text[pos - 2]):
            return None
    found = _TOKEN.match(text, pos)
    if found is None:
        return None
    token = found.group()
    if not token.isascii():
        token = unicodedata.normalize("NFC", token)
    return token.lower()


def holds_term(
    text: str,
    pos: int,
    term: str,
    terms_of: Callable[[str], tuple[str, ...]],
    seen: dict[str, bool],
) -> bool:
    """Whether the index holds ``term`` for the word or identifier part of ``text``
    starting at ``pos``: the part (:func:`part_at`) or, at a token's start, the whole
    token (:func:`token_at`) analyses to it by ``terms_of`` (the chain's
    :meth:`~rubi.index.analysis.TermAnalyzer.terms_of`). ``seen``: the answers for
    ``term`` so far, by part or token (a common key is found hundreds of times)."""
    if pos and text[pos].islower():
        before = text[pos - 1]
        if before.islower() or before.isupper():
            return False  # inside a word (most places a key is found): no part, no token
    part = part_at(text, pos)
    if part is not None:
        ok = seen.get(part)
        if ok is None:
            ok = seen[part] = term in terms_of(part)
        if ok:
            return True
    whole = token_at(text, pos)
    if whole is None or whole == part:
        return False
    ok = seen.get(whole)
    if ok is None:
        ok = seen[whole] = term in terms_of(whole)
    return ok


def term_key(surface: str, term: str) -> str:
    """The prefix of a question's word ``surface`` (lower case, as written) whose
    letters, accent-folded one by one (:func:`rubi.index.wordterm.fold`, as the index
    folds a stem), begin ``term``: the key the code and note windows look for in a text
    lower-cased as written (:func:`rubi.search.snippet.aligned_lower`). ``using`` (term
    ``use``) looks for ``us``, as the text's ``Using`` holds no ``use``; ``képlettel``
    (Hungarian ``kepl``) for ``képl``, ``página`` (``pagin``) for ``págin``. The term
    itself when fewer than three of its letters (two of a term of three) are matched:
    nothing shorter is looked for. An ASCII word's key is its longest common prefix
    with the term. (Compared unfolded, a word with an accent among its first three
    letters had the folded term as its key, which a text writing the accent never
    holds: the window did not see most of a Hungarian question's words;
    ``docs/benchmarks-history.md``, "issue 28: languages still below their own BM25,
    twentieth pass".)"""
    size = matched = 0
    for ch in surface:
        folded = fold(ch)
        if not term.startswith(folded, matched):
            break
        matched += len(folded)
        size += 1
    return surface[:size] if matched >= (2 if len(term) <= 3 else 3) else term
