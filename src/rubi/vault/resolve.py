"""Resolve wikilink targets to notes the way Obsidian does, and say when it is unsure.

Order (Obsidian Help, "Internal links"; rubi adds the last step):
1. the exact vault-relative path (``Folder/Note``), also relative to the linking note;
2. the file name, case-insensitive; a target with folders matches a path suffix;
3. a note's title, ``aliases`` or frontmatter ``id``.
When several notes match one step, the link is *ambiguous*: it is resolved as
Obsidian would (same folder as the linking note, else the shortest path) and the
candidates are recorded so ``rubi doctor`` can list it. No match: *missing*.

Names are compared folded (:func:`fold`): case-folded and in Unicode NFC, so a file
name macOS hands over decomposed (NFD: ``e`` followed by a combining accent) is
found by a link typed composed (``[[Résumé]]``), and the other way round.
"""

from __future__ import annotations

import bisect
import posixpath
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from rubi.vault.names import fold, normalize_name

__all__ = [
    "LinkResolver",
    "NoteNames",
    "Resolution",
    "alias_keys",
    "attachment_key",
    "fold",
    "lookup_keys",
    "names_keys",
    "normalize_name",
]

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Literal

    Status = Literal["resolved", "ambiguous", "missing", "attachment", "self"]


@dataclass(frozen=True, slots=True)
class NoteNames:
    """What a note can be linked by: its id (path without ``.md``), title, aliases."""

    id: str
    title: str
    aliases: tuple[str, ...] = ()
    frontmatter_id: str | None = None


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where a link points.

    ``target`` is a note id (``resolved``/``ambiguous``), an attachment path
    (``attachment``), or None (``missing``, and ``self`` for ``[[#heading]]``).
    ``candidates`` lists every match when ambiguous.
    """

    status: Status
    target: str | None
    candidates: tuple[str, ...] = ()


def _pick(cands: list[str], source_id: str) -> str:
    folder = posixpath.dirname(source_id)
    same = [c for c in cands if posixpath.dirname(c) == folder]
    pool = same or cands
    return min(pool, key=lambda c: (c.count("/"), len(c), c))


def alias_keys(n: NoteNames) -> set[str]:
    """The normalized title, aliases and frontmatter id ``n`` can be linked by."""
    names = {normalize_name(n.title), *(normalize_name(a) for a in n.aliases)}
    if n.frontmatter_id:
        names.add(normalize_name(n.frontmatter_id))
    names.discard("")
    return names


def lookup_keys(target: str, source_id: str) -> set[str]:
    """The table keys a link's resolution reads: the file names it can match
    (``b:``; paths, file names and attachments end in one) and its normalized text
    (``a:``; titles and aliases). A note whose names touch none of them cannot change
    where the link points, which is what lets a graph re-resolve only the links a
    change can affect."""
    t = target.strip().replace("\\", "/").lstrip("/").removeprefix("./")
    key = fold(t)
    note_key = key[:-3] if key.endswith(".md") else key
    keys = {"b:" + posixpath.basename(note_key), "a:" + normalize_name(t)}
    if "/" in note_key:
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(source_id), note_key))
        keys.add("b:" + posixpath.basename(joined))
    return keys


def names_keys(n: NoteNames) -> set[str]:
    """The keys (as in :func:`lookup_keys`) under which ``n`` can be found."""
    return {"b:" + posixpath.basename(fold(n.id)), *("a:" + a for a in alias_keys(n))}


def attachment_key(path: str) -> str:
    """The key (as in :func:`lookup_keys`) under which the attachment ``path`` is found."""
    return "b:" + posixpath.basename(fold(path))


def _discard(table: dict[str, list[str]], key: str, value: str) -> None:
    values = table.get(key)
    if values and value in values:
        values.remove(value)
        if not values:
            del table[key]


class LinkResolver:
    """Resolves link targets against a fixed set of notes and attachments.

    Args:
        notes: every note's names.
        attachments: vault-relative paths of non-markdown files (images, PDFs, ...).
    """

    def __init__(self, notes: Iterable[NoteNames], attachments: Iterable[str] = ()) -> None:
        self._by_path: dict[str, list[str]] = {}
        """Folded id → the ids (sorted; two differ only in case on a
        case-sensitive file system, and the last in order wins, as it always has)."""
        self._by_name: dict[str, list[str]] = defaultdict(list)
        self._by_alias: dict[str, list[str]] = defaultdict(list)
        self._att_by_path: dict[str, list[str]] = {}
        self._att_by_name: dict[str, list[str]] = defaultdict(list)
        for n in notes:
            self.add_note(n)
        for a in attachments:
            self.add_attachment(a)

    def add_note(self, n: NoteNames) -> None:
        """Make ``n`` resolvable (a note that came or was renamed)."""
        key = fold(n.id)
        bisect.insort(self._by_path.setdefault(key, []), n.id)
        self._by_name[posixpath.basename(key)].append(n.id)
        for name in alias_keys(n):
            self._by_alias[name].append(n.id)

    def remove_note(self, n: NoteNames) -> None:
        """Forget ``n`` (exactly the names it was added with)."""
        key = fold(n.id)
        _discard(self._by_path, key, n.id)
        _discard(self._by_name, posixpath.basename(key), n.id)
        for name in alias_keys(n):
            _discard(self._by_alias, name, n.id)

    def add_attachment(self, path: str) -> None:
        """Make the non-markdown file ``path`` resolvable."""
        key = fold(path)
        bisect.insort(self._att_by_path.setdefault(key, []), path)
        self._att_by_name[posixpath.basename(key)].append(path)

    def remove_attachment(self, path: str) -> None:
        """Forget the non-markdown file ``path``."""
        key = fold(path)
        _discard(self._att_by_path, key, path)
        _discard(self._att_by_name, posixpath.basename(key), path)

    def resolve(self, target: str, source_id: str = "") -> Resolution:
        """Resolve one link target written in note ``source_id``.

        Args:
            target: the link path as written (no ``#heading``), e.g. ``Folder/Note``,
                ``Note.md`` or ``image.png``.
            source_id: the linking note's id, for relative paths and tie-breaks.

        Returns:
            A :class:`Resolution`; never raises.
        """
        t = target.strip().replace("\\", "/")
        if not t:
            return Resolution("self", None)
        t = t.lstrip("/")
        t = t.removeprefix("./")
        key = fold(t)
        note_key = key[:-3] if key.endswith(".md") else key

        keys = [note_key]
        if "/" in note_key:  # a path: also try it relative to the linking note's folder
            keys.append(posixpath.normpath(posixpath.join(posixpath.dirname(source_id), note_key)))
        for k in keys:
            if k in self._by_path:
                return Resolution("resolved", self._by_path[k][-1])

        if "/" in note_key:
            # A path suffix ends in a file name: look among the notes of that name only.
            suffix = "/" + note_key
            same_name = self._by_name.get(posixpath.basename(note_key), ())
            cands = [i for i in same_name if fold(i).endswith(suffix)]
        else:
            cands = list(self._by_name.get(note_key, ()))
        if cands:
            return self._choose(cands, source_id)

        if key in self._att_by_path:
            return Resolution("attachment", self._att_by_path[key][-1])
        att = self._att_by_name.get(posixpath.basename(key), [])
        if att:
            return Resolution("attachment", _pick(att, source_id))

        alias = self._by_alias.get(normalize_name(t), [])
        if alias:
            return self._choose(alias, source_id)
        return Resolution("missing", None)

    @staticmethod
    def _choose(cands: list[str], source_id: str) -> Resolution:
        uniq = sorted(set(cands))
        if len(uniq) == 1:
            return Resolution("resolved", uniq[0])
        return Resolution("ambiguous", _pick(uniq, source_id), tuple(uniq))
