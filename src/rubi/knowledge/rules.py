"""The rules that keep knowledge from piling up: merge twins, follow supersede chains.

**Twin rule** (a new item updates an existing note instead of adding one): same type,
the existing note is active, and either

1. the normalized titles are equal (case, accents, punctuation, spacing ignored), or
2. the titles share at least :data:`CLOSE_TITLE_JACCARD` of their stemmed content
   words (``Use JWT for auth`` ~ ``For auth, use JWTs``) and the notes share at least
   one file.

Word sets alone are not enough: "Migrate from MySQL to Postgres" and "Migrate from
Postgres to MySQL" have the same words. A shared file is the evidence that two
similar titles speak of the same thing.

Among several twins the one with the most shared words wins, then the oldest id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rubi.errors import RubiError
from rubi.index.analysis import analyze
from rubi.knowledge.items import NoteItem
from rubi.knowledge.slug import normalize_title
from rubi.model import Note, note_files

__all__ = ["CLOSE_TITLE_JACCARD", "find_twin", "successor", "title_terms"]

CLOSE_TITLE_JACCARD = 0.5
"""Word overlap (intersection over union) that, with a shared file, makes two titles
the same knowledge."""


def title_terms(title: str) -> frozenset[str]:
    """Stemmed content words of a title. Numbers and one-letter words are kept as they
    are (the search analyzer drops them, but "Bug 1" and "Bug 2" are not the same)."""
    terms: set[str] = set()
    for word in normalize_title(title).split():
        stems = analyze(word)
        if stems:
            terms.update(stems)
        elif word.isdigit() or len(word) == 1:
            terms.add(word)
    return frozenset(terms)


def find_twin(item: NoteItem, notes: Iterable[Note]) -> Note | None:
    """The active note of the same type that holds the same knowledge, or None."""
    key = normalize_title(item.title)
    terms = title_terms(item.title)
    files = set(item.files)
    best: tuple[float, str, Note] | None = None
    for note in notes:
        if note.type != item.type or note.status != "active" or note.frontmatter_error:
            continue
        other = title_terms(note.title)
        if normalize_title(note.title) == key:
            score = 2.0
        else:
            union = terms | other
            jaccard = len(terms & other) / len(union) if union else 0.0
            if jaccard < CLOSE_TITLE_JACCARD or not files & set(note_files(note)):
                continue
            score = jaccard
        if best is None or (score, _neg(note.id)) > (best[0], _neg(best[1])):
            best = (score, note.id, note)
    return best[2] if best else None


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
