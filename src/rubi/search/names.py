"""Exact-name matches: note titles, aliases and file names named in a query.

Every run of up to :data:`MAX_NAME_WORDS` consecutive query words, and every agent
``term`` as a whole, is looked up in the vault's name table (normalized names →
ids). Longer names rank first: "Embed files" says more than "Files".

A file is also named by a longer path that ends with its own last two segments: a
traceback frame (``.../site-packages/click/types.py``) or a link
(``https://github.com/o/r/blob/main/src/click/types.py``) writes the reader's copy,
not the project's layout. Two segments, not one: ``types.py`` alone is in many
projects, ``click/types.py`` names one file. A pasted issue writes its files this way
more often than by their bare name. A dotted module name (``click.types``) is not
taken so: an issue's example imports the library's entry modules
(``from rich.console import Console``) whatever its bug is about
(``docs/benchmarks-history.md``,
"issue 28: issue → files, a written path and the headline, twenty-fifth pass").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rubi.vault.names import normalize_name

__all__ = ["MAX_NAME_OWNERS", "MAX_NAME_WORDS", "MAX_TYPE_OWNERS", "NameMatch", "match_names"]

MAX_NAME_WORDS = 8
"""Longest name (in words) looked for inside a query."""
MAX_NAME_OWNERS = 3
"""A name more notes or files carry than this names none of them: a speaker's name
that titles every captured conversation, ``index.js`` in every package. Named, all
of them took the top of the list for every question that used the name, whatever
else it asked (LoCoMo: evidence recall@5 6.8 with one note per turn titled by the
speaker); their title still counts as text, weighed by its IDF."""
MAX_TYPE_OWNERS = MAX_NAME_OWNERS
"""A type name defined in more files than this (``Error``, ``Config`` in every package)
is not taken as naming any of them."""

_WORD_RE = re.compile(r"[^\s\"'`“”‘’()\[\]{}<>,;:!?]+")


@dataclass(frozen=True, slots=True)
class NameMatch:
    """A note or file whose name appears in the query: its id, the name matched, how
    rare the name is in the vault's text (its words' IDFs summed,
    :func:`rubi.search.reweighting.name_idf`; ``inf`` until measured), whether it votes
    in fusion (:func:`rubi.search.reweighting.name_votes`) and what that was weighed on,
    as the why-line says it (``evidence``, :func:`rubi.search.reweighting.name_evidence`;
    empty when nothing was measured: a file, an identifier, the whole query).
    ``needs_text``: a note named by an identifier inside a longer question, whose vote
    stands only when the text list agrees (:func:`rubi.search.reweighting.name_seconded`)."""

    id: str
    name: str
    rarity: float = math.inf
    votes: bool = True
    evidence: str = ""
    needs_text: bool = False


def _words(text: str) -> list[str]:
    return [w.rstrip(".") for w in _WORD_RE.findall(text) if w.rstrip(".")]


def _candidate_names(words: list[str], terms: Iterable[str]) -> set[str]:
    """Every run of up to :data:`MAX_NAME_WORDS` query words, every term and its words,
    normalized."""
    candidates: set[str] = set()
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + MAX_NAME_WORDS) + 1):
            candidates.add(normalize_name(" ".join(words[i:j])))
    for term in terms:
        if term.strip():
            candidates.add(normalize_name(term))
            candidates.update(normalize_name(w) for w in _words(term))
    return candidates


def _add_type_owners(
    exact: dict[str, str],
    words: list[str],
    terms: Iterable[str],
    type_names: Mapping[str, list[str]],
) -> None:
    """Files defining a capitalised query word or term as a type, longest word first
    (a name defined in more than :data:`MAX_TYPE_OWNERS` files names none)."""
    written = [w.strip(".,:;!?()[]{}\"'`") for w in [*words, *terms]]
    for word in sorted({w for w in written if w[:1].isupper()}, key=lambda w: (-len(w), w)):
        owners = type_names.get(word, ())
        if len(owners) > MAX_TYPE_OWNERS:
            continue  # a name defined everywhere names nothing in particular
        for doc_id in owners:
            exact.setdefault(doc_id, word.casefold())


def _add_defined_owners(
    exact: dict[str, str],
    words: list[str],
    terms: Iterable[str],
    defined_names: Mapping[str, list[str]],
) -> None:
    """Files defining a capitalised word of any symbol kind. A query of one word, or a
    capitalised word inside a sentence, is an identifier: the first word of a sentence
    is capitalised anyway, and an acronym in prose (URL, HTTP) is a word."""
    single = len(words) == 1 and not any(t.strip() for t in terms)
    inner = words if single else [w for w in words[1:] if not w.isupper()]
    for word in (w.strip(".,:;!?()[]{}\"'`") for w in inner):
        owners = defined_names.get(word, ()) if word[:1].isupper() else ()
        if len(owners) <= MAX_TYPE_OWNERS:
            for doc_id in owners:
                exact.setdefault(doc_id, word.casefold())


def match_names(
    query: str,
    terms: Iterable[str],
    names: Mapping[str, list[str]],
    type_names: Mapping[str, list[str]] | None = None,
    defined_names: Mapping[str, list[str]] | None = None,
) -> list[NameMatch]:
    """Find names used in the query or given as terms.

    Args:
        query: the user's query.
        terms: extra names or identifiers, each matched whole.
        names: normalized name → ids (from the graph build).
        type_names: type names as written → defining files, matched case-sensitively
            against the query's capitalised words and the terms (after ``names``).
        defined_names: capitalised symbol names of any kind → defining files, used
            when the whole query is that one word (``Depends``: the function too).

    Returns:
        Matches, longest name first, one per id; a name more than
        :data:`MAX_NAME_OWNERS` ids carry matches none of them.
    """
    words = _words(query)
    candidates = _candidate_names(words, terms)
    # Files defining a capitalised query word as written (``EventMonitor``, the type)
    # come before files whose name matches only without case (``eventMonitor``, a
    # property), among names of the same length.
    exact: dict[str, str] = {}
    if type_names:
        _add_type_owners(exact, words, terms, type_names)
    if defined_names:
        _add_defined_owners(exact, words, terms, defined_names)
    found: dict[str, NameMatch] = {}
    for name in sorted(candidates, key=lambda n: (-len(n), n)):
        ids = names.get(name, ())
        if len(ids) > MAX_NAME_OWNERS:
            continue  # a name everything carries names nothing in particular
        for doc_id in sorted(ids, key=lambda i: exact.get(i) != name):
            found.setdefault(doc_id, NameMatch(doc_id, name))
    for doc_id, name in exact.items():
        found.setdefault(doc_id, NameMatch(doc_id, name))
    for doc_id, name in _path_owners([*words, *terms], names).items():
        found.setdefault(doc_id, NameMatch(doc_id, name))
    return list(found.values())


def _path_owners(words: Iterable[str], names: Mapping[str, list[str]]) -> dict[str, str]:
    """Files named by a written path through its last two segments (see the module):
    file id → the tail matched (``click/types.py``). A tail that more than
    :data:`MAX_NAME_OWNERS` files end with names none of them."""
    owners: dict[str, str] = {}
    for word in words:
        for tail in _tails(word):
            _, _, file_name = tail.rpartition("/")
            ids = names.get(normalize_name(file_name), ())
            ending = [i for i in ids if i.casefold() == tail or i.casefold().endswith("/" + tail)]
            if len(ending) <= MAX_NAME_OWNERS:
                for doc_id in ending:
                    owners.setdefault(doc_id, tail)
    return owners


def _tails(word: str) -> list[str]:
    """The last two segments of a written path (``a/b/c.py`` → ``b/c.py``; a link's
    ``#fragment`` and ``?query`` left out), case-folded, when the last holds a dot (a
    file name); none otherwise. A Windows path's backslashes separate segments too
    (``C:\\env\\Lib\\site-packages\\isort\\parse.py`` → ``isort/parse.py``)."""
    if "/" not in word and "\\" not in word:  # most words of a question: no path to read
        return []
    path = re.split(r"[#?]", word, maxsplit=1)[0].replace("\\", "/")
    parts = [p for p in path.strip("`'\".,:;()[]{}<>").casefold().split("/") if p]
    return ["/".join(parts[-2:])] if len(parts) >= 2 and "." in parts[-1] else []
