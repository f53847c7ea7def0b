"""Validate what a caller wants to register into :class:`NoteItem` values.

Every problem is a :class:`rubi.errors.RubiError` naming the item and the field, and
all items are checked before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rubi.errors import RubiError
from rubi.model import NOTE_TYPES

__all__ = ["MAX_BODY_CHARS", "MAX_TITLE_CHARS", "LinkSpec", "NoteItem", "parse_items"]

MAX_BODY_CHARS = 100_000
"""A note is knowledge, not a log: longer bodies are refused (split them)."""
MAX_TITLE_CHARS = 200
SCOPES = ("project", "personal")


@dataclass(frozen=True, slots=True)
class LinkSpec:
    """A typed link to write: ``- relation [[target]]``."""

    relation: str
    target: str


@dataclass(frozen=True, slots=True)
class NoteItem:
    """One piece of knowledge to register.

    Attributes:
        type: one of :data:`rubi.model.NOTE_TYPES`.
        title: one line.
        body: markdown.
        files: repository paths the knowledge is about.
        links: typed links to other notes (by id, title or alias).
        supersedes: the note this one replaces (id, title or alias), or None.
        tags: tags without ``#``.
        scope: ``project`` (the project vault) or ``personal`` (the personal vault).
    """

    type: str
    title: str
    body: str
    files: tuple[str, ...] = ()
    links: tuple[LinkSpec, ...] = ()
    supersedes: str | None = None
    tags: tuple[str, ...] = ()
    scope: str = "project"
    aliases: tuple[str, ...] = field(default=())


def _strs(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise RubiError(f"{where}: expected a list of strings")
    return tuple(v.strip() for v in value if v.strip())


def _repo_path(entry: str) -> str:
    """One spelling per path: ``/`` separators, no ``./``; a folder keeps its ``/``."""
    path = entry.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


def _item(raw: Any, n: int) -> NoteItem:
    where = f"notes[{n}]"
    if isinstance(raw, NoteItem):
        return raw
    if not isinstance(raw, Mapping):
        raise RubiError(f"{where}: expected an object with type, title and body")
    unknown = set(raw) - {
        "type",
        "title",
        "body",
        "files",
        "links",
        "supersedes",
        "tags",
        "scope",
        "aliases",
    }
    if unknown:
        raise RubiError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    kind = raw.get("type")
    if kind not in NOTE_TYPES:
        raise RubiError(f"{where}.type: must be one of {', '.join(NOTE_TYPES)}, got {kind!r}")
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        raise RubiError(f"{where}.title: required, one line of text")
    title = " ".join(title.split())
    if len(title) > MAX_TITLE_CHARS:
        raise RubiError(f"{where}.title: {len(title)} characters; at most {MAX_TITLE_CHARS}")
    body = raw.get("body", "")
    if not isinstance(body, str):
        raise RubiError(f"{where}.body: must be text")
    if len(body) > MAX_BODY_CHARS:
        raise RubiError(
            f"{where}.body: {len(body):,} characters; at most {MAX_BODY_CHARS:,}: split it "
            "into several notes"
        )
    links: list[LinkSpec] = []
    for i, link in enumerate(raw.get("links") or ()):
        if not isinstance(link, Mapping) or not isinstance(link.get("target"), str):
            raise RubiError(f"{where}.links[{i}]: expected {{relation, target}}")
        relation = str(link.get("relation") or "relates_to").strip().lower().replace("-", "_")
        if not relation.replace("_", "").isalnum():
            raise RubiError(f"{where}.links[{i}].relation: one word, got {relation!r}")
        if link["target"].strip():
            links.append(LinkSpec(relation, link["target"].strip()))
    supersedes = raw.get("supersedes")
    if supersedes is not None and (not isinstance(supersedes, str) or not supersedes.strip()):
        raise RubiError(f"{where}.supersedes: the id or title of the note it replaces")
    scope = raw.get("scope") or "project"
    if scope not in SCOPES:
        raise RubiError(f"{where}.scope: 'project' or 'personal', got {scope!r}")
    return NoteItem(
        type=kind,
        title=title,
        body=body.strip("\n"),
        files=tuple(
            dict.fromkeys(_repo_path(f) for f in _strs(raw.get("files"), f"{where}.files"))
        ),
        links=tuple(links),
        supersedes=supersedes.strip() if isinstance(supersedes, str) else None,
        tags=tuple(t.lstrip("#") for t in _strs(raw.get("tags"), f"{where}.tags")),
        scope=scope,
        aliases=_strs(raw.get("aliases"), f"{where}.aliases"),
    )


def parse_items(raw: Sequence[Any]) -> list[NoteItem]:
    """Validate every item.

    Raises:
        RubiError: the first problem, naming ``notes[i].field``.
    """
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise RubiError("notes: expected a list of note objects")
    if not raw:
        raise RubiError("notes: empty; give at least one note")
    return [_item(r, i) for i, r in enumerate(raw)]
