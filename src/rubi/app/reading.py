"""Read one note in full: find it by any name, its links both ways, its flags."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rubi.app.flags import newest_successor, note_stale, stale_inputs
from rubi.core.errors import NoteNotFoundError
from rubi.core.model import Note
from rubi.core.safeio import MAX_NOTE_BYTES
from rubi.graph.build import GraphBuild
from rubi.knowledge.stale import NoteFiles
from rubi.markdown import parse_note
from rubi.vault.names import normalize_name
from rubi.vault.scan import read_note_text

__all__ = [
    "MAX_REF_CHARS",
    "FoundNote",
    "LinkList",
    "LinkView",
    "NoteView",
    "choice_line",
    "close_names",
    "edges",
    "find_note",
    "read_found",
    "read_note",
    "resolve_ref",
    "resolve_ref_choices",
]


MAX_REF_CHARS = 1_000
"""A reference (id, path, title or alias) longer than this names no note: titles are at
most 200 characters and paths a few dozen. Longer ones are refused before the lookup,
whose close-name suggestions cost time with the length (twenty 1 MB ids took 4 s),
and before a message would repeat them."""


def resolve_ref(build: GraphBuild, ref: str) -> str:
    """The note id ``ref`` names: an id, a path with ``.md``, a title or an alias
    (the first of several, :func:`resolve_ref_choices`).

    ``ref`` is only looked up in the graph, never joined to a path.

    Raises:
        NoteNotFoundError: nothing matches (the message suggests close names), or
            ``ref`` is not one line of at most :data:`MAX_REF_CHARS` characters.
    """
    return resolve_ref_choices(build, ref)[0]


def resolve_ref_choices(build: GraphBuild, ref: str) -> tuple[str, tuple[str, ...]]:
    """The note id ``ref`` names and the ids of the other notes it names as well, in
    the order of the lookup's steps: the exact id (one note), the id in any case,
    then a title, alias or file name (:attr:`GraphBuild.names`). Where one step
    matches several notes (two notes titled ``tar`` in different folders), the first
    id in sorted order is the one named and the others come back beside it, so that
    the caller says which it chose (:func:`choice_line`).

    Raises:
        NoteNotFoundError: as :func:`resolve_ref`.
    """
    if not isinstance(ref, str) or len(ref) > MAX_REF_CHARS:
        shown = repr(ref[:60]) + "…" if isinstance(ref, str) else repr(type(ref).__name__)
        raise NoteNotFoundError(
            f"{shown}: no such note (a note id, path or title is at most "
            f"{MAX_REF_CHARS:,} characters); copy an id from search"
        )
    if any(ch in ref for ch in "\x00\r\n"):
        raise NoteNotFoundError(
            f"{ref!r}: no such note (an id is one line); copy an id from search"
        )
    g = build.graph
    key = unicodedata.normalize("NFC", ref.strip().removesuffix(".md"))  # ids are NFC
    if key in g and g.nodes[key].get("kind") == "note":
        return key, ()
    notes = [str(n) for n, a in g.nodes(data=True) if a.get("kind") == "note"]
    folded = key.casefold()
    for step in (
        [n for n in notes if n.casefold() == folded],
        [i for i in build.names.get(normalize_name(key), []) if g.nodes[i].get("kind") == "note"],
    ):
        if step:
            first, *others = sorted(set(step))
            return first, tuple(others)
    titles = {str(g.nodes[n].get("title", n)): n for n in notes}
    close = close_names(key, notes, titles)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise NoteNotFoundError(f"{ref}: no such note{hint}")


SUGGESTIONS = 3
"""Names a "no such note" message suggests at most."""

MIN_PART_CHARS = 3
"""A reference shorter than this is not looked for inside names (``a`` is in most)."""

CLOSE_CUTOFF = 0.6
"""The least :class:`difflib.SequenceMatcher` ratio of a suggested name: at 0.5,
``nonexistent-note`` suggested ``modules/tests-models``."""


def close_names(key: str, notes: Sequence[str], titles: dict[str, str]) -> list[str]:
    """The note ids and titles to suggest for ``key``, which names no note.

    First the notes whose id's last segment or title holds ``key`` (case-folded; the
    shortest names first: ``gotcha-redirect`` finds
    ``notes/gotcha-redirects-are-not-followed-by-default``, whose full id is too long
    for a close match), then close matches (:func:`difflib.get_close_matches`,
    cutoff :data:`CLOSE_CUTOFF`) among the ids, their last segments and the titles.

    Args:
        key: the reference as looked up (NFC, stripped, without ``.md``).
        notes: every note id.
        titles: ``{title: note id}``.

    Returns:
        At most :data:`SUGGESTIONS` names, each note once (an id, or the title that
        matched).
    """
    folded = key.casefold()
    found: dict[str, str] = {}  # note id -> the name shown

    def add(note: str, shown: str) -> None:
        if note not in found and len(found) < SUGGESTIONS:
            found[note] = shown

    if len(folded) >= MIN_PART_CHARS:
        held = [
            (len(name), name, note, shown)
            for note in notes
            for name, shown in ((note.rsplit("/", 1)[-1], note),)
            if folded in name.casefold()
        ]
        held += [
            (len(title), title, note, title)
            for title, note in titles.items()
            if folded in title.casefold()
        ]
        for _, _, note, shown in sorted(held):
            add(note, shown)
    named: dict[str, tuple[str, str]] = {}  # a name -> (its note, the name shown)
    for note in notes:
        named.setdefault(note, (note, note))
        named.setdefault(note.rsplit("/", 1)[-1], (note, note))
    for title, note in titles.items():
        named.setdefault(title, (note, title))  # a title is often its file name
    for name in difflib.get_close_matches(key, list(named), n=len(named), cutoff=CLOSE_CUTOFF):
        add(*named[name])
    return list(found.values())


def choice_line(ref: str, shown: str, others: Sequence[str], *, what: str = "notes") -> str | None:
    """The line that says which note a read of ``ref`` showed (``shown``: its id, or
    the id of its part) when ``ref`` names several, and the ``others`` it names
    (:attr:`NoteView.others`); None when it names one. ``rubi read`` prints it on
    stderr, the agents' read above the note. ``what``: what ``ref`` names several of
    (``parts``: a code file's symbols of one name)."""
    if not others:
        return None
    return (
        f"{ref.strip()!r} names {len(others) + 1} {what}: showing {shown}; "
        f"also {', '.join(others)} (read one by its id)"
    )


@dataclass(frozen=True, slots=True)
class LinkView:
    """One edge seen from a note: the other end, its title and kind, the relation."""

    id: str
    title: str
    kind: str
    relation: str


@dataclass(frozen=True, slots=True)
class LinkList:
    """One end's links or backlinks, as ``rubi links`` and ``rubi backlinks`` show them.

    Attributes:
        id: the note or code file whose edges these are (``personal:``-prefixed there).
        items: its links or backlinks (:func:`edges`).
        others: the ids of the other notes the reference named as well (the list is
            the first's: :func:`resolve_ref_choices`), prefixed as ``id``.
    """

    id: str
    items: list[LinkView]
    others: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NoteView:
    """A note read in full, with its links both ways and its flags.

    Attributes:
        id: the note id as the caller should use it (``personal:``-prefixed there).
        stale: files the note is about that changed since its commit (or are gone).
        superseded_by: the newest note of its supersede chain, when superseded.
        truncated: the file is larger than what is read of a note
            (:data:`rubi.core.safeio.MAX_NOTE_BYTES`) and ``text`` is its start.
        others: the ids of the other notes the reference named as well (the read
            showed the first: :func:`resolve_ref_choices`), prefixed as ``id``.
    """

    note: Note
    text: str
    links: list[LinkView] = field(default_factory=list)
    backlinks: list[LinkView] = field(default_factory=list)
    id: str = ""
    stale: tuple[str, ...] = ()
    superseded_by: str | None = None
    truncated: bool = False
    others: tuple[str, ...] = ()


def edges(build: GraphBuild, note_id: str, *, incoming: bool) -> list[LinkView]:
    """A note's links (``incoming=False``) or backlinks, typed links first."""
    g = build.graph
    found = g.in_edges(note_id, keys=True) if incoming else g.out_edges(note_id, keys=True)
    out: dict[tuple[str, str], LinkView] = {}
    for u, v, rel in found:
        other = u if incoming else v
        attrs = g.nodes[other]
        out[(other, rel)] = LinkView(
            other, str(attrs.get("title", other)), str(attrs.get("kind", "")), rel
        )
    return sorted(out.values(), key=lambda lv: (lv.relation != "links_to", lv.relation, lv.id))


@dataclass(frozen=True, slots=True)
class FoundNote:
    """What reading a note needs from the graph (:func:`find_note`), taken while the
    graph is read; the file is read after (:func:`read_found`)."""

    note_id: str
    path: str
    links: list[LinkView]
    backlinks: list[LinkView]
    successor: str | None
    stale_inputs: list[NoteFiles]
    others: tuple[str, ...] = ()


def find_note(
    build: GraphBuild, ref: str, project_root: Path | None, vault_root: Path
) -> FoundNote:
    """The note ``ref`` names, its links both ways, the newest note of its supersede
    chain (if it is superseded) and its stale check's input.

    Raises:
        NoteNotFoundError: no such note.
    """
    note_id, others = resolve_ref_choices(build, ref)
    return FoundNote(
        note_id,
        str(build.graph.nodes[note_id].get("path", note_id + ".md")),
        edges(build, note_id, incoming=False),
        edges(build, note_id, incoming=True),
        newest_successor(build, note_id),
        stale_inputs(build, project_root, [note_id], vault_root),
        others,
    )


def read_found(
    vault_root: Path,
    found: FoundNote,
    project_root: Path | None,
    stale_cache: Path | None,
    prefix: str = "",
) -> NoteView:
    """Read the note :func:`find_note` found from ``vault_root``, with its flags.

    Raises:
        NoteParseError: the file is gone or unreadable.
    """
    read = read_note_text(vault_root, found.path, project_root)
    note = parse_note(read.text, found.path, strict=False)
    stale = note_stale(project_root, found.stale_inputs, stale_cache).get(found.note_id, ())
    succ = found.successor if note.status == "superseded" else None
    return NoteView(
        note,
        read.text,
        found.links,
        found.backlinks,
        id=prefix + found.note_id,
        stale=stale,
        superseded_by=(prefix + succ) if succ else None,
        truncated=read.truncated,
        others=tuple(prefix + other for other in found.others),
    )


def read_note(
    vault_root: Path,
    build: GraphBuild,
    ref: str,
    project_root: Path | None,
    stale_cache: Path | None,
    prefix: str = "",
) -> NoteView:
    """Read the note ``ref`` names from ``vault_root`` (:func:`find_note`, then
    :func:`read_found`).

    Raises:
        NoteNotFoundError: no such note.
        NoteParseError: the file is gone or unreadable.
    """
    found = find_note(build, ref, project_root, vault_root)
    return read_found(vault_root, found, project_root, stale_cache, prefix)


TRUNCATED_NOTICE = (
    f"only the first {MAX_NOTE_BYTES // 1_000_000} MB of this note is shown (the file is "
    "larger); open the file itself for the rest"
)
"""What a note read whole says when its file is larger than rubi reads of a note."""


def render_note_view(view: NoteView) -> str:
    """A note as an agent or a person reads it: flags first, the file, then backlinks."""
    lines = []
    if view.superseded_by:
        lines.append(f"(superseded: read {view.superseded_by} instead)")
    if view.stale:
        lines.append(f"⚠ stale: {', '.join(view.stale)} changed since this note was written")
    if view.truncated:
        lines.append(f"⚠ {TRUNCATED_NOTICE}")
    lines.append(f"# {view.note.path}\n")
    lines.append(view.text.rstrip("\n"))
    if view.backlinks:
        lines.append(
            "\n---\nLinked from: " + ", ".join(f"[[{lv.id}]]" for lv in view.backlinks[:30])
        )
    return "\n".join(lines)


def code_outline(project_root: Path, build: GraphBuild, path: str, code_map: object) -> str:
    """A code file's outline: language, size, who imports it, what it imports, its
    top-level symbols with line numbers, and the notes about it.

    Raises:
        NoteNotFoundError: ``path`` is not a mapped code file.
    """
    from rubi.codemap import CodeMap

    g = build.graph
    if path not in g or g.nodes[path].get("kind") != "file":
        raise NoteNotFoundError(f"{path}: not a mapped code file")
    file = code_map.files.get(path) if isinstance(code_map, CodeMap) else None
    attrs = g.nodes[path]
    from rubi.codemap.files import MAX_FILE_BYTES
    from rubi.core.safeio import UnsafeFileError, read_bytes

    try:
        n_lines = read_bytes(project_root, path, limit=MAX_FILE_BYTES).data.count(b"\n")
    except (OSError, UnsafeFileError):
        n_lines = 0
    importers = sorted(u for u, _, k in g.in_edges(path, keys=True) if k == "imports")
    notes = sorted(u for u, _, k in g.in_edges(path, keys=True) if k == "about_file")
    lines = [f"# {path} ({attrs.get('type', '')}, {n_lines} lines)"]
    if importers:
        more = f" +{len(importers) - 15}" if len(importers) > 15 else ""
        lines.append("imported by: " + ", ".join(importers[:15]) + more)
    if file is not None:
        if file.imports:
            lines.append("imports: " + ", ".join(file.imports[:20]))
        if file.external:
            lines.append("external: " + ", ".join(file.external[:20]))
        if file.symbols:
            lines.append("symbols:")
            lines += [f"- {s.kind} {s.name} (line {s.line})" for s in file.symbols[:200]]
    if notes:
        lines.append("notes: " + ", ".join(f"[[{n}]]" for n in notes))
    lines.append(f"(read the text with a ranged read of {path})")
    return "\n".join(lines)
