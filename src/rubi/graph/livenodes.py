"""What the live graph (:mod:`rubi.graph.live`) keeps per note, and the small tables it
looks links up in: a note's node attributes, the shared attribute dicts of its link
edges, the resolver keys a note's links read and its names fill, and which link
targets are attachments.

Pure functions of a note or its record; the graph itself is changed only by
:class:`~rubi.graph.live.LiveGraph` and its code-map half
(:class:`~rubi.graph.livecode.LiveCodeMap`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rubi.core.model import Note
from rubi.core.pagenames import GENERATED_COMMENT
from rubi.dates.days import note_day
from rubi.vault.resolve import NoteNames, lookup_keys, normalize_name

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "ATTACHMENT_EXTENSIONS",
    "add_link_edge",
    "interned",
    "is_attachment",
    "name_keys",
    "node_attrs",
    "read_keys",
]

ATTACHMENT_EXTENSIONS = frozenset(
    [
        "png",
        "jpg",
        "jpeg",
        "gif",
        "svg",
        "webp",
        "bmp",
        "avif",
        "heic",
        "pdf",
        "mp3",
        "mp4",
        "webm",
        "wav",
        "ogg",
        "m4a",
        "flac",
        "mov",
        "mkv",
        "canvas",
        "base",
        "excalidraw",
        "csv",
        "json",
        "txt",
        "zip",
    ]
)
"""Extensions Obsidian embeds as files: a missing one is a missing attachment, not a
dangling note."""


def is_attachment(target: str) -> bool:
    """Whether the link target ``target`` (as written) names a file Obsidian embeds
    (its extension is one of :data:`ATTACHMENT_EXTENSIONS`)."""
    name = target.rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1].lower() in ATTACHMENT_EXTENSIONS


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def interned(value: str) -> str:
    """``value`` interned (one copy per process), when it is a plain ``str``."""
    return sys.intern(value) if type(value) is str else value


def node_attrs(note: Note, files: tuple[str, ...]) -> dict[str, Any]:
    """The attributes of ``note``'s node (``files``: its ``files:`` entries, shared
    with its :class:`~rubi.graph.live.GraphNote`).

    Always ``kind``, ``title``, ``type``, ``status``, ``path``; ``generated``,
    ``session``, ``superseded_by``, ``files``, ``commit``, ``fm_id`` and ``date`` only
    when true or set (readers ``.get`` them: absent is False, None or empty). A node
    of five keys is 360 bytes against 656 for twelve, and type and status strings are
    interned (one each in a 50,000-node graph, not one per node).
    """
    attrs: dict[str, Any] = {
        "kind": "note",
        "title": note.title,
        "type": interned(note.type),
        "status": interned(note.status),
        "path": note.path,
    }
    optional = (
        ("generated", GENERATED_COMMENT in note.body[:400]),
        ("session", note.id.startswith("sessions/")),
        ("superseded_by", _text(note.metadata.get("superseded_by"))),
        ("files", files),
        ("commit", _text(note.metadata.get("commit"))),
        ("fm_id", _text(note.metadata.get("id"))),
        ("date", note_day(note.metadata)),
    )
    attrs.update((k, v) for k, v in optional if v)
    return attrs


_EDGE_DATA: dict[str, dict[str, str]] = {}
"""One attribute dict per relation, shared by every note edge of it (never changed in
place): 184 bytes an edge less than a dict each."""


def add_link_edge(g: nx.MultiDiGraph, source: str, target: str, relation: str) -> None:
    """Add the edge ``source → target`` keyed ``relation`` with ``{"relation": relation}``
    as its attributes, the dict shared by every edge of that relation."""
    g.add_edge(source, target, key=relation)
    data = _EDGE_DATA.get(relation)
    if data is None:
        relation = sys.intern(relation)
        data = _EDGE_DATA.setdefault(relation, {"relation": relation})
    # networkx keeps one key dict per node pair, shared by its successor and
    # predecessor views: setting the key there sets the edge's attributes.
    g._succ[source][target][relation] = data


def read_keys(links: Iterable[tuple[str, str]], note_id: str) -> set[str]:
    """The lookup keys the links of ``note_id`` (``(target as written, relation)``
    pairs) read."""
    return {key for target, _ in links for key in lookup_keys(target, note_id)}


def name_keys(names: NoteNames) -> set[str]:
    """Exact-name table keys of a note (title, file name, aliases, frontmatter id)."""
    keys = {normalize_name(names.title), normalize_name(names.id.rsplit("/", 1)[-1])}
    keys.update(normalize_name(a) for a in names.aliases)
    if names.frontmatter_id:
        keys.add(normalize_name(names.frontmatter_id))
    keys.discard("")
    return keys
