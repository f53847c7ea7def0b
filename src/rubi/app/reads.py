"""The facade's reading doors: a note, several notes, a passage, a code file, a note's
links and backlinks, each read from the vault's graph held still for the call (the
personal vault's notes too, by their prefix). Re-exported by :mod:`rubi.app`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import partial

from rubi.app.searching import ensure_index as _ensure
from rubi.core.errors import NoteNotFoundError, RubiError

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from rubi.app.codeview import CodeView
    from rubi.app.passageread import PartView
    from rubi.app.reading import LinkList, LinkView, NoteView
    from rubi.core.paths import VaultPaths
    from rubi.graph.build import GraphBuild

__all__ = [
    "backlinks",
    "graph_for",
    "link_list",
    "links",
    "read_code",
    "read_many",
    "read_note",
    "read_part",
]


def graph_for(paths: VaultPaths) -> AbstractContextManager[GraphBuild]:
    """The vault's graph held still for a ``with`` block (indexed first if it never
    was): :func:`rubi.sync.reading_graph`, whose rule holds in the block (no code map,
    notes or index run asked for there)."""
    from rubi.sync import reading_graph

    _ensure(paths, refresh=False)
    return reading_graph(paths)


def _vault_for(paths: VaultPaths, ref: str) -> tuple[VaultPaths, str, str]:
    """The vault a reference points into, the reference without prefix, the prefix."""
    from rubi.knowledge.personal import PERSONAL_PREFIX, personal_paths

    if ref.startswith(PERSONAL_PREFIX):
        personal = personal_paths(paths)
        if personal is None:
            raise NoteNotFoundError(f"{ref}: there is no personal vault yet")
        return personal, ref[len(PERSONAL_PREFIX) :], PERSONAL_PREFIX
    return paths, ref, ""


def read_note(paths: VaultPaths, ref: str) -> NoteView:
    """Read a note in full by id, path, title or alias (``personal:`` for the personal
    vault), with its links both ways and its flags.

    Raises:
        NoteNotFoundError: no such note.
        NoteParseError: the file is gone or unreadable.
    """
    import rubi.app.reading as reading
    from rubi.knowledge.personal import PERSONAL_PREFIX, personal_paths

    vault, local, prefix = _vault_for(paths, ref)
    try:
        with graph_for(vault) as build:
            found = reading.find_note(build, local, vault.project_root, vault.root)
        return reading.read_found(vault.root, found, vault.project_root, vault.stale_cache, prefix)
    except NoteNotFoundError:
        personal = personal_paths(paths) if not prefix else None
        if personal is None:
            raise
        try:  # a title or alias of a personal note, given without its prefix
            with graph_for(personal) as build:
                found = reading.find_note(build, local, None, personal.root)
            return reading.read_found(personal.root, found, None, None, PERSONAL_PREFIX)
        except NoteNotFoundError:
            pass
        raise


def read_many(paths: VaultPaths, ids: Sequence[str]) -> list[tuple[str, str | None]]:
    """Read notes and code files by id, for agents: each note in full with its flags,
    each code file as an outline (symbols with lines, imports, importers, notes),
    each passage id (``note#Heading``, ``src/app.py#L10-40``) as that part
    (:func:`read_part`). A title or alias several notes share reads the first, under
    a line that says so and names the others (:func:`rubi.app.reading.choice_line`),
    as ``rubi read`` says it on stderr.

    Ids are looked up in the vault's graph only: a path outside the vault and the
    project (``../../etc/passwd``, ``/etc/passwd``) is never read.

    Returns:
        ``[(text, None)]`` per id found, ``("", error message)`` per id not found.
    """
    import rubi.app.reading as reading
    from rubi.app.codeview import read_code
    from rubi.app.passageread import part_what, render_part
    from rubi.sync import load_code_map

    out: list[tuple[str, str | None]] = []
    for ref in ids:
        try:
            part = read_part(paths, ref)
            if part is not None:
                line = reading.choice_line(ref, part.id, part.others, what=part_what(part))
                text = render_part(part)
                out.append((f"({line})\n{text}" if line else text, None))
                continue
            vault, local, _ = _vault_for(paths, ref)
            code_map = load_code_map(vault)
            with graph_for(vault) as build:
                code = read_code(vault, build, local, code_map)
            if code is not None:
                out.append((code.outline, None))
            else:
                view = read_note(paths, ref)
                text = reading.render_note_view(view)
                line = reading.choice_line(ref, view.id or view.note.id, view.others)
                out.append((f"({line})\n{text}" if line else text, None))
        except RubiError as exc:
            out.append(("", str(exc)))
    return out


def read_part(paths: VaultPaths, ref: str) -> PartView | None:
    """The part of a note or code file a passage id names (``note#Heading``,
    ``note#Parent#Heading``, ``note#L12-30``, ``src/app.py#L120-168``,
    ``src/app.py#Flask``; ``personal:`` for the personal vault), or None when ``ref``
    names a whole note or file, or has no ``#`` (then :func:`read_note` or
    :func:`read_code` opens it).

    Raises:
        NoteNotFoundError: what comes before the ``#`` names nothing, or the anchor
            names no part of it (the message lists the file's sections).
        NoteParseError: the file is gone or unreadable.
    """
    from rubi.app.passageread import read_file_text, split_part, symbols_of
    from rubi.app.passageread import read_part as part_of
    from rubi.sync import load_code_map

    if "#" not in ref:
        return None
    vault, local, prefix = _vault_for(paths, ref)
    code_map = load_code_map(vault)  # asked for before the graph is read
    with graph_for(vault) as build:
        found = split_part(build, local)
        if found is None:
            return None
        node, anchor = found
        reader = read_file_text(vault.root, vault.project_root)
        part = part_of(build, node, anchor, reader, partial(symbols_of, code_map), prefix)
        others = _other_notes(build, local.partition("#")[0], node)
    if others:
        return dataclasses.replace(
            part, others=(*part.others, *(prefix + other for other in others))
        )
    return part


def _other_notes(build: GraphBuild, base: str, node: str) -> tuple[str, ...]:
    """The other notes ``base`` (a passage id before its ``#``) names besides ``node``,
    the one its part was read from (:func:`rubi.app.reading.resolve_ref_choices`)."""
    from rubi.app.codeview import code_node
    from rubi.app.reading import resolve_ref_choices

    if code_node(build, base) is not None:
        return ()
    try:
        chosen, others = resolve_ref_choices(build, base)
    except NoteNotFoundError:
        return ()
    return others if chosen == node else ()


def read_code(paths: VaultPaths, ref: str) -> CodeView | None:
    """The code file ``ref`` names (its id as search prints it: its project path), as
    an outline with its links both ways; None when ``ref`` names no mapped code file
    (then it may name a note: :func:`read_note`)."""
    from rubi.app.codeview import read_code as code_view
    from rubi.sync import load_code_map

    vault, local, _ = _vault_for(paths, ref)
    code_map = load_code_map(vault)
    with graph_for(vault) as build:
        return code_view(vault, build, local, code_map)


def link_list(paths: VaultPaths, ref: str, *, incoming: bool) -> LinkList:
    """The links (``incoming=False``) or backlinks of what ``ref`` names (any id search
    prints; a passage id's note or file; a title or alias), with the node they belong
    to; a title or alias several notes share gives the first's and names the others
    (:attr:`rubi.app.reading.LinkList.others`), as :func:`read_note` does.

    Raises:
        NoteNotFoundError: ``ref`` names nothing.
    """
    import rubi.app.reading as reading
    from rubi.app.codeview import code_node
    from rubi.app.passageread import split_part

    vault, local, prefix = _vault_for(paths, ref)
    with graph_for(vault) as build:
        part = split_part(build, local)
        code = code_node(build, local)
        if part is not None:  # a passage id: its note or file, and what its base names
            node, others = part[0], _other_notes(build, local.partition("#")[0], part[0])
        elif code is not None:
            node, others = code, ()
        else:
            node, others = reading.resolve_ref_choices(build, local)
        items = reading.edges(build, node, incoming=incoming)
    return reading.LinkList(prefix + node, items, tuple(prefix + o for o in others))


def links(paths: VaultPaths, ref: str) -> list[LinkView]:
    """Outgoing links of a note (dangling targets included, ``kind='dangling'``), or
    what a code file imports (``ref``: any id search prints; a passage id's file; the
    first of the notes a shared title names: :func:`link_list`)."""
    return link_list(paths, ref, incoming=False).items


def backlinks(paths: VaultPaths, ref: str) -> list[LinkView]:
    """Notes that link to a note, or the files importing a code file and the notes
    about it (``ref``: as for :func:`links`)."""
    return link_list(paths, ref, incoming=True).items


# -- knowledge ----------------------------------------------------------------------
