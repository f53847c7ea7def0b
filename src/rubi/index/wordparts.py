"""Pieces of an identifier or of a word joined by apostrophes or dots, in any script.

``HTTPServer`` → HTTP, Server; ``parse_v2`` → parse, v, 2; ``d'hôte`` → d, hôte;
``l'élément`` → l, élément; ``URLs`` → URLs (a plural acronym is one piece, not ``UR``
and ``Ls``); ``_frobnicate_`` → frobnicate. Letters are told apart by their case as
Unicode gives it (:meth:`str.isupper`, :meth:`str.islower`), not by the ASCII ranges
alone: with ASCII ranges an accented letter was a piece of its own, so the French
``d'hôte`` became ``d``, ``h``, ``ô``, ``te`` and no piece was the word ``hôte``; every
elided article of French and Italian (``l'``, ``d'``, ``qu'``, ``dell'``) before a word
holding an accent lost that word (``docs/benchmarks-history.md``, "issue 28: eighth
pass").
"""

from __future__ import annotations

import re

__all__ = ["contraction_head", "mixed_case_parts", "mixed_case_pieces", "word_parts"]

_ASCII_PART_RE = re.compile(
    r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_a-zA-Z]+"
)
"""The pieces of an ASCII text (the fast path; the same pieces :data:`_CLASS_PART_RE`
finds in its classes). A run of two capitals or more and a lone ``s`` after it is a
plural acronym, one piece (``URLs``, ``APIs``, ``parseURLs`` → parse, URLs): cut at
its last capital, it was ``UR`` and ``Ls``, and a question's ``url`` matched neither."""
_CLASS_PART_RE = re.compile(r"U{2,}s(?![Ls])|U+(?=U[Ls])|U?[Ls]+|U+|D+|O+")
"""The same pattern over character classes (:func:`_classes`): U upper-case letter,
L lower-case letter (``s`` the letter s, for plural acronyms), D digit, O another
letter or number (Han, kana, a letter without case), ``-`` anything else (a
separator)."""


def _classes(text: str) -> str:
    """One class letter per character of ``text`` (see :data:`_CLASS_PART_RE`)."""
    out = []
    for ch in text:
        if ch.isdecimal():
            out.append("D")
        elif ch.isupper():
            out.append("U")
        elif ch.islower():
            out.append("s" if ch == "s" else "L")
        elif ch.isalnum():
            out.append("O")
        else:
            out.append("-")
    return "".join(out)


def word_parts(text: str) -> list[str]:
    """The pieces of ``text``, in order: runs of digits, of other letters without
    case, and of letters split where the case changes (an upper-case run before an
    upper-case letter that starts a lower-case run is a piece: ``HTTPServer``);
    separators (``_``, ``.``, ``'``) are dropped. ``[]`` when there is none."""
    if text.isascii():
        return _ASCII_PART_RE.findall(text)
    return [text[m.start() : m.end()] for m in _CLASS_PART_RE.finditer(_classes(text))]


_WORD_RE = re.compile(r"\w+(?:[.'’]\w+)*")


def mixed_case_parts(text: str) -> frozenset[str]:
    """The pieces of :func:`mixed_case_pieces`."""
    return frozenset(mixed_case_pieces(text))


def mixed_case_pieces(text: str) -> dict[str, str]:
    """Each lower-cased piece of a word of ``text`` written in letters alone with
    capitals inside it → that word, lower-cased (``JavaScript`` → java, script;
    ``macOS`` → mac, os), but a piece ``text`` also writes as a word or as a piece of
    another word (``parse_v2``'s ``parse``; joins by ``_``, ``.`` and apostrophes are
    words the writer wrote apart, ``l'installer``).

    Such a word is one word as its writer wrote it: every page that writes it is
    indexed with its pieces too (the index's split filter emits them beside the
    whole), so as query words of their own the pieces counted that page's one word
    three times, each saturated and weighed apart
    (:func:`rubi.index.querymatch.query_clauses`)."""
    mixed: dict[str, str] = {}
    plain: set[str] = set()
    for token in _WORD_RE.findall(text):
        parts = [p.lower() for p in word_parts(token)]
        low = token.lower()  # once: per part, a long identifier's parts times its length
        plain.add(low)
        if token.isalpha() and not (token.islower() or token.isupper() or token.istitle()):
            mixed.update((p, low) for p in parts if p != low)
        else:
            plain.update(parts)
    return {p: w for p, w in mixed.items() if p not in plain}


_CLITICS = frozenset({"s", "re", "ll", "ve", "d", "m"})
"""English clitics written after an apostrophe (``what's``, ``we're``, ``you'll``,
``I've``, ``they'd``, ``I'm``): the word is the one before it."""
_NEGATED = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
"""Irregular ``n't`` forms (``can't``, ``won't``, ``shan't``, ``ain't``): what is
left before ``n't`` → the word."""


def contraction_head(word: str) -> str:
    """The word an English contraction is made of, before its clitic (``what's`` →
    ``what``, ``we're`` → ``we``, ``don't`` → ``do``, ``won't`` → ``will``,
    ``John's`` → ``John``), so a query's stop word stays one when contracted; any
    other word as it is (``O'Reilly``, ``l'ordinateur``: no clitic after the
    apostrophe). Without it ``what's`` was searched as ``what``, ``don't`` as
    ``don't`` and ``don``, ``we're`` as ``we'r`` and ``re``, ``you'll`` as ``ll``.
    Read on queries only (:meth:`TermAnalyzer.surface`): the index keeps its terms."""
    for mark in ("'", "\u2019"):
        head, sep, tail = word.rpartition(mark)
        if not sep or not head or mark in head:
            continue
        low = tail.lower()
        if low == "t" and head[-1:].lower() == "n" and len(head) > 2:
            base = head[:-1]
            return _NEGATED.get(base.lower(), base)
        if low in _CLITICS and head.isalpha():
            return head
    return word
