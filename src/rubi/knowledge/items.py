"""Validate what a caller wants to register into :class:`NoteItem` values.

Every problem is a :class:`rubi.core.errors.RubiError` naming the item and the field, and
all items are checked before anything is written. Items come from MCP arguments, CLI
options and JSON files, so every value is untrusted: text must be Unicode without
control characters (:mod:`rubi.core.safetext`), one-line fields stay one line, link targets
cannot close or split a wikilink, and file paths are normalised relative to the
project and refused when they leave it (:mod:`rubi.core.safepaths`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubi.core.errors import RubiError
from rubi.core.model import DEFAULT_RELATION, NOTE_TYPES
from rubi.core.safepaths import project_relative, relative_path
from rubi.core.safetext import check_text, link_target, one_line

__all__ = [
    "MAX_BODY_CHARS",
    "MAX_LIST_ITEMS",
    "MAX_TITLE_CHARS",
    "LinkSpec",
    "NoteItem",
    "parse_items",
    "repo_path",
]

MAX_BODY_CHARS = 100_000
"""A note is knowledge, not a log: longer bodies are refused (split them)."""
MAX_TITLE_CHARS = 200
MAX_LIST_ITEMS = 200
"""Files, links, tags or aliases of one item: a note about more is a list, not a note."""
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
        type: one of :data:`rubi.core.model.NOTE_TYPES`.
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


def _strs(value: Any, where: str, *, fold: bool = True) -> tuple[str, ...]:
    """A list of one-line strings (a lone string counts as a list of one), blanks
    dropped; ``fold=False`` keeps each as given (a path: a line break in it is refused
    later, not folded into a space)."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise RubiError(f"{where}: expected a list of strings")
    if len(value) > MAX_LIST_ITEMS:
        raise RubiError(f"{where}: {len(value)} entries; at most {MAX_LIST_ITEMS}")
    out = (
        one_line(v, f"{where}[{i}]") if fold else check_text(v, f"{where}[{i}]")
        for i, v in enumerate(value)
    )
    return tuple(v for v in out if v.strip())


def repo_path(entry: str, where: str, root: Path | None = None, cwd: Path | None = None) -> str:
    """One spelling per path: relative to the project root with ``/`` separators, no
    ``./``; a folder keeps its trailing ``/``.

    Args:
        entry: the path as given.
        where: the field, for messages (``notes[0].files[1]``).
        root: the project folder (or the vault's, outside a project); None: checked
            without a folder (no ``..`` above the start, nothing absolute).
        cwd: the folder a relative ``entry`` is taken from (a CLI in a subfolder);
            None: ``root``.

    Raises:
        UnsafePathError: the path leaves the project (``../..``, an absolute path
            elsewhere, a symlink out), names the project itself, or is not a path.
    """
    if root is None:
        return relative_path(entry, what=where)
    rel = project_relative(root, entry, cwd=cwd, what=where)
    if rel == ".":
        return relative_path(".", what=where)  # raises: the project is not a file
    return rel + "/" if entry.strip().endswith(("/", "\\")) else rel


def _files(value: Any, where: str, root: Path | None, cwd: Path | None) -> tuple[str, ...]:
    return tuple(
        dict.fromkeys(
            repo_path(f, f"{where}[{i}]", root, cwd)
            for i, f in enumerate(_strs(value, where, fold=False))
        )
    )


def _item(raw: Any, n: int, root: Path | None, cwd: Path | None) -> NoteItem:
    where = f"notes[{n}]"
    if isinstance(raw, NoteItem):  # built in code: checked all the same
        raw = dataclasses.asdict(raw)
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
    title = _title(raw.get("title"), f"{where}.title")
    if "body" not in raw:  # the tools' schemas require it; a client may not check them
        raise RubiError(f"{where}.body: missing; give the note's text (markdown)")
    body = _body(raw["body"], f"{where}.body")
    links = _links(raw.get("links") or (), f"{where}.links")
    supersedes = raw.get("supersedes")
    if supersedes is not None and (not isinstance(supersedes, str) or not supersedes.strip()):
        raise RubiError(f"{where}.supersedes: the id or title of the note it replaces")
    if isinstance(supersedes, str):
        supersedes = link_target(supersedes, f"{where}.supersedes")
    scope = raw.get("scope") or "project"
    if scope not in SCOPES:
        raise RubiError(f"{where}.scope: 'project' or 'personal', got {scope!r}")
    return NoteItem(
        type=kind,
        title=title,
        body=body.strip("\n"),
        files=_files(raw.get("files"), f"{where}.files", root, cwd),
        links=links,
        supersedes=supersedes if isinstance(supersedes, str) else None,
        tags=_tags(raw.get("tags"), f"{where}.tags"),
        scope=scope,
        aliases=_strs(raw.get("aliases"), f"{where}.aliases"),
    )


def _title(title: Any, where: str) -> str:
    """A note's title: one line of text, at most :data:`MAX_TITLE_CHARS`."""
    if not isinstance(title, str) or not title.strip():
        raise RubiError(f"{where}: required, one line of text")
    line = one_line(title, where)
    if len(line) > MAX_TITLE_CHARS:
        raise RubiError(f"{where}: {len(line)} characters; at most {MAX_TITLE_CHARS}")
    return line


def _body(body: Any, where: str) -> str:
    """A note's body: text, at most :data:`MAX_BODY_CHARS`."""
    if not isinstance(body, str):
        raise RubiError(f"{where}: must be text")
    check_text(body, where)
    if len(body) > MAX_BODY_CHARS:
        raise RubiError(
            f"{where}: {len(body):,} characters; at most {MAX_BODY_CHARS:,}: split it "
            "into several notes"
        )
    return body


def _links(raw_links: Any, where: str) -> tuple[LinkSpec, ...]:
    """Typed links ``[{relation, target}]``; the relation defaults to
    :data:`DEFAULT_RELATION`, an empty target is dropped."""
    if not isinstance(raw_links, Sequence) or isinstance(raw_links, (str, bytes)):
        raise RubiError(f"{where}: expected a list of {{relation, target}}")
    if len(raw_links) > MAX_LIST_ITEMS:
        raise RubiError(f"{where}: {len(raw_links)} entries; at most {MAX_LIST_ITEMS}")
    links: list[LinkSpec] = []
    for i, link in enumerate(raw_links):
        if not isinstance(link, Mapping) or not isinstance(link.get("target"), str):
            raise RubiError(f"{where}[{i}]: expected {{relation, target}}")
        if not isinstance(link.get("relation") or "", str):
            raise RubiError(f"{where}[{i}].relation: one word, like about or fixes")
        relation = str(link.get("relation") or DEFAULT_RELATION).strip().lower().replace("-", "_")
        if not relation.replace("_", "").isalnum():
            raise RubiError(f"{where}[{i}].relation: one word, got {relation!r}")
        target = link_target(link["target"], f"{where}[{i}].target")
        if target:
            links.append(LinkSpec(relation, target))
    return tuple(links)


def _tags(value: Any, where: str) -> tuple[str, ...]:
    """Tags without ``#``; a tag is one word (Obsidian ends a tag at a space)."""
    tags = tuple(t.lstrip("#") for t in _strs(value, where))
    for i, tag in enumerate(tags):
        if not tag or " " in tag:
            raise RubiError(f"{where}[{i}]: {tag!r} is not a tag; one word, like auth or db/pool")
    return tags


def parse_items(
    raw: Sequence[Any], *, root: Path | None = None, cwd: Path | None = None
) -> list[NoteItem]:
    """Validate every item.

    Args:
        raw: note objects (mappings) or :class:`NoteItem` values.
        root: the project folder ``files`` are relative to (the vault's outside a
            project); None: paths are only checked to be relative and not to climb out.
        cwd: the folder relative ``files`` are taken from (the CLI's working folder);
            None: ``root`` (MCP arguments and JSON files name paths from the root).

    Raises:
        RubiError: the first problem, naming ``notes[i].field``.
    """
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise RubiError("notes: expected a list of note objects")
    if not raw:
        raise RubiError("notes: empty; give at least one note")
    return [_item(r, i, root, cwd) for i, r in enumerate(raw)]
