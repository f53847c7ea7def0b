"""Links as Obsidian resolves them, strictly: by path and file name only.

rubi's resolver (:mod:`rubi.vault.resolve`) adds a step Obsidian does not have: a link
may also name a note by its title, an alias or its frontmatter ``id``. Search keeps
that leniency; ``rubi doctor`` uses :func:`obsidian_unresolved` to list the links that
resolve only through it, so a link broken in Obsidian is never hidden.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rubi.core.model import Note
from rubi.vault.resolve import LinkResolver, NoteNames

__all__ = ["LenientLink", "obsidian_unresolved"]


@dataclass(frozen=True, slots=True)
class LenientLink:
    """A link Obsidian leaves unresolved that rubi resolves by title, alias or ``id``:
    the linking note's id, the target as written, and the note rubi picked."""

    source: str
    target: str
    resolved_to: str


def _names(note: Note) -> NoteNames:
    fm_id = note.metadata.get("id")
    return NoteNames(
        note.id, note.title, note.aliases, str(fm_id) if isinstance(fm_id, str) else None
    )


def obsidian_unresolved(notes: Iterable[Note], attachments: Iterable[str]) -> list[LenientLink]:
    """Every link (body and properties) that rubi resolves only by a note's title,
    alias or frontmatter ``id``: Obsidian, which matches paths and file names only,
    shows it as unresolved. Sorted by source, then target."""
    notes = list(notes)
    files = list(attachments)
    lenient = LinkResolver((_names(n) for n in notes), files)
    strict = LinkResolver((NoteNames(n.id, "") for n in notes), files)
    found: set[LenientLink] = set()
    for note in notes:
        for link in note.links:
            if not link.target.strip():
                continue
            got = lenient.resolve(link.target, note.id)
            if got.target is None or got.status not in ("resolved", "ambiguous"):
                continue
            if strict.resolve(link.target, note.id).status == "missing":
                found.add(LenientLink(note.id, link.target, got.target))
    return sorted(found, key=lambda x: (x.source, x.target))
