"""Domain values shared by every layer: notes, links, headings, warnings.

Note identity is the vault-relative POSIX path without ``.md`` (``notes/decision-x``),
in Unicode NFC.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any, Literal

__all__ = [
    "DEFAULT_RELATION",
    "DEFAULT_TYPE",
    "LINKS_TO",
    "NOTE_TYPES",
    "Heading",
    "Link",
    "Note",
    "NoteType",
    "ScanWarning",
    "note_files",
    "note_id_for_path",
]

NOTE_TYPES: tuple[str, ...] = (
    "decision",
    "bug",
    "gotcha",
    "concept",
    "how-to",
    "preference",
    "task",
    "note",
)
"""The kinds of knowledge a note holds: the one list. The CLI's ``--type`` choices, the
MCP ``register`` schema and the parser's accepted types derive from it."""
if TYPE_CHECKING:
    NoteType = Literal[
        "decision",
        "bug",
        "gotcha",
        "concept",
        "how-to",
        "preference",
        "task",
        "note",
    ]
    """:data:`NOTE_TYPES` as a type, in its order (a test compares the two)."""


def __getattr__(name: str) -> object:
    """``NoteType`` at run time (the MCP ``register`` model's field type), made on
    first use from :data:`NOTE_TYPES`: importing ``typing`` costs a cold hook ~3 ms."""
    if name == "NoteType":
        from typing import Literal

        note_type = globals()["NoteType"] = Literal[NOTE_TYPES]
        return note_type
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DEFAULT_TYPE = "note"
LINKS_TO = "links_to"
"""Relation of a wikilink that carries no type."""
DEFAULT_RELATION = "relates_to"
"""Relation of a registered link (``--link``, MCP ``register``, a handoff's notes) that
names none."""


@dataclass(frozen=True, slots=True)
class Heading:
    """A markdown heading. ``line`` is 0-based, counted in the body (after frontmatter)."""

    level: int
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class Link:
    """One wikilink as written in a note.

    Attributes:
        target: the link path as written, without ``#heading``/``#^block`` (may be empty
            for a same-note link such as ``[[#Heading]]``).
        relation: ``links_to`` for a plain link, else the typed relation of a
            ``- <relation> [[target]]`` list item or the frontmatter key it came from.
        alias: display text after ``|``, if any.
        heading: the ``#heading`` part, if any.
        block: the ``#^block`` id, if any.
        embed: True for ``![[...]]``.
        line: 0-based line in the body where the block holding the link starts;
            -1 for a link in frontmatter.
    """

    target: str
    relation: str = LINKS_TO
    alias: str | None = None
    heading: str | None = None
    block: str | None = None
    embed: bool = False
    line: int = 0


@dataclass(frozen=True, slots=True)
class Note:
    """A parsed note. Built by :func:`rubi.markdown.parse_note`; never touches disk.

    Attributes:
        id: vault-relative POSIX path without ``.md``, in Unicode NFC.
        path: vault-relative POSIX path with ``.md``, as the file system names it.
        title: frontmatter ``title``, else the text a reader sees of the first H1 that
            shows any (``# Intro to [[dataview|Dataview]]`` → ``Intro to Dataview``:
            :mod:`rubi.markdown.display`), else the file name.
        type: one of :data:`NOTE_TYPES` (``note`` when absent or unknown).
        status: frontmatter ``status`` (``active`` when absent).
        aliases: frontmatter ``aliases``/``alias``.
        tags: frontmatter ``tags`` and inline ``#tags``, without ``#``, de-duplicated.
        headings: every heading in order.
        links: every wikilink in order (body first, then frontmatter properties).
        body: the markdown after the frontmatter.
        metadata: the frontmatter exactly as parsed, unknown keys included.
        frontmatter_error: why the frontmatter could not be read, when the note was
            parsed leniently (body only); such a note must never be rewritten.
    """

    id: str
    path: str
    title: str
    type: str = DEFAULT_TYPE
    status: str = "active"
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    headings: tuple[Heading, ...] = ()
    links: tuple[Link, ...] = ()
    body: str = ""
    metadata: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    frontmatter_error: str | None = None


@dataclass(frozen=True, slots=True)
class ScanWarning:
    """A problem with one file that did not stop the run: ``path: message``."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def note_id_for_path(path: str) -> str:
    """Return the note id for a vault-relative POSIX path (``a/b.md`` → ``a/b``).

    The id is in Unicode NFC whatever form the file system gave the name in (macOS
    hands names over decomposed, NFD), so a note has one id on every platform; the
    note's ``path`` keeps the name as it is on disk.
    """
    stem = path[:-3] if path.lower().endswith(".md") else path
    return stem if stem.isascii() else unicodedata.normalize("NFC", stem)


def note_files(note: Note) -> list[str]:
    """A note's ``files:`` frontmatter as a list of strings (empty when absent)."""
    value = note.metadata.get("files")
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [str(v) for v in value if v]
    return []
