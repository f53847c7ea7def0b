"""The code-map half of the live graph: :class:`LiveCodeMap`, a base class of
:class:`~rubi.graph.live.LiveGraph` holding what makes the graph's files, modules,
their edges and names, and the notes' ``about_file`` edges those of a code map.

A new map is moved into the graph as the work it implies (:mod:`rubi.graph.codediff`)
from the map the graph holds, or built afresh when the graph holds none it knows or
when most files changed (:data:`REBUILD_SHARE`). The state it reads and keeps lives on
the :class:`~rubi.graph.live.LiveGraph` (made in its ``__init__``, saved in its
snapshot); this class adds methods only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from rubi.graph.livenodes import add_link_edge

if TYPE_CHECKING:
    from rubi.codemap import CodeMap
    from rubi.graph.build import GraphBuild
    from rubi.graph.codediff import CodeChange

__all__ = ["REBUILD_SHARE", "LiveCodeMap"]

REBUILD_SHARE = 0.25
"""Past this share of the map's files changed, :meth:`LiveCodeMap.set_code_map` builds
the code nodes afresh instead of moving them."""


class _NoteFiles(Protocol):
    """What the code map reads of a note's record (a
    :class:`~rubi.graph.live.GraphNote`): its ``files:`` entries."""

    @property
    def files(self) -> tuple[str, ...]: ...


def _names_any(entries: tuple[str, ...], paths: set[str]) -> bool:
    """True when a ``files:`` entry can name one of ``paths`` (the path itself or a
    folder above it: what :func:`rubi.codemap.files_for_note` matches)."""
    from rubi.codemap.notefiles import normalize_repo_path

    for entry in entries:
        path = normalize_repo_path(entry)
        if not path:
            continue
        if path in paths:
            return True
        prefix = path.rstrip("/") + "/"
        if any(p.startswith(prefix) for p in paths):
            return True
    return False


class LiveCodeMap:
    """The code-map methods of :class:`~rubi.graph.live.LiveGraph` (a mixin: no state
    of its own, no ``__init__``)."""

    if TYPE_CHECKING:  # made by LiveGraph.__init__
        build: GraphBuild
        notes: Mapping[str, _NoteFiles]
        _code_names: dict[str, list[str]]
        _code_map: CodeMap | None
        _graph_map: CodeMap | None
        _map_shape: str | None
        _map_digest: bytes | None
        _code_map_loader: Callable[[], CodeMap | None] | None

        def _set_names(self, key: str) -> None: ...

        def _rebuild_names(self) -> None: ...

    def _thaw(self) -> None:
        """Make the graph a ``networkx.MultiDiGraph`` before it is changed, when it was
        read back frozen (:class:`~rubi.graph.frozen.FrozenGraph`, a one-shot process)
        and the change is more than
        :meth:`~rubi.graph.live.LiveGraph.apply`'s, which the frozen graph makes
        itself: over the same dicts, so nothing is copied."""
        from rubi.graph.frozen import FrozenGraph

        g: object = self.build.graph
        if isinstance(g, FrozenGraph):
            self.build.graph = g.thaw()

    def attach_code_map(self, loader: Callable[[], CodeMap | None]) -> None:
        """Where to get the code map when a changed note's ``files:`` must be matched
        (a graph read back from disk has it only on demand)."""
        self._code_map_loader = loader

    @property
    def graph_map(self) -> CodeMap | None:
        """The map the graph's code nodes were last made of here (None for a graph
        read back from disk until one is set, kept or recognized)."""
        return self._graph_map

    @property
    def saved_shape(self) -> str | None:
        """The shape id of the map a graph read back from disk was saved with, while
        it holds no map of its own yet (None otherwise, or for an older snapshot)."""
        return self._map_shape if self._graph_map is None else None

    def keep_code_map(self, code_map: CodeMap) -> None:
        """Take ``code_map`` for later ``files:`` matching without touching the graph:
        it maps the same files with the same edges, modules and symbol names as the
        one the graph holds (``code_map.stats.reused_shape`` or ``kept_graph``)."""
        self._code_map = self._graph_map = code_map

    def recognize_code_map(self, code_map: CodeMap) -> bool:
        """Take ``code_map`` as the map a graph read back from disk was made of, when it
        is of the shape the graph was saved with (:meth:`_made_of`): the next
        :meth:`set_code_map` moves the code nodes from it. True when taken."""
        if self._graph_map is None and self._made_of(code_map):
            self._graph_map = code_map
            return True
        return self._graph_map is code_map

    def _made_of(self, code_map: CodeMap) -> bool:
        """``code_map`` has the shape of the map this graph, read back from disk, was
        saved with: the same :attr:`~rubi.codemap.CodeMap.shape_id` (free), or for a
        snapshot written before shape ids, the same
        :func:`~rubi.graph.codediff.shape_digest` (about 0.2 s on 10,000 files)."""
        if self._map_shape is not None:
            return code_map.shape_id == self._map_shape
        if self._map_digest is not None:
            from rubi.graph.codediff import shape_digest

            return shape_digest(code_map) == self._map_digest
        return False

    def set_code_map(self, code_map: CodeMap | None, previous: CodeMap | None = None) -> None:
        """Make the graph's files, modules and edges, the name tables and the notes'
        ``about_file`` edges those of ``code_map``.

        Moved from the map the graph holds (the last one set or kept here, or else
        ``previous`` when it is of the shape a graph read back from disk was saved with:
        :meth:`_made_of`) as the work the change implies
        (:mod:`rubi.graph.codediff`); built afresh when the graph holds no map it knows
        or more than :data:`REBUILD_SHARE` of the files changed.

        A graph read back frozen (:class:`~rubi.graph.frozen.FrozenGraph`: a cold
        ``rubi index``) is moved as it is, by the changes it makes as networkx does;
        it is thawed (networkx imported) only to be built afresh.
        """
        held = self._graph_map
        if held is None and previous is not None and self._made_of(previous):
            held = previous
        if held is not None and code_map is not None:
            from rubi.graph.codediff import code_change

            change = code_change(held, code_map)
            if change.size <= REBUILD_SHARE * max(len(code_map.files), 1):
                self._move_code_map(held, code_map, change)
                return
        self._rebuild_code_map(code_map)

    def _rebuild_code_map(self, code_map: CodeMap | None) -> None:
        self._thaw()
        g = self.build.graph
        code_nodes = [n for n, k in g.nodes(data="kind") if k in ("file", "module")]
        g.remove_nodes_from(code_nodes)
        self._code_names = {}
        self.build.type_names = {}
        self.build.defined_names = {}
        self._code_map = self._graph_map = code_map
        self._map_shape = self._map_digest = None
        if code_map is not None:
            from rubi.graph.code import add_code_map  # the code map's imports cost ~70 ms

            add_code_map(
                g, self._code_names, code_map, {}, self.build.type_names, self.build.defined_names
            )
            for note_id in sorted(self.notes):
                self._about_files(note_id)
        self._rebuild_names()

    def _move_code_map(self, held: CodeMap, code_map: CodeMap, change: CodeChange) -> None:
        from rubi.graph.codediff import CodeTables, apply_code_change

        tables = CodeTables(self._code_names, self.build.type_names, self.build.defined_names)
        apply_code_change(self.build.graph, tables, held, code_map, change)
        self._code_map = self._graph_map = code_map
        self._map_shape = self._map_digest = None
        for key in tables.touched:
            self._set_names(key)
        moved = {*change.added, *change.removed}
        if not moved:
            return
        g = self.build.graph
        for note_id in sorted(self.notes):
            rec = self.notes[note_id]
            if not rec.files or not _names_any(rec.files, moved):
                continue
            stale = [
                (note_id, v, k) for _, v, k in g.out_edges(note_id, keys=True) if k == "about_file"
            ]
            g.remove_edges_from(stale)
            self._about_files(note_id)

    def _about_files(self, note_id: str) -> None:
        rec = self.notes[note_id]
        if not rec.files:
            return
        if self._code_map is None and self._code_map_loader is not None:
            self._code_map = self._code_map_loader()
            self._code_map_loader = None
        if self._code_map is None:
            return
        from rubi.codemap import files_for_note

        for path in files_for_note(self._code_map, rec.files):
            add_link_edge(self.build.graph, note_id, path, "about_file")
