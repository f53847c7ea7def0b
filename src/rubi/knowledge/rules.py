"""The rules that keep knowledge from piling up: merge twins, follow supersede chains.

**Twin rule** (a new item updates an existing note instead of adding one): same type,
the existing note is active and parseable, and either

1. the titles have the same key (:func:`rubi.knowledge.slug.title_key`: case, Latin
   accents, spacing and soft punctuation ignored; ``C++``, ``!=`` and emoji kept), or
2. the notes share a file and the titles are *close*: their stemmed word sequences
   (stop words and numbers kept, order kept) have a similarity ratio of at least
   :data:`CLOSE_TITLE_RATIO` (Ratcliff/Obershelp, Python's ``difflib``), and the words
   that differ are plain Latin words, none of them a negation or antonym marker (a
   differing number, symbol or non-Latin word blocks the merge).

So "Use JWTs instead of the session cookies" merges into "Use JWT instead of session
cookies" (about the same file), while "Do not use eval" stays apart from "Use eval",
"Disable caching" from "Enable caching", "Migrate from MySQL to Postgres" from
"Migrate from Postgres to MySQL", and "Bug 1 …" from "Bug 2 …".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher

from rubi.core.errors import RubiError
from rubi.core.model import Note, note_files
from rubi.index.analysis import analyze
from rubi.knowledge.items import NoteItem
from rubi.knowledge.slug import fold_latin_accents, title_key

__all__ = [
    "CLOSE_TITLE_RATIO",
    "FLIPPERS",
    "find_twin",
    "normalize_repo_path",
    "successor",
    "title_words",
]

CLOSE_TITLE_RATIO = 0.8
"""Similarity of stemmed word sequences above which two titles about a shared file are
one piece of knowledge."""

FLIPPERS = frozenset(
    [
        "no",
        "not",
        "never",
        "non",
        "without",
        "dont",
        "don't",
        "doesnt",
        "isnt",
        "wont",
        "cannot",
        "cant",
        "avoid",
        "stop",
        "disable",
        "disabled",
        "enable",
        "enabled",
        "remove",
        "removed",
        "add",
        "added",
        "deny",
        "allow",
        "forbid",
        "before",
        "after",
        "instead",
        "unless",
        "except",
    ]
)
"""Words that change what a title means when one title has them and the other not."""

_PLAIN_WORD = re.compile(r"[a-z]+")
"""Words whose stems compare reliably; anything else that differs blocks a merge."""
_WORD_RE = re.compile(r"[^\W_]+|[^\w\s]+")


def title_words(title: str) -> list[str]:
    """A title as a sequence of stemmed words, stop words and numbers kept, symbol runs
    (``++``, ``!=``) as words of their own."""
    out: list[str] = []
    for word in _WORD_RE.findall(fold_latin_accents(title.lower())):
        stems = analyze(word)
        out.extend(stems if stems else [word])
    return out


def _close(a: str, b: str) -> bool:
    wa, wb = title_words(a), title_words(b)
    if not wa or not wb:
        return False
    differ = set(wa) ^ set(wb)
    raw = set(_WORD_RE.findall(a.lower())) ^ set(_WORD_RE.findall(b.lower()))
    if any(w in FLIPPERS or not _PLAIN_WORD.fullmatch(w) for w in differ | raw):
        return False  # a negation, a number, a symbol (C++ vs C) or a non-Latin word
    return SequenceMatcher(None, wa, wb, autojunk=False).ratio() >= CLOSE_TITLE_RATIO


def find_twin(item: NoteItem, notes: Iterable[Note]) -> Note | None:
    """The active note of the same type that holds the same knowledge, or None."""
    key = title_key(item.title)
    files = {normalize_repo_path(f) for f in item.files}
    best: tuple[float, str, Note] | None = None
    for note in notes:
        if note.type != item.type or note.status != "active" or note.frontmatter_error:
            continue
        if title_key(note.title) == key:
            score = 2.0
        elif files & {normalize_repo_path(f) for f in note_files(note)} and _close(
            item.title, note.title
        ):
            score = 1.0
        else:
            continue
        if best is None or (score, _neg(note.id)) > (best[0], _neg(best[1])):
            best = (score, note.id, note)
    return best[2] if best else None


def normalize_repo_path(entry: str) -> str:
    """A ``files:`` entry spelled one way: ``/`` separators, no ``./``, no trailing ``/``."""
    path = entry.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.strip("/")


def _neg(note_id: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in note_id)


def successor(notes: Mapping[str, Note], note_id: str, by_name: Mapping[str, str]) -> str:
    """The newest note in ``note_id``'s supersede chain (itself when active).

    Args:
        notes: notes by id.
        note_id: where to start.
        by_name: ``superseded_by`` values (frontmatter ids or note ids) → note ids.

    Raises:
        RubiError: the chain loops.
    """
    seen = [note_id]
    current = note_id
    while True:
        note = notes.get(current)
        nxt = note.metadata.get("superseded_by") if note else None
        if not isinstance(nxt, str) or not nxt:
            return current
        target = by_name.get(nxt, nxt)
        if target in seen:
            raise RubiError(f"{note_id}: superseded_by chain loops ({' → '.join(seen)})")
        if target not in notes:
            return current
        seen.append(target)
        current = target
