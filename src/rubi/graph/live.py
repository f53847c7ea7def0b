"""The link graph kept up to date change by change.

A save touches one note; rebuilding the graph of the whole vault for it costs
seconds at 50,000 notes. :class:`LiveGraph` applies a change as the work it implies:
the changed note's node and outgoing edges are replaced, and only the links whose
resolution can differ are resolved again. Which links those are follows from
:func:`rubi.vault.resolve.lookup_keys`: a link reads the resolver's tables under a
few keys (its file name, its normalized text); a note that comes, goes or is renamed
changes the tables under its own keys (:func:`rubi.vault.resolve.names_keys`), so
the links to re-resolve are exactly those that read one of them. A full build is
the same code adding every note, so the two cannot drift apart
(``tests/graph/test_live_graph.py`` checks a scripted edit sequence against a
rebuild).

Per-query personalized PageRank runs on the graph at search time
(:mod:`rubi.search.ppr`), so nothing global is recomputed on a save.

The code map's files, modules and the notes' ``about_file`` edges are moved by the
methods of :class:`~rubi.graph.livecode.LiveCodeMap`, a base class of
:class:`LiveGraph`; a note's node attributes and the key tables are
:mod:`rubi.graph.livenodes`'. :class:`GraphNote` stays here: a graph snapshot names it
as ``rubi.graph.live.GraphNote`` (:mod:`rubi.graph.snapshot`'s allow-list), so moving
it would make every saved snapshot unreadable.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rubi.core.model import Note, note_files
from rubi.graph.build import (
    GraphBuild,
    LinkProblem,
    dangling_id,
    note_names,
)
from rubi.graph.livecode import LiveCodeMap
from rubi.graph.livenodes import (
    ATTACHMENT_EXTENSIONS,
    add_link_edge,
    interned,
    is_attachment,
    name_keys,
    node_attrs,
    read_keys,
)
from rubi.vault.resolve import (
    LinkResolver,
    NoteNames,
    attachment_key,
    names_keys,
)

if TYPE_CHECKING:
    from rubi.codemap import CodeMap

__all__ = [
    "ATTACHMENT_EXTENSIONS",
    "GraphNote",
    "GraphRecord",
    "LiveGraph",
    "build_graph",
    "graph_record",
    "node_attrs",
]


@dataclass(frozen=True, slots=True)
class GraphNote:
    """What the graph keeps of one note to relink it later: its names, links and
    ``files:`` entries. Small: the graph of a 50,000-note vault keeps 50,000 of these,
    not the notes (its node attributes live on the graph's node only).

    ``flat_links`` is ``(target as written, relation)`` pairs laid end to end, one
    tuple for all (a tuple per link cost 56 bytes and a pickle memo entry each);
    :attr:`links` gives the pairs."""

    names: NoteNames
    flat_links: tuple[str, ...]
    files: tuple[str, ...]

    @property
    def links(self) -> Iterator[tuple[str, str]]:
        """The links as ``(target as written, relation)``, in the note's order."""
        flat = self.flat_links
        return zip(flat[::2], flat[1::2], strict=True)

    @classmethod
    def of(cls, note: Note) -> GraphNote:
        """The graph's view of ``note``."""
        return cls(
            note_names(note),
            tuple(x for lk in note.links for x in (lk.target, interned(lk.relation))),
            tuple(note_files(note)),
        )


GraphRecord = tuple[GraphNote, dict[str, Any]]
"""What the graph takes from one note: its :class:`GraphNote` and its node's
attributes (:func:`graph_record`)."""


def graph_record(note: Note) -> GraphRecord:
    """``note``'s :class:`GraphNote` and node attributes (:func:`node_attrs`)."""
    rec = GraphNote.of(note)
    return rec, node_attrs(note, rec.files)


class LiveGraph(LiveCodeMap):
    """A vault's graph, name tables and link problems, updated per change.

    ``build`` is the :class:`~rubi.graph.build.GraphBuild` searches read; it is
    changed in place by :meth:`apply` and :meth:`set_code_map`. Not thread-safe: the
    vault sync makes those changes while no reader reads the graph
    (:meth:`rubi.sync.vaultsync.VaultSync.reading`).
    """

    def __init__(self, attachments: Iterable[str] = ()) -> None:
        import networkx as nx

        self.build = GraphBuild(nx.MultiDiGraph())
        self.notes: dict[str, GraphNote] = {}
        self.attachments: set[str] = set(attachments)
        self._resolver = LinkResolver((), self.attachments)
        self._readers: dict[str, list[str]] = {}
        """Lookup key → the notes with a link that reads it, each once (a list: an
        eighth of a set's memory per entry; a note's keys are added once when it is
        linked and removed when it is unlinked)."""
        self._maybe_orphans: set[str] = set()
        """Dangling nodes that lost an edge since the last apply."""
        self._note_names: dict[str, list[str]] = {}
        self._code_names: dict[str, list[str]] = {}
        self._code_map: CodeMap | None = None
        """The map ``files:`` entries are matched against."""
        self._graph_map: CodeMap | None = None
        """The map whose files, modules, edges and names the graph holds (None: not
        known, as in a graph read back from disk)."""
        self._map_shape: str | None = None
        """:attr:`~rubi.codemap.CodeMap.shape_id` of that map, kept in the snapshot (the
        map itself is not): a graph read back moves from a map of that shape id."""
        self._map_digest: bytes | None = None
        """:func:`rubi.graph.codediff.shape_digest` of that map, in a snapshot written
        before maps had a shape id (recognized as well, at the digest's cost)."""
        self._code_map_loader: Callable[[], CodeMap | None] | None = None
        self.code_stamp = 0
        """Which code map the code nodes are: the store generation of the run that last
        changed them (the store's ``code_graph`` meta value then; 0 before any)."""

    # -- building ------------------------------------------------------------------
    @classmethod
    def from_notes(
        cls,
        notes: Mapping[str, Note],
        attachments: Iterable[str] = (),
        code_map: CodeMap | None = None,
    ) -> LiveGraph:
        """The graph of ``notes`` built from nothing (ids in sorted order)."""
        return cls.from_records(
            {k: graph_record(n) for k, n in notes.items()}, attachments, code_map
        )

    @classmethod
    def from_records(
        cls,
        records: Mapping[str, GraphRecord],
        attachments: Iterable[str] = (),
        code_map: CodeMap | None = None,
    ) -> LiveGraph:
        """The graph of the notes whose :func:`graph_record` are ``records`` (by id),
        built from nothing (ids in sorted order): what :meth:`from_notes` builds,
        without the notes themselves (a streamed full build drops each note once its
        record is taken)."""
        live = cls(attachments)
        ids = sorted(records)
        for note_id in ids:
            live._add_names(records[note_id][0])
        for note_id in ids:
            rec, attrs = records[note_id]
            live.notes[note_id] = rec
            live._add_node(note_id, attrs)
        for note_id in ids:
            live._link(note_id)
        live.set_code_map(code_map)
        return live

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_code_map"] = None  # saved on its own (rubi.sync.code)
        state["_graph_map"] = None
        if self._graph_map is not None:
            state["_map_shape"] = self._graph_map.shape_id
            state["_map_digest"] = None
        state["_code_map_loader"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("_graph_map", None)
        state.setdefault("_map_shape", None)
        state.setdefault("_map_digest", None)
        state.setdefault("code_stamp", 0)
        self.__dict__.update(state)

    # -- applying changes ----------------------------------------------------------
    def apply(
        self,
        upserts: Iterable[Note] = (),
        removes: Iterable[str] = (),
        attachments_added: Iterable[str] = (),
        attachments_removed: Iterable[str] = (),
    ) -> int:
        """Add or replace notes, remove notes by id and track attachments.

        Returns:
            How many notes had their links resolved again (the changed ones and the
            ones whose links a change could redirect): the work done.
        """
        touched_keys: set[str] = set()
        relink: set[str] = set()
        gone: list[str] = []
        for note_id in removes:
            rec = self.notes.pop(note_id, None)
            if rec is None:
                continue
            touched_keys |= names_keys(rec.names)
            self.notes[note_id] = rec  # _unlink reads its links
            self._unlink(note_id)
            del self.notes[note_id]
            self._remove_names(rec)
            self.build.graph.remove_node(note_id)
            gone.append(note_id)
        fresh: list[GraphNote] = []
        for note in upserts:
            rec = GraphNote.of(note)
            old = self.notes.get(note.id)
            if old is not None and old.names != rec.names:
                touched_keys |= names_keys(old.names) ^ names_keys(rec.names)
                self._remove_names(old)
                self._add_names(rec)
            elif old is None:
                touched_keys |= names_keys(rec.names)
                self._add_names(rec)
            if old is not None:
                self._unlink(note.id)
            self.notes[note.id] = rec
            self._add_node(note.id, node_attrs(note, rec.files))
            fresh.append(rec)
            relink.add(note.id)
        for path in attachments_removed:
            if path in self.attachments:
                self.attachments.discard(path)
                self._resolver.remove_attachment(path)
                touched_keys.add(attachment_key(path))
        for path in attachments_added:
            if path not in self.attachments:
                self.attachments.add(path)
                self._resolver.add_attachment(path)
                touched_keys.add(attachment_key(path))
        for key in touched_keys:
            relink.update(self._readers.get(key, ()))
        relink -= set(gone)
        fresh_ids = {r.names.id for r in fresh}
        for note_id in sorted(relink):
            if note_id not in fresh_ids:
                self._unlink(note_id)
            self._link(note_id)
        self._drop_orphan_dangling()
        return len(relink)

    # -- internals -----------------------------------------------------------------
    def _add_node(self, note_id: str, attrs: dict[str, Any]) -> None:
        """Make ``attrs`` (a fresh dict the caller gives up) the attributes of the node
        ``note_id``: the dict itself, not a copy (networkx's ``add_node`` copies it,
        and a streamed full build's records held a second dict per note until the
        graph was saved)."""
        g = self.build.graph
        if note_id not in g:
            g.add_node(note_id)
        g._node[note_id] = attrs

    def _add_names(self, rec: GraphNote) -> None:
        self._resolver.add_note(rec.names)
        for key in name_keys(rec.names):
            ids = self._note_names.setdefault(key, [])
            bisect.insort(ids, rec.names.id)
            self._set_names(key)

    def _remove_names(self, rec: GraphNote) -> None:
        self._resolver.remove_note(rec.names)
        for key in name_keys(rec.names):
            ids = self._note_names.get(key, [])
            if rec.names.id in ids:
                ids.remove(rec.names.id)
            if not ids:
                self._note_names.pop(key, None)
            self._set_names(key)

    def _set_names(self, key: str) -> None:
        merged = [*self._note_names.get(key, ()), *self._code_names.get(key, ())]
        if merged:
            self.build.names[key] = merged
        else:
            self.build.names.pop(key, None)

    def _rebuild_names(self) -> None:
        self.build.names = {}
        for key in self._note_names.keys() | self._code_names.keys():
            self._set_names(key)

    def _unlink(self, note_id: str) -> None:
        """Remove ``note_id``'s outgoing edges, problems and reader registrations."""
        g = self.build.graph
        if note_id in g:
            out = list(g.out_edges(note_id, keys=True))
            self._maybe_orphans.update(v for _, v, _ in out if v.startswith("dangling:"))
            g.remove_edges_from(out)
        self.build.problems_by_note.pop(note_id, None)
        rec = self.notes.get(note_id)
        if rec is None:
            return
        for key in read_keys(rec.links, note_id):
            readers = self._readers.get(key)
            if readers is not None and note_id in readers:
                readers.remove(note_id)
                if not readers:
                    del self._readers[key]

    def _link(self, note_id: str) -> None:
        """Resolve ``note_id``'s links into edges and problems (as
        :func:`build_graph` does for every note)."""
        rec = self.notes[note_id]
        g = self.build.graph
        problems: list[LinkProblem] = []
        for key in read_keys(rec.links, note_id):
            self._readers.setdefault(key, []).append(note_id)
        for target_text, relation in rec.links:
            res = self._resolver.resolve(target_text, note_id)
            if res.status in ("self", "attachment"):
                continue
            if res.status == "missing" and is_attachment(target_text):
                problems.append(LinkProblem(note_id, target_text, "missing-attachment"))
                continue
            if res.status == "missing":
                target = dangling_id(target_text)
                if target not in g:
                    g.add_node(target, kind="dangling", title=target_text.strip())
                problems.append(LinkProblem(note_id, target_text, "missing"))
            else:
                assert res.target is not None
                target = res.target
                if res.status == "ambiguous":
                    problems.append(
                        LinkProblem(note_id, target_text, "ambiguous", target, res.candidates)
                    )
            if target == note_id:
                continue
            add_link_edge(g, note_id, target, relation)
        if problems:
            self.build.problems_by_note[note_id] = problems
        self._about_files(note_id)

    def _drop_orphan_dangling(self) -> None:
        g = self.build.graph
        orphans = [n for n in self._maybe_orphans if n in g and g.in_degree(n) == 0]
        g.remove_nodes_from(orphans)
        self._maybe_orphans.clear()


def build_graph(
    notes: Mapping[str, Note],
    attachments: Iterable[str] = (),
    code_map: CodeMap | None = None,
) -> GraphBuild:
    """Resolve every link and build the graph.

    Args:
        notes: parsed notes by id.
        attachments: vault-relative paths of non-markdown files (links to them are
            neither edges nor problems).
        code_map: the project's code map, whose files and modules join the graph
            (see :mod:`rubi.graph.code`); None for a plain vault.

    Returns:
        A :class:`GraphBuild`. Self-links and same-note heading links add no edge.
    """
    return LiveGraph.from_notes(notes, attachments, code_map).build
