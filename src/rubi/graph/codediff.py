"""Move the graph's code nodes from one code map to the next, as the work the change
implies.

:func:`rubi.graph.code.add_code_map` adds a whole map (10,000 files, their imports and
name-table entries: over a second on a large repository). An edit that adds an import
or a file changes a few files, their edges and every file's rank: here only the files
that came, went or changed are added, removed or redone, the import edges that differ
are added, removed or reweighted, and the ranks and "used by" counts of all files are
set in place (a float on 10,000 existing nodes costs milliseconds). The result equals
what :func:`~rubi.graph.code.add_code_map` builds from the new map
(``tests/graph/test_code_diff.py`` checks a scripted sequence of changes against a
rebuild); node and edge order may differ, which nothing reads.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rubi.codemap import CodeFile, CodeMap
from rubi.graph.code import (
    file_attrs,
    file_defined_names,
    file_name_keys,
    file_type_names,
    group_files,
    module_attrs,
    module_id,
    twin_group,
    twins,
)

if TYPE_CHECKING:
    import networkx as nx  # annotations only: a graph read frozen is changed without it

__all__ = ["CodeChange", "CodeTables", "apply_code_change", "code_change", "shape_digest"]


@dataclass(frozen=True, slots=True)
class CodeChange:
    """How two code maps differ in what the graph holds of them.

    Attributes:
        added: paths of files only the new map has, sorted.
        removed: paths of files only the old map has, sorted.
        changed: paths of files both maps have with a different entry, sorted.
    """

    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]

    @property
    def size(self) -> int:
        """Files that came, went or changed."""
        return len(self.added) + len(self.removed) + len(self.changed)


def code_change(old: CodeMap, new: CodeMap) -> CodeChange:
    """The files that came, went or changed from ``old`` to ``new`` (an entry kept as
    the same object is not compared further)."""
    before, after = old.files, new.files
    added = tuple(sorted(p for p in after if p not in before))
    removed = tuple(sorted(p for p in before if p not in after))
    changed = tuple(
        sorted(
            p
            for p, f in after.items()
            if (o := before.get(p)) is not None and o is not f and o != f
        )
    )
    return CodeChange(added, removed, changed)


def shape_digest(code_map: CodeMap) -> bytes:
    """A digest of what the graph's code nodes are made of besides ranks and degrees
    (which are set on every file): each file's path, language, module and symbols'
    names and kinds, the modules' folders and the weighted import edges (each table
    in any order). Equal digests: moving from either map gives the same graph (about
    0.1 s on 10,000 files)."""
    digest = hashlib.blake2b(digest_size=16)
    files = code_map.files
    for path in sorted(files):  # a map read back with a delta lists new files last
        f = files[path]
        symbols = "\x01".join(f"{s.name}\x02{s.kind}" for s in f.symbols)
        digest.update(f"{path}\x00{f.language}\x00{f.module}\x00{symbols}\x03".encode())
    modules = "\x00".join(f"{name}\x01{m.folder}" for name, m in sorted(code_map.modules.items()))
    digest.update(modules.encode() + b"\x03")
    edges = "\x00".join(f"{a}\x01{b}\x01{w!r}" for (a, b), w in sorted(code_map.edges.items()))
    digest.update(edges.encode())
    return digest.digest()


@dataclass
class CodeTables:
    """The name tables the code map fills (see :class:`rubi.graph.build.GraphBuild`):
    ``names`` (normalized key → files), ``type_names`` and ``defined_names`` (names as
    written → files); owner lists in path order."""

    names: dict[str, list[str]]
    type_names: dict[str, list[str]]
    defined_names: dict[str, list[str]]
    touched: set[str] = field(default_factory=set)
    """Keys of ``names`` whose owners changed (the merged table must be redone)."""


def _insort(table: dict[str, list[str]], key: str, path: str) -> None:
    owners = table.setdefault(key, [])
    at = bisect.bisect_left(owners, path)
    if at == len(owners) or owners[at] != path:
        owners.insert(at, path)


def _discard(table: dict[str, list[str]], key: str, path: str) -> None:
    owners = table.get(key)
    if owners is None:
        return
    at = bisect.bisect_left(owners, path)
    if at < len(owners) and owners[at] == path:
        del owners[at]
    elif path in owners:  # a list not in path order (written by an older build)
        owners.remove(path)
    if not owners:
        del table[key]


def _retable(tables: CodeTables, path: str, old: CodeFile | None, new: CodeFile | None) -> None:
    """Move ``path``'s entries in the name tables from ``old`` to ``new`` (None: the
    file is not on that map)."""
    old_keys = file_name_keys(path, old) if old is not None else set()
    new_keys = file_name_keys(path, new) if new is not None else set()
    for key in old_keys - new_keys:
        _discard(tables.names, key, path)
        tables.touched.add(key)
    for key in new_keys - old_keys:
        _insort(tables.names, key, path)
        tables.touched.add(key)
    pairs = ((tables.type_names, file_type_names), (tables.defined_names, file_defined_names))
    for table, of in pairs:
        before = set(of(old)) if old is not None else set()
        after = set(of(new)) if new is not None else set()
        for name in before - after:
            _discard(table, name, path)
        for name in after - before:
            _insort(table, name, path)


def _set_twins(g: nx.MultiDiGraph, new: CodeMap, groups: Collection[tuple[str, str]]) -> None:
    """Set the ``twins`` attribute of every file of ``groups`` (see :func:`twins`)."""
    if not groups:
        return
    found = twins(new, groups)
    for path in group_files(new, groups):
        attrs = g._node[path]
        others = found.get(path)
        if others:
            attrs["twins"] = others
        else:
            attrs.pop("twins", None)


def apply_code_change(
    g: nx.MultiDiGraph, tables: CodeTables, old: CodeMap, new: CodeMap, change: CodeChange
) -> None:
    """Make ``g``'s code nodes and edges and ``tables`` those of ``new``, given that
    they are ``old``'s and that ``change`` is :func:`code_change` of the two.

    Notes' ``about_file`` edges to removed files go with the files; the caller adds
    those to added files (:attr:`CodeChange.added`).
    """
    for name in old.modules.keys() - new.modules.keys():
        g.remove_node(module_id(name))
    for name in new.modules:
        node = module_id(name)
        if node in g:
            g._node[node].update(module_attrs(new, name))
        else:
            g.add_node(node, **module_attrs(new, name))
    groups: set[tuple[str, str]] = set()
    for path in change.removed:
        groups.add(twin_group(path, old.files[path].language))
        g.remove_node(path)
        _retable(tables, path, old.files[path], None)
    for path in change.added:
        file = new.files[path]
        groups.add(twin_group(path, file.language))
        if path in g:  # a bare node: a note's about_file edge matched ahead of the map
            g._node[path] = file_attrs(new, path)
        else:
            g.add_node(path, **file_attrs(new, path))
        _retable(tables, path, None, file)
        g.add_edge(path, module_id(file.module), key="in_module", relation="in_module", weight=1.0)
    for path in change.changed:
        before, after = old.files[path], new.files[path]
        groups.add(twin_group(path, before.language))
        groups.add(twin_group(path, after.language))
        attrs = g._node[path]
        kept_twins = attrs.get("twins")
        attrs.clear()
        attrs.update(file_attrs(new, path))
        if kept_twins:
            attrs["twins"] = kept_twins
        _retable(tables, path, before, after)
        if before.module != after.module:
            if g.has_edge(path, module_id(before.module), key="in_module"):
                g.remove_edge(path, module_id(before.module), key="in_module")
            g.add_edge(
                path, module_id(after.module), key="in_module", relation="in_module", weight=1.0
            )
    rank, used_by = new.file_rank, new.in_degree
    nodes = g._node
    for path in new.files:
        attrs = nodes[path]
        attrs["rank"] = rank.get(path, 0.0)
        attrs["imported_by"] = used_by.get(path, 0)
    _set_twins(g, new, groups)
    _move_imports(g, old.edges, new.edges)


def _move_imports(
    g: nx.MultiDiGraph,
    before: dict[tuple[str, str], float],
    after: dict[tuple[str, str], float],
) -> None:
    """Add, reweight and remove ``imports`` edges from ``before`` to ``after`` (an
    edge of a removed file went with its node)."""
    if before is after:
        return
    get = before.get
    differ = [(edge, weight) for edge, weight in after.items() if get(edge) != weight]
    succ = g._succ
    touch = getattr(g, "touch", None)  # a FrozenGraph's (rubi.graph.frozen); networkx has none
    added = 0
    for (src, dst), weight in differ:
        keys = succ[src].get(dst) if src in succ else None
        data = keys.get("imports") if keys is not None else None
        added += (src, dst) not in before
        if data is None:
            g.add_edge(src, dst, key="imports", relation="imports", weight=weight)
        else:
            data["weight"] = weight
            if touch is not None:
                touch(src, dst)  # set in place: a frozen graph records it
    if len(before) == len(after) - added:
        return  # every edge before is still there (a set of 57,000 keys saved)
    for src, dst in before.keys() - after.keys():
        if src in succ and "imports" in succ[src].get(dst, ()):
            g.remove_edge(src, dst, key="imports")
