"""Open one part of a note or code file by the passage id search printed for it:
``note#Heading``, ``note#Parent#Heading``, ``note#L12-30``, ``.rubi/sessions/…#14 05~2``,
``src/app.py#L120-168``, ``src/app.py#Flask`` (anchors: :mod:`rubi.search.sections`).

A reference is a part only when it is not a whole note or file itself and what comes
before its first ``#`` is one: ``read`` of a plain id still opens the whole file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.app.codesymbols import code_symbols, symbols_of
from rubi.app.codeview import code_node
from rubi.app.reading import resolve_ref
from rubi.core.errors import NoteNotFoundError, NoteParseError
from rubi.graph.build import GraphBuild
from rubi.search.sections import (
    LINES_ANCHOR,
    TURN_HEADING,
    Section,
    code_sections,
    file_lines,
    find_section,
    note_sections,
    turn_end,
)

__all__ = [
    "PartView",
    "code_symbols",
    "part_what",
    "read_file_text",
    "read_part",
    "render_part",
    "split_part",
    "symbols_of",
]

SHOWN_SECTIONS = 12
"""Sections a bad anchor's message lists at most."""
SHOWN_CHARS = 80
"""Characters of a bad reference an error line repeats at most."""


@dataclass(frozen=True, slots=True)
class PartView:
    """One part of a file as ``rubi read`` shows it.

    Attributes:
        id: the passage id as the caller should use it (``personal:``-prefixed there).
        parent: the whole file's id (``rubi read`` of it opens the file).
        title: the parent's title (a code file's: its path).
        kind: ``note`` or ``file``.
        heading: the section's heading, or the code symbol's name ("" for plain lines).
        start, end: the lines shown, 1-based and inclusive (a note's section with its
            subsections); total: the file's lines.
        text: those lines.
        others: the ids of the other notes what came before the ``#`` named as well
            (a title several notes share: the part is the first's,
            :func:`rubi.app.reading.resolve_ref_choices`), prefixed as ``id``.
    """

    id: str
    parent: str
    title: str
    kind: str
    heading: str
    start: int
    end: int
    total: int
    text: str
    others: tuple[str, ...] = ()


_SHOWN_LINES = re.compile(r"^(L\d{1,9}(?:-L?\d{1,9})?)\s+\([^()]*\)\s*$", re.IGNORECASE)
"""A code part as search prints it, the symbol's name after the lines: ``L10-40
(Name)``; the name is only shown, the lines are the id."""


def split_part(build: GraphBuild, ref: str) -> tuple[str, str] | None:
    """``(node, anchor)`` when ``ref`` names a part of a note or code file, None when
    it names a whole one or has no ``#``.

    Raises:
        NoteNotFoundError: nothing before the ``#`` names a note or code file.
    """
    if not isinstance(ref, str) or "#" not in ref:
        return None
    if code_node(build, ref) is not None or _note(build, ref) is not None:
        return None
    base, _, anchor = ref.partition("#")
    if not base.strip():
        raise NoteNotFoundError(
            f"{_shown(ref)}: name the note or file before the # (note#Heading, path#L10-40)"
        )
    node = code_node(build, base) or resolve_ref(build, base)
    return node, anchor


def _note(build: GraphBuild, ref: str) -> str | None:
    try:
        return resolve_ref(build, ref)
    except NoteNotFoundError:
        return None


def read_part(
    build: GraphBuild,
    node: str,
    anchor: str,
    read: Callable[[str, str], str],
    symbols: Callable[[str], Sequence[tuple[str, int]]],
    prefix: str = "",
) -> PartView:
    """The part ``anchor`` names of ``node``.

    Args:
        build: the vault's graph.
        node: a note id or code file id (from :func:`split_part`).
        anchor: what follows the ``#``.
        read: ``(kind, path)`` → the file's text (``kind``: ``note`` or ``file``).
        symbols: a code file's id → its top-level symbols, ``(name, line)``.
        prefix: put before ids shown (``personal:``).

    Raises:
        NoteNotFoundError: no such part (one line naming the file's sections).
        NoteParseError: the file is gone or unreadable.
    """
    attrs = build.graph.nodes[node]
    kind = "file" if attrs.get("kind") == "file" else "note"
    path = str(attrs.get("path", node))
    text = read(kind, path)
    lines = file_lines(text)
    session = kind == "note" and bool(attrs.get("session"))
    if kind == "file":
        parts = code_sections(lines, symbols(node))
        anchor = _SHOWN_LINES.sub(r"\1", anchor)  # the § line's form: path#L10-40 (Name)
    else:
        parts = note_sections(text, session=session)
    found = find_section(parts, anchor, len(lines), lines)
    if found is None:
        raise NoteNotFoundError(_no_such(prefix + node, anchor, parts, kind, len(lines)))
    end = found.tree_end if found.kind == "section" else found.end
    if session and TURN_HEADING.match(found.heading):
        end = turn_end(lines, parts, found)  # as search shows it: with its reply
    others = tuple(f"{prefix}{node}#{name}" for name in _same_named(parts, anchor, found))
    return PartView(
        id=f"{prefix}{node}#{found.anchor}",
        parent=prefix + node,
        title=str(attrs.get("title", node)) if kind == "note" else node,
        kind=kind,
        heading=found.heading,
        start=found.start,
        end=end,
        total=len(lines),
        text="\n".join(lines[found.start - 1 : end]),
        others=others,
    )


def part_what(part: PartView) -> str:
    """What a part's :attr:`PartView.others` are, for :func:`rubi.app.reading.choice_line`:
    ``parts`` of a code file (its symbols of one name), else ``notes``."""
    return "parts" if part.kind == "file" else "notes"


def _same_named(parts: Sequence[Section], anchor: str, found: Section) -> list[str]:
    """The other symbols a bare name found by its last part names too: ``#send`` in a
    file with ``Client.send`` and ``AsyncClient.send`` opens the first and names the
    second (it was read silently, as if the name were unique). Empty for any other
    anchor, and for the parts one long symbol is cut into (they share its name)."""
    if found.kind != "symbol" or "." in (key := anchor.strip()):
        return []
    folded = key.casefold()
    names = dict.fromkeys(
        s.heading
        for s in parts
        if s.kind == "symbol"
        and s.heading != found.heading
        and s.heading.rsplit(".", 1)[-1].casefold() == folded
    )
    return list(names)


def _shown(text: str) -> str:
    """``text`` as an error line repeats it: at most :data:`SHOWN_CHARS` characters."""
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def _no_such(parent: str, anchor: str, parts: Sequence[Section], kind: str, total: int) -> str:
    """One line: the anchor names nothing, and what does."""
    anchor = _shown(anchor)
    lines = LINES_ANCHOR.match(anchor.strip())
    if lines:
        a, b = int(lines.group(1)), int(lines.group(2) or lines.group(1))
        if total == 0:
            return f"{parent}#{anchor}: the file is empty; read {parent}"
        if a < 1 or b < a:
            return f"{parent}#{anchor}: lines count from 1, first to last (#L10-40)"
        return f"{parent}#{anchor}: the file has {total} lines; give lines from 1 to {total}"
    if anchor.strip().startswith("^"):
        return f"{parent}#{anchor}: no block carries this id (^id at a line's end); read {parent}"
    if kind == "file":
        named = [s for s in parts if s.kind == "symbol"]
        names = list(dict.fromkeys(s.heading for s in named))
        listed = ", ".join(names[:SHOWN_SECTIONS]) or "none"
        more = f" +{len(names) - SHOWN_SECTIONS}" if len(names) > SHOWN_SECTIONS else ""
        return f"{parent}#{anchor}: no such part; give lines (#L10-40) or a symbol ({listed}{more})"
    heads = [s.anchor for s in parts if s.kind == "section"]
    listed = ", ".join(heads[:SHOWN_SECTIONS]) or "none"
    more = f" +{len(heads) - SHOWN_SECTIONS}" if len(heads) > SHOWN_SECTIONS else ""
    return f"{parent}#{anchor}: no such section; its sections: {listed}{more} (or #L10-40)"


def render_part(view: PartView) -> str:
    """A part as an agent or a person reads it: its id and place, its parent, its lines."""
    where = f"lines {view.start}-{view.end} of {view.total}"
    name = f"{view.heading}, " if view.kind == "file" and view.heading else ""
    head = f"# {view.id} ({name}{where})"
    parent = f'in "{view.title}" [[{view.parent}]]' if view.kind == "note" else f"in {view.parent}"
    return "\n".join([head, f"{parent}; read {view.parent} for the whole file", "", view.text])


def read_file_text(vault_root: Path, project_root: Path | None) -> Callable[[str, str], str]:
    """The ``read`` of :func:`read_part` for one vault: a note through the vault's
    reader (:func:`rubi.vault.scan.read_note_text`), a code file from the project
    through :mod:`rubi.core.safeio`.

    Raises (from the returned function):
        NoteParseError: the file is gone, refused or unreadable.
    """

    def read(kind: str, path: str) -> str:
        if kind == "note":
            from rubi.vault.scan import read_note_text

            return read_note_text(vault_root, path, project_root).text.lstrip("\ufeff")
        from rubi.codemap.files import MAX_FILE_BYTES
        from rubi.core.safeio import UnsafeFileError, read_text

        if project_root is None:
            raise NoteParseError(path, "no project to read it from")
        try:
            return read_text(project_root, project_root / path, limit=MAX_FILE_BYTES)
        except (OSError, UnsafeFileError) as exc:
            raise NoteParseError(path, f"cannot be read ({exc})") from exc

    return read
