"""Save and load a graph snapshot (``graph.pickle``): a :class:`LiveGraph` and the
store generation it reflects. The changes after that generation are replayed from
the store by :mod:`rubi.sync.vaultsync`, so a save never rewrites the whole graph.

The file is a run of small pickles, each written with a fresh memo. The pickler
remembers every object it wrote until its memo is cleared (16 bytes a slot in a table
of twice as many slots, and the temporary state of every slotted record kept alive):
one pickle of a 50,000-note graph (over two million objects) added 105 MiB to the
process's peak while it was saved. Here no pickle holds more than :data:`CHUNK` rows
(7 MiB traced at 50,000 notes):

- a header ``(GRAPH_FORMAT, gen, ident)``: ``ident`` a random id of this write, which
  the flat graph written from it names (:mod:`rubi.graph.flatwrite`: its rows are
  taken again from the file they equal); a header without it (an older write) is read
  as before;
- then the live graph's state as entries, each a pickled tag tuple followed by the
  pickles it announces: ``("value", x)``; ``("dict", factory, chunks)`` (a dict or
  ``defaultdict`` as ``chunks`` dicts of up to :data:`CHUNK` keys); ``("set",
  chunks)`` (lists); ``("obj", name, attributes)`` (an object of a class of
  :func:`_classes`, its attributes' entries following in order); ``("graph", name,
  attrs, chunks)`` (a networkx multigraph: ``chunks`` dicts of node attributes, of
  successors and of predecessor lists, rebuilt so the successor and predecessor
  views share one key dict per node pair, as networkx keeps them).

After the graph's nodes, every string equal to a node id is written as its position
in the nodes' order (a pickle persistent id) and read back as the graph's own string:
ids are neither written nor loaded twice, and the snapshot loads 10–18% faster than
the previous single-memo format. What else two pickles share is read back as two
copies (a relation's attribute dict, titles, link texts: 11% more memory for the
loaded graph). Frozen slotted records are pickled as a call of their class
(:func:`_records`).

The snapshot must be trusted before it is read (:func:`rubi.core.picklefiles.check_trusted`),
and every pickle in it, header and rows, is read by :class:`_AllowListUnpickler`, a
second barrier: a pickle may name only the builtins and records rubi stores
(:func:`_allowed_globals`), so a planted file that calls ``os.system`` is refused
unrun. An ``obj`` or ``graph`` entry may only name the classes of :func:`_classes`.
"""

from __future__ import annotations

import copyreg
import dataclasses
import os
import pickle
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rubi.core.atomic import atomic_write_stream
from rubi.core.errors import IndexCorruptError
from rubi.core.picklefiles import collector_paused, open_trusted
from rubi.graph.readmode import load_frozen, reads_frozen

if TYPE_CHECKING:
    from rubi.graph.live import LiveGraph

__all__ = [
    "CHUNK",
    "GRAPH_FORMAT",
    "load_frozen",
    "load_snapshot",
    "load_snapshot_ident",
    "reads_frozen",
    "save_snapshot",
]

GRAPH_FORMAT = 14
"""Bump when :class:`LiveGraph`, :class:`GraphBuild` or the file's layout change
shape; an older file is rebuilt."""

CHUNK = 4096
"""Rows (dict items, set members, graph nodes) in one pickle."""


class _OldFormat(Exception):
    """The file is not of this format (an older rubi's, or damaged)."""


class _ForbiddenGlobal(Exception):
    """A pickle named a global that a snapshot never holds."""

    def __init__(self, module: str, name: str) -> None:
        super().__init__(f"{module}.{name}")
        self.module = module
        self.name = name


_BUILTINS = frozenset(
    {"bool", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"}
)
"""The builtins a snapshot's pickles may name (``list``: a ``defaultdict(list)``'s
factory; the others for values written by reduction)."""


def _allowed_globals() -> frozenset[tuple[str, str]]:
    """``(module, name)`` of every global a snapshot's pickles may name: the records of
    :func:`_records` and :data:`_BUILTINS`."""
    return frozenset(
        {(cls.__module__, cls.__qualname__) for cls in _records()}
        | {("builtins", name) for name in _BUILTINS}
    )


class _AllowListUnpickler(pickle.Unpickler):
    """An unpickler that resolves only :func:`_allowed_globals`; any other global
    (``os.system``, ``builtins.eval``, a class of some other module) raises
    :class:`_ForbiddenGlobal` before it is imported or called."""

    def __init__(self, fh: IO[bytes], allowed: frozenset[tuple[str, str]]) -> None:
        super().__init__(fh)
        self._allowed = allowed

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self._allowed:
            raise _ForbiddenGlobal(module, name)
        return super().find_class(module, name)


def _records() -> tuple[type, ...]:
    """The frozen slotted records pickled as a call of their class with their fields
    (read back by ``__init__``: the default path, a state dict passed to the
    dataclass's ``__setstate__``, was half of the load's time)."""
    from rubi.graph.build import LinkProblem
    from rubi.graph.live import GraphNote
    from rubi.vault.resolve import NoteNames

    return (GraphNote, NoteNames, LinkProblem)


def _by_fields(cls: type) -> Any:
    names = tuple(f.name for f in dataclasses.fields(cls))

    def reduce(obj: object) -> tuple[type, tuple[Any, ...]]:
        return cls, tuple([getattr(obj, name) for name in names])

    return reduce


def _classes(frozen: bool = False) -> dict[str, type]:
    """The classes an ``obj`` or ``graph`` entry may name (checked on load); with
    ``frozen``, a ``MultiDiGraph`` entry is read as a
    :class:`~rubi.graph.frozen.FrozenGraph` and networkx is not imported."""
    from rubi.graph.build import GraphBuild
    from rubi.graph.live import LiveGraph
    from rubi.vault.resolve import LinkResolver

    if frozen:
        from rubi.graph.frozen import FrozenGraph

        multigraph: type = FrozenGraph
    else:
        import networkx as nx

        multigraph = nx.MultiDiGraph
    return {
        "LiveGraph": LiveGraph,
        "GraphBuild": GraphBuild,
        "LinkResolver": LinkResolver,
        "MultiDiGraph": multigraph,
    }


def save_snapshot(path: Path, live: LiveGraph, gen: int) -> str:
    """Write ``live`` as of store generation ``gen`` to ``path`` atomically (the
    user's own file, 0600).

    Returns:
        The write's random id (32 hex digits), which :func:`load_snapshot_ident` reads.

    Raises:
        OSError: the folder is not writable or the disk is full; ``path`` is unchanged.
    """
    classes = _classes(reads_frozen())  # a graph read frozen is written without networkx
    ident = os.urandom(16).hex()

    def write(fh: IO[bytes]) -> None:
        writer = _Writer(fh, classes)
        writer.dump((GRAPH_FORMAT, gen, ident))
        writer.obj(live, live.__getstate__())

    atomic_write_stream(path, write, mode=0o600)
    return ident


def load_snapshot(path: Path) -> tuple[LiveGraph, int]:
    """Read what :func:`save_snapshot` wrote: the graph and its generation.

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    live, gen, _ = load_snapshot_ident(path)
    return live, gen


def load_snapshot_ident(path: Path) -> tuple[LiveGraph, int, str | None]:
    """:func:`load_snapshot`, and the id of the write that made the file (None for a
    file written without one).

    Raises:
        IndexCorruptError: missing, unreadable or of another format version.
    """
    try:
        loaded = _load(path)
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no graph yet; run `rubi index`") from exc
    except _OldFormat as exc:
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`") from exc
    except _ForbiddenGlobal as exc:
        raise IndexCorruptError(
            f"{path}: names {exc}, which no graph snapshot holds; not loaded (nothing in it "
            "ran): run `rubi index --full`"
        ) from None
    except Exception as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc}); run `rubi index --full`") from exc
    from rubi.graph.live import LiveGraph

    gen, ident, live = loaded
    if not (isinstance(gen, int) and isinstance(live, LiveGraph)):
        raise IndexCorruptError(f"{path}: old format; run `rubi index --full`")
    return live, gen, ident if isinstance(ident, str) else None


def _chunks(rows: Iterable[Any], count: int) -> Iterator[list[Any]]:
    it = iter(rows)
    for _ in range(_chunk_count(count)):
        yield list(islice(it, CHUNK))


def _chunk_count(count: int) -> int:
    return (count + CHUNK - 1) // CHUNK


class _Writer:
    """Writes the entries described in the module docstring to ``fh``."""

    def __init__(self, fh: IO[bytes], classes: dict[str, type]) -> None:
        self._pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
        table = copyreg.dispatch_table.copy()
        table.update((cls, _by_fields(cls)) for cls in _records())
        self._pickler.dispatch_table = table
        self._index: dict[str, int] = {}
        self._names = {cls: name for name, cls in classes.items()}
        from rubi.graph.frozen import FrozenGraph

        self._names[FrozenGraph] = "MultiDiGraph"  # written as the networkx graph it reads as
        nx = sys.modules.get("networkx")  # a graph built or thawed in a process reading frozen
        if nx is not None:
            self._names[nx.MultiDiGraph] = "MultiDiGraph"

    def dump(self, value: object) -> None:
        """One pickle of its own."""
        self._pickler.clear_memo()
        self._pickler.dump(value)

    def entry(self, value: object) -> None:
        """``value`` as one entry."""
        kind = type(value)
        if kind is dict or kind is defaultdict:
            assert isinstance(value, dict)
            factory = value.default_factory if isinstance(value, defaultdict) else None
            self.dump(("dict", factory, _chunk_count(len(value))))
            self._dicts(value.items(), len(value))
        elif kind is set:
            assert isinstance(value, set)
            self.dump(("set", _chunk_count(len(value))))
            self._rows(value, len(value))
        elif self._names.get(kind) == "MultiDiGraph":
            self.graph(value)
        elif kind in self._names:
            self.obj(value, vars(value))
        else:
            self.dump(("value", value))

    def obj(self, value: object, state: dict[str, Any]) -> None:
        self.dump(("obj", self._names[type(value)], list(state)))
        for item in state.values():
            self.entry(item)

    def graph(self, g: Any) -> None:
        nodes, succ, pred = g._node, g._succ, g._pred
        n = len(nodes)
        self.dump(("graph", self._names[type(g)], g.graph, _chunk_count(n)))
        self._dicts(nodes.items(), n)
        # From here on a node id is written as its position in the nodes' order.
        index = self._index = {node: i for i, node in enumerate(nodes)}

        def node_position(obj: object) -> int | None:
            return index.get(obj) if type(obj) is str else None

        self._pickler.persistent_id = node_position  # type: ignore[method-assign]
        self._dicts(succ.items(), n)
        self._dicts(((v, list(us)) for v, us in pred.items()), n)

    def _rows(self, rows: Iterable[Any], count: int) -> None:
        for chunk in _chunks(rows, count):
            self.dump(chunk)

    def _dicts(self, items: Iterable[tuple[Any, Any]], count: int) -> None:
        """``items`` as dicts of :data:`CHUNK` keys (a dict reads back faster than a
        list of pairs: no tuple per row)."""
        for chunk in _chunks(items, count):
            self.dump(dict(chunk))


def _load(path: Path) -> tuple[Any, Any, Any]:
    """The generation, the write's id (None in a header without one) and the live
    graph; the collector is paused while unpickling
    (:func:`rubi.core.picklefiles.collector_paused`).

    Raises:
        _OldFormat: another format's header or an entry of an unknown shape.
        _ForbiddenGlobal: a pickle names a global outside :func:`_allowed_globals`.
    """
    allowed = _allowed_globals()
    with collector_paused(), open_trusted(path) as fh:
        header = _AllowListUnpickler(fh, allowed).load()
        if not (isinstance(header, tuple) and len(header) in (2, 3) and header[0] == GRAPH_FORMAT):
            raise _OldFormat(header[:1] if isinstance(header, tuple) else None)
        ident = header[2] if len(header) == 3 else None
        return header[1], ident, _Reader(fh, _classes(reads_frozen()), allowed).entry()


class _Reader:
    """Reads back what :class:`_Writer` wrote."""

    def __init__(
        self, fh: IO[bytes], classes: dict[str, type], allowed: frozenset[tuple[str, str]]
    ) -> None:
        self._fh = fh
        self._classes = classes
        self._allowed = allowed
        self._ids: list[str] | None = None
        """The graph's node ids in order, once its nodes are read: what the
        persistent ids of the pickles after them name."""

    def _next(self) -> Any:
        unpickler = _AllowListUnpickler(self._fh, self._allowed)
        if self._ids is not None:
            unpickler.persistent_load = self._ids.__getitem__  # type: ignore[method-assign]
        return unpickler.load()

    def entry(self) -> Any:
        tag = self._next()
        if not (isinstance(tag, tuple) and tag):
            raise _OldFormat(type(tag).__name__)
        kind = tag[0]
        if kind == "value":
            return tag[1]
        if kind == "dict":
            _, factory, chunks = tag
            out: dict[Any, Any] = defaultdict(factory) if factory is not None else {}
            for _ in range(chunks):
                out.update(self._next())
            return out
        if kind == "set":
            members: set[Any] = set()
            for _ in range(tag[1]):
                members.update(self._next())
            return members
        if kind == "obj":
            _, name, names = tag
            cls: Any = self._class(name)
            obj = cls.__new__(cls)
            state = {key: self.entry() for key in names}
            if hasattr(obj, "__setstate__"):
                obj.__setstate__(state)
            else:
                obj.__dict__.update(state)
            return obj
        if kind == "graph":
            return self._graph(*tag[1:])
        raise _OldFormat(str(kind))

    def _class(self, name: str) -> type[Any]:
        cls = self._classes.get(name)
        if cls is None:
            raise _OldFormat(name)
        return cls

    def _graph(self, name: str, attrs: dict[str, Any], chunks: int) -> Any:
        from rubi.graph.frozen import FrozenGraph

        cls = self._class(name)
        if cls is FrozenGraph:
            g: Any = FrozenGraph(attrs, {}, {}, {})
        else:
            g = cls()
            g.graph.update(attrs)
        nodes, succ, pred = g._node, g._succ, g._pred
        for _ in range(chunks):
            nodes.update(self._next())
        self._ids = list(nodes)
        for _ in range(chunks):
            succ.update(self._next())
        for _ in range(chunks):
            for v, us in self._next().items():
                pred[v] = {u: succ[u][v] for u in us}
        return g
