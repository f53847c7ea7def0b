"""Add the code map to the knowledge graph: files, modules and their edges.

Node ids: a file is its repository path (``src/app.py``), a module is
``module:<name>``. Edges: ``imports`` (file → file, weighted), ``in_module``
(file → module) and ``about_file`` (note → file, from the note's ``files:``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from rubi.codemap import CodeFile, CodeMap, files_for_note, graph_edges
from rubi.core.model import Note, note_files
from rubi.vault.names import normalize_name

if TYPE_CHECKING:
    import networkx as nx  # annotations only: a graph read frozen is changed without it

__all__ = [
    "MIN_SYMBOL_NAME",
    "TWIN_JACCARD",
    "add_code_map",
    "file_attrs",
    "file_defined_names",
    "file_name_keys",
    "file_type_names",
    "group_files",
    "module_attrs",
    "module_id",
    "note_files",
    "twin_group",
    "twins",
]

MIN_SYMBOL_NAME = 4
"""Shorter symbol names (``app``, ``db``, ``T``) are too common to count as named."""

_IDENTIFIER_RE = re.compile(r"_|\d|[a-z][A-Z]|[A-Z]{2}[a-z]")
"""What marks a name as an identifier rather than a word: an underscore, a digit or
an inner capital (``dispatch_request``, ``SmartRouter``, ``HTTPServer``)."""


def symbol_names(name: str) -> list[str]:
    """The names a symbol can be named by in a query: the whole qualified name and its
    last part (``Flask.dispatch_request`` → both), each only if it reads as an
    identifier, is at least :data:`MIN_SYMBOL_NAME` long and is not a dunder. Plain
    words (``request``, ``Config``) are left to the text match."""
    parts = [name, *([name.rsplit(".", 1)[-1]] if "." in name else [])]
    return [
        p
        for p in parts
        if len(p) >= MIN_SYMBOL_NAME
        and not (p.startswith("__") and p.endswith("__"))
        and _IDENTIFIER_RE.search(p)
    ]


def module_id(name: str) -> str:
    """Graph node id of a code module."""
    return "module:" + name


TYPE_KINDS = frozenset(
    {
        "class",
        "struct",
        "trait",
        "interface",
        "enum",
        "type",
        "protocol",
        "actor",
        "typealias",
        "union",
        "record",
        "module",
    }
)
"""Symbol kinds that define a type: their names count as named even when they are
plain words (``Router``, ``Session``), matched with their capital."""


TWIN_JACCARD = 0.8
"""Files of one folder and language whose top-level symbol names overlap this much
(Jaccard) are variants of one another: Go build-tag twins (``binding.go`` and
``binding_nomsgpack.go``), per-platform files, a v1 kept beside a v2."""
TWIN_MIN_SYMBOLS = 3
"""Files with fewer top-level symbols are never called twins (too little to compare)."""


def twins(
    code_map: CodeMap, groups: Collection[tuple[str, str]] | None = None
) -> dict[str, tuple[str, ...]]:
    """File → the variant files it nearly duplicates (see :data:`TWIN_JACCARD`).

    Pairs are found through an inverted index of symbol names per folder, so only
    files sharing a name are compared. ``groups``: only the files of these
    :func:`twin_group` keys (a file's twins are in its own group), None for all.
    """
    by_folder: dict[tuple[str, str], dict[str, set[str]]] = {}
    for path in code_map.files if groups is None else group_files(code_map, groups):
        file = code_map.files[path]
        group = twin_group(path, file.language)
        names = {s.name for s in file.symbols}
        if len(names) >= TWIN_MIN_SYMBOLS:
            by_folder.setdefault(group, {})[path] = names
    out: dict[str, list[str]] = {}
    for files in by_folder.values():
        holders: dict[str, list[str]] = {}
        for path, names in files.items():
            for name in names:
                holders.setdefault(name, []).append(path)
        for path, names in files.items():
            shared: dict[str, int] = {}
            for name in names:
                for other in holders[name]:
                    if other != path:
                        shared[other] = shared.get(other, 0) + 1
            for other, common in shared.items():
                if common / len(names | files[other]) >= TWIN_JACCARD:
                    out.setdefault(path, []).append(other)
    return {path: tuple(sorted(others)) for path, others in out.items()}


def group_files(code_map: CodeMap, groups: Collection[tuple[str, str]]) -> list[str]:
    """The paths of the map's files in ``groups`` (:func:`twin_group` keys), found by
    bisection of the sorted paths per folder (the root folder's by a scan)."""
    paths = sorted(code_map.files)  # linear: the map's files are in path order
    folders = {folder for folder, _ in groups}
    if "" in folders:
        candidates = paths
    else:
        candidates = []
        for folder in sorted(folders):
            start = bisect.bisect_left(paths, folder + "/")
            end = bisect.bisect_left(paths, folder + "0")  # "0" sorts right after "/"
            candidates.extend(paths[start:end])
    files = code_map.files
    return [p for p in candidates if twin_group(p, files[p].language) in groups]


def twin_group(path: str, language: str) -> tuple[str, str]:
    """The ``(folder, language)`` a file's twins are looked for in."""
    return (path.rsplit("/", 1)[0] if "/" in path else "", language)


def _capitalised(name: str) -> bool:
    return len(name) >= 3 and name[0].isupper()


def _add_owner(table: dict[str, list[str]], name: str, path: str) -> None:
    owners = table.setdefault(name, [])
    if path not in owners:
        owners.append(path)


def file_attrs(code_map: CodeMap, path: str) -> dict[str, Any]:
    """The attributes of file ``path``'s node (without ``twins``, which depend on
    its neighbours: :func:`twins`)."""
    return {
        "kind": "file",
        "title": path,
        "type": code_map.files[path].language,
        "status": "active",
        "path": path,
        "rank": code_map.file_rank.get(path, 0.0),
        "imported_by": code_map.in_degree.get(path, 0),
    }


def module_attrs(code_map: CodeMap, name: str) -> dict[str, Any]:
    """The attributes of module ``name``'s node."""
    return {
        "kind": "module",
        "title": name,
        "path": code_map.modules[name].folder,
        "rank": code_map.module_rank.get(name, 0.0),
    }


def file_name_keys(path: str, file: CodeFile) -> set[str]:
    """The exact-name table keys a file is found by: its path, its file name and its
    symbols' names (:func:`symbol_names`), normalized."""
    keys = {normalize_name(path), normalize_name(path.rsplit("/", 1)[-1])}
    keys.update(normalize_name(n) for s in file.symbols for n in symbol_names(s.name))
    return keys


def file_type_names(file: CodeFile) -> list[str]:
    """The type names a file defines, as written (see ``GraphBuild.type_names``),
    each once, in source order."""
    return list(
        dict.fromkeys(s.name for s in file.symbols if s.kind in TYPE_KINDS and _capitalised(s.name))
    )


def file_defined_names(file: CodeFile) -> list[str]:
    """The capitalised symbol names a file defines (the last part of a qualified
    name; see ``GraphBuild.defined_names``), each once, in source order."""
    lasts = (s.name.rsplit(".", 1)[-1] for s in file.symbols)
    return list(dict.fromkeys(n for n in lasts if _capitalised(n)))


def add_code_map(
    g: nx.MultiDiGraph,
    names: dict[str, list[str]],
    code_map: CodeMap,
    notes: Mapping[str, Note],
    type_names: dict[str, list[str]] | None = None,
    defined_names: dict[str, list[str]] | None = None,
) -> None:
    """Add files, modules, their edges and the notes' ``about_file`` edges to ``g``,
    file names and symbols to the exact-name table ``names``, type definitions to
    ``type_names`` and every capitalised symbol to ``defined_names`` (both
    case-sensitive). The tables' owner lists are in path order."""
    for name in code_map.modules:
        g.add_node(module_id(name), **module_attrs(code_map, name))
    for path in sorted(code_map.files):  # path order (a map read back with a delta
        file = code_map.files[path]  # lists its new files last): the owner lists' order
        g.add_node(path, **file_attrs(code_map, path))
        for key in file_name_keys(path, file):
            names.setdefault(key, []).append(path)
        if type_names is not None:
            for name in file_type_names(file):
                _add_owner(type_names, name, path)
        if defined_names is not None:
            for name in file_defined_names(file):
                _add_owner(defined_names, name, path)
    for path, others in twins(code_map).items():
        g.nodes[path]["twins"] = others
    for src, relation, dst, weight in graph_edges(code_map):
        target = module_id(dst) if relation == "in_module" else dst
        g.add_edge(src, target, key=relation, relation=relation, weight=weight)
    for note in notes.values():
        for path in files_for_note(code_map, note_files(note)):
            g.add_edge(note.id, path, key="about_file", relation="about_file")
