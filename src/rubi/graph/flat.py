"""The graph a one-shot reader opens (``graph.flat``): the parts of a
:class:`~rubi.graph.build.GraphBuild` a search reads, as flat arrays and one JSON
blob per node or name, opened in a few milliseconds and decoded on demand.

A cold recall hook or a cold ``rubi search`` (:func:`rubi.app.searching.one_search`)
reads, of the whole live graph (:class:`~rubi.graph.live.LiveGraph`: its resolver,
link readers, per-note records), only the build: the nodes' attributes for the hits
and the walk's nodes, the adjacency around the seeds (:mod:`rubi.search.ppr`), and a
few dozen keys of the name tables (:func:`rubi.search.names.match_names`). Reading the
whole live graph back from its pickle snapshot (:mod:`rubi.graph.snapshot`) rebuilt
every one of its Python objects first: 88 ms of CPU at 6,334 notes. Here:

- ``ids``: the node ids in the graph's order, NUL-terminated (split at open, with the
  id → position dict: ``node in g``); ``attrs``: each node's attribute dict as JSON,
  decoded when first read (a list read back as the tuple the graph holds);
- the successors and the predecessors, each as CSR arrays (``off``: where a node's
  neighbours start; ``nbr``: their positions, in networkx's order; ``koff``, ``key``,
  ``data``: each node pair's edge keys and attribute dicts, as indexes into the
  ``tables`` section's lists); a node's neighbour dict is made when first read (its
  neighbours' ids alone for a walk: :mod:`rubi.graph.flatlinks`);
- the name tables (``names``, ``type_names``, ``defined_names``) and the link problems
  by note: keys sorted by UTF-8 bytes (a binary search each), a JSON value per key.

Layout and checks: :mod:`rubi.graph.flatlayout`; writer: :mod:`rubi.graph.flatwrite`. A
flat graph is read-only. It answers for the live graph only when it holds the store's
generation and code stamp (:class:`rubi.sync.livegraph.GraphKeeper`); a changed note
(the journal after the file's generation) is replayed on the live graph read from the
pickle snapshot, and the one-shot reader that replayed it writes this file again.
"""

from __future__ import annotations

import mmap
import os
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from rubi.core.errors import IndexCorruptError
from rubi.core.jsonline import loads, scan_error, scanner
from rubi.core.picklefiles import open_trusted
from rubi.graph import flatcheck
from rubi.graph.build import GraphBuild, LinkProblem
from rubi.graph.flatlayout import (
    ADJACENCY,
    ALIGN,
    BODY,
    CODES,
    FLAT_FORMAT,
    HEADER,
    ID_END,
    LAZY_FROM,
    MAGIC,
    ORDER,
    SECTION,
    SECTIONS,
    Buffer,
    utf8,
)

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any, TypeVar

    import networkx as nx

__all__ = ["FLAT_FORMAT", "FlatGraph", "read_flat"]


def read_flat(path: Path) -> tuple[GraphBuild, int, int]:
    """Open ``path`` (what :func:`write_flat` wrote): the build, its store generation
    and its code stamp. The nodes' attributes, neighbours and name table values are
    decoded when first read.

    Raises:
        IndexCorruptError: missing, untrusted, of another format, truncated or damaged
            (one line naming the file and what is wrong).
    """
    try:
        data, st = _mapped(path)
    except _Damaged as exc:
        raise IndexCorruptError(f"{path}: {exc}") from None
    except FileNotFoundError as exc:
        raise IndexCorruptError(f"{path}: no flat graph yet; run `rubi index`") from exc
    except OSError as exc:
        raise IndexCorruptError(f"{path}: unreadable ({exc})") from exc
    except Exception as exc:  # open_trusted's UntrustedCacheError
        raise IndexCorruptError(f"{path}: not loaded ({exc})") from exc
    try:
        return _open(data, (path, st))
    except _Damaged as exc:
        raise IndexCorruptError(f"{path}: {exc}") from None


class _Damaged(Exception):
    """What is wrong with a flat file's bytes (a line's end)."""


def _mapped(path: Path) -> tuple[mmap.mmap, os.stat_result]:
    """``path`` mapped read-only (its pages are read as they are touched: the link
    problems, a third of the file, are not read by a search), and its ``fstat``."""
    with open_trusted(path) as fh:
        st = os.fstat(fh.fileno())
        if st.st_size < BODY:
            raise _Damaged(f"truncated ({st.st_size} bytes)")
        return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ), st


def _open(data: Buffer, opened: tuple[Path, os.stat_result]) -> tuple[GraphBuild, int, int]:
    """The build in ``data``; ``opened``: the file's path and ``fstat``, whose searched
    sections' CRC is then checked once per file (:mod:`rubi.graph.flatcheck`)."""
    gen, stamp, lazy_crc = _header(data)
    spans = _spans(data)
    view = memoryview(data)
    lazy_from = spans[LAZY_FROM][0] - _pad(spans)
    crc = HEADER.unpack_from(data)[7]
    if not flatcheck.checked_before(*opened, crc):
        started = flatcheck.now_ns()
        if zlib.crc32(view[BODY:lazy_from]) != crc:
            raise _Damaged("damaged (checksum differs)")
        flatcheck.mark_checked(*opened, crc, started)
    try:
        ints = {
            name: view[spans[name][0] : sum(spans[name])].cast(code) for name, code in CODES.items()
        }
        tables = loads(_blob(data, spans["tables"]))
        ids = _blob(data, spans["ids"]).decode("utf-8", "surrogatepass").split(ID_END)
    except (ValueError, TypeError) as exc:
        raise _Damaged(f"damaged ({exc})") from None
    if ids.pop():  # every id ends with ID_END: nothing after the last one's
        raise _Damaged("damaged (the last node id unterminated)")
    if not (
        isinstance(tables, dict)
        and isinstance(tables.get("keys"), list)
        and isinstance(tables.get("data"), list)
        and all(isinstance(d, dict) for d in tables["data"])
        and isinstance(tables.get("graph"), dict)
    ):
        raise _Damaged("damaged (tables of the wrong shape)")
    n = len(ids)
    lengths = {"attr_off": n + 1}
    for d in ("succ", "pred"):
        lengths[f"{d}_off"] = n + 1
        lengths[f"{d}_koff"] = len(ints[f"{d}_nbr"]) + 1
        lengths[f"{d}_data"] = len(ints[f"{d}_key"])
    for name, length in lengths.items():
        if len(ints[name]) != length:
            raise _Damaged(f"section {name} of the wrong length")
    graph = FlatGraph(data, ids, spans, ints, tables)
    if len(graph._index) != n:
        raise _Damaged("damaged (a node id twice)")
    build = GraphBuild(
        graph=_untyped(graph),
        problems_by_note=_untyped(
            _Table(data, spans, ints, "problems", _problems, (view[lazy_from:], lazy_crc))
        ),
        names=_untyped(_Table(data, spans, ints, "names", _id_list)),
        type_names=_untyped(_Table(data, spans, ints, "type_names", _id_list)),
        defined_names=_untyped(_Table(data, spans, ints, "defined_names", _id_list)),
    )
    return build, gen, stamp


def _header(data: Buffer) -> tuple[int, int, int]:
    """The generation, the code stamp and the link problems' CRC of a file whose
    header, length and section table are right."""
    magic, fmt, order, gen, stamp, length, table_crc, _, lazy_crc = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise _Damaged("not a flat graph")
    if fmt != FLAT_FORMAT:  # a newer one: a later rubi's, then this one run again
        raise _Damaged(f"{'old' if fmt < FLAT_FORMAT else 'newer'} format ({fmt})")
    if order != ORDER:
        raise _Damaged("written on a machine of another byte order")
    if length != len(data):
        raise _Damaged(f"truncated or extended ({len(data)} bytes, {length} written)")
    if zlib.crc32(memoryview(data)[HEADER.size : BODY]) != table_crc:
        raise _Damaged("damaged (checksum differs)")
    return gen, stamp, lazy_crc


def _spans(data: Buffer) -> dict[str, tuple[int, int]]:
    """Each section's ``(start, size)``, in order, inside the body, aligned for its array."""
    spans: dict[str, tuple[int, int]] = {}
    at = BODY
    for i, name in enumerate(SECTIONS):
        start, size = SECTION.unpack_from(data, HEADER.size + i * SECTION.size)
        if start < at or size < 0 or start + size > len(data):
            raise _Damaged(f"section {name} out of bounds")
        code = CODES.get(name)
        if code is not None and (start % ALIGN or size % array(code).itemsize):
            raise _Damaged(f"section {name} misaligned")
        spans[name] = (start, size)
        at = start + size
    return spans


def _pad(spans: dict[str, tuple[int, int]]) -> int:
    """The padding the writer put before the first lazily checked section."""
    before = SECTIONS[SECTIONS.index(LAZY_FROM) - 1]
    return spans[LAZY_FROM][0] - sum(spans[before])


def _blob(data: Buffer, span: tuple[int, int]) -> bytes:
    return data[span[0] : span[0] + span[1]]


def _corrupt(what: str) -> IndexCorruptError:
    return IndexCorruptError(f"the flat graph is damaged ({what}); run `rubi index --full`")


_SCAN = scanner()  # json's C scanner called directly: 2.2 -> 1.0 ms for a recall's 822 nodes


def _decode(raw: bytes) -> Any:
    """The one JSON value filling ``raw`` (as written: no whitespace); else damage."""
    try:
        text = raw.decode("utf-8")
        value, end = _SCAN(text, 0)
    except (ValueError, StopIteration, SystemError) as exc:  # StopIteration: no value
        # SystemError: a bad value while json.decoder is not imported; json's words
        why = scan_error(text, 0) if isinstance(exc, SystemError) else exc
        raise _corrupt(str(why) or "no value") from None
    if end != len(text):
        raise _corrupt(f"extra data after a value at {end}")
    return value


class FlatGraph:
    """A multigraph read from a flat file, read like a ``networkx.MultiDiGraph`` (the
    reading API :class:`~rubi.graph.frozen.FrozenGraph` offers): ``g.nodes`` (node →
    attribute dict), ``g.succ`` and ``g.pred`` (node → neighbour → edge key → edge
    attributes), ``node in g``, iteration and ``len``, in networkx's orders. Read-only;
    anything else is answered by a ``MultiDiGraph`` made of it on first use
    (:meth:`thaw`: every dict decoded, networkx imported). Its reads raise
    :class:`~rubi.core.errors.IndexCorruptError` when the file's arrays point outside it.
    """

    def __init__(
        self,
        data: Buffer,
        ids: list[str],
        spans: dict[str, tuple[int, int]],
        ints: dict[str, memoryview],
        tables: dict[str, Any],
    ) -> None:
        self.graph: dict[str, Any] = tables["graph"]
        self._ids = ids
        self._index = dict(zip(ids, range(len(ids)), strict=False))  # as long: unchecked
        keys: list[Any] = tables["keys"]
        datas: list[dict[str, Any]] = tables["data"]
        self._nodes = _Nodes(data, spans["attrs"][0], ints["attr_off"], ids, self._index)
        self._succ = _Adjacency("succ", ids, self._index, ints, keys, datas)
        self._pred = _Adjacency("pred", ids, self._index, ints, keys, datas)
        self._full: nx.MultiDiGraph | None = None

    @property
    def nodes(self) -> Mapping[str, dict[str, Any]]:
        """Node → its attribute dict (``g.nodes[n]``, ``g.nodes.get(n)``)."""
        return self._nodes

    @property
    def succ(self) -> Mapping[str, dict[str, dict[str, dict[str, Any]]]]:
        """Node → successor → edge key → edge attributes."""
        return self._succ

    @property
    def pred(self) -> Mapping[str, dict[str, dict[str, dict[str, Any]]]]:
        """Node → predecessor → edge key → edge attributes."""
        return self._pred

    adj = succ

    def __contains__(self, node: object) -> bool:
        try:
            return node in self._index
        except TypeError:  # an unhashable value is no node, as networkx says
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def out_edges(self, node: str, keys: bool = True) -> list[tuple[str, str, str]]:
        """``(node, successor, key)`` of each edge out of ``node``, in networkx's order.

        Raises:
            ValueError: ``keys`` false (only the keyed form is read here)."""
        if not keys:
            raise ValueError("FlatGraph.out_edges lists keyed edges only")
        return [(node, v, k) for v, keydict in self._succ[node].items() for k in keydict]

    def in_degree(self, node: str) -> int:
        """Edges into ``node``, each key counted."""
        return sum(len(keydict) for keydict in self._pred[node].values())

    def thaw(self) -> nx.MultiDiGraph:
        """A ``networkx.MultiDiGraph`` holding this graph (made once; decodes every
        node and imports networkx). Read it only: a change to it is not seen here."""
        if self._full is None:
            from rubi.graph.frozen import FrozenGraph

            succ = {node: dict(self._succ[node]) for node in self._ids}
            pred = {v: {u: succ[u][v] for u in self._pred[v]} for v in self._ids}
            nodes = {node: self._nodes[node] for node in self._ids}
            self._full = FrozenGraph(self.graph, nodes, succ, pred).thaw()
        return self._full

    def __getattr__(self, name: str) -> Any:
        """What this class does not define: the networkx graph's (:meth:`thaw`)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.thaw(), name)


def _untyped(value: object) -> Any:
    """``value`` as ``Any`` (``typing.cast`` without typing): stands for a build's dicts."""
    return value


if TYPE_CHECKING:
    _V = TypeVar("_V")


class _ByNode(Mapping[str, "_V"]):  # strings: no typing at run time
    """A mapping keyed by the graph's node ids in the graph's order (``_ids``, with the
    id → position dict ``_index``): membership, iteration and size; the subclass reads
    a node's value."""

    _ids: list[str]
    _index: dict[str, int]

    def __contains__(self, node: object) -> bool:
        try:
            return node in self._index
        except TypeError:
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class _Nodes(_ByNode[dict[str, "Any"]]):
    """Node → attribute dict, each decoded on first read."""

    def __init__(
        self, data: Buffer, base: int, off: memoryview, ids: list[str], index: dict[str, int]
    ) -> None:
        self._data, self._base, self._off = data, base, off
        self._ids, self._index = ids, index
        self._cache: dict[int, dict[str, Any]] = {}

    def __getitem__(self, node: str) -> dict[str, Any]:
        i = self._index[node]
        found = self._cache.get(i)
        if found is None:
            base, off = self._base, self._off
            raw = self._data[base + off[i] : base + off[i + 1]]
            attrs = _decode(raw)
            if not isinstance(attrs, dict):
                raise _corrupt(f"node {node!r}")
            if b"[" in raw:  # else no value is a list (most nodes: nothing to convert)
                attrs = {k: tuple(v) if type(v) is list else v for k, v in attrs.items()}
            found = self._cache[i] = attrs
        return found


class _Adjacency(_ByNode[dict[str, dict[str, dict[str, "Any"]]]]):
    """Node → neighbour → edge key → edge attributes, each node's made on first read."""

    def __init__(
        self,
        direction: str,
        ids: list[str],
        index: dict[str, int],
        ints: dict[str, memoryview],
        keys: list[Any],
        datas: list[dict[str, Any]],
    ) -> None:
        self._ids, self._index, self._keys, self._datas = ids, index, keys, datas
        self._off, self._nbr, self._koff, self._key, self._data = (
            ints[f"{direction}_{part}"] for part in ADJACENCY
        )
        self._cache: dict[int, dict[str, dict[str, dict[str, Any]]]] = {}
        self._linked: Mapping[str, Mapping[str, Any]] | None = None

    def __getitem__(self, node: str) -> dict[str, dict[str, dict[str, Any]]]:
        i = self._index[node]
        found = self._cache.get(i)
        if found is None:
            ids, nbr, koff, key, data = self._ids, self._nbr, self._koff, self._key, self._data
            keys, datas = self._keys, self._datas
            try:
                found = {
                    ids[nbr[p]]: {keys[key[k]]: datas[data[k]] for k in range(koff[p], koff[p + 1])}
                    for p in range(self._off[i], self._off[i + 1])
                }
            except (IndexError, TypeError) as exc:
                raise _corrupt(f"neighbours of {node!r}: {exc}") from None
            self._cache[i] = found
        return found

    def linked(self) -> Mapping[str, Mapping[str, Any]]:
        """Node → its neighbours' ids only (:mod:`rubi.graph.flatlinks`: a walk's)."""
        from rubi.graph.flatlinks import Linked

        self._linked = self._linked or Linked(self)
        return self._linked


def _id_list(key: str, value: Any) -> list[str]:
    if not (isinstance(value, list) and all(type(v) is str for v in value)):
        raise _corrupt(f"names of {key!r}")
    return value


def _problems(source: str, value: Any) -> list[LinkProblem]:
    try:
        return [
            LinkProblem(source, target, status, resolved, tuple(candidates))
            for target, status, resolved, candidates in value
        ]
    except (TypeError, ValueError) as exc:
        raise _corrupt(f"link problems of {source!r}: {exc}") from None


class _Keys:
    """A table's keys as UTF-8 bytes, a sequence :func:`bisect.bisect_left` searches."""

    def __init__(self, data: Buffer, base: int, off: memoryview) -> None:
        self._data, self._base, self._off = data, base, off

    def __len__(self) -> int:
        return len(self._off) - 1

    def __getitem__(self, i: int) -> bytes:
        base, off = self._base, self._off
        return self._data[base + off[i] : base + off[i + 1]]


class _Table(Mapping[str, "Any"]):
    """A name table (or the link problems by note) read from the file: a binary search
    over its sorted keys per lookup, a value decoded on its first hit; keys' UTF-8 order."""

    def __init__(
        self,
        data: Buffer,
        spans: dict[str, tuple[int, int]],
        ints: dict[str, memoryview],
        name: str,
        decode: Callable[[str, Any], Any],
        unchecked: tuple[memoryview, int] | None = None,
    ) -> None:
        self._data = data
        self._unchecked = unchecked  # bytes to check against their CRC-32 before a lookup
        self._keys = _Keys(data, spans[f"{name}_keys"][0], ints[f"{name}_off"])
        self._vbase, self._voff = spans[f"{name}_vals"][0], ints[f"{name}_voff"]
        if len(self._voff) != len(ints[f"{name}_off"]):
            raise _Damaged(f"section {name}_voff of the wrong length")
        self._decode = decode
        self._cache: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if type(key) is not str:
            raise KeyError(key)
        found = self._cache.get(key)
        if found is not None:
            return found
        self._check()
        raw = utf8(key)
        keys = self._keys
        i = bisect_left(keys, raw)
        if i >= len(keys) or keys[i] != raw:
            raise KeyError(key)
        base, voff = self._vbase, self._voff
        found = self._decode(key, _decode(self._data[base + voff[i] : base + voff[i + 1]]))
        self._cache[key] = found
        return found

    def _check(self) -> None:
        if self._unchecked is not None:
            view, crc = self._unchecked
            if zlib.crc32(view) != crc:
                raise _corrupt("checksum of the link problems differs")
            self._unchecked = None

    def __iter__(self) -> Iterator[str]:
        self._check()
        keys = self._keys
        for i in range(len(keys)):
            yield keys[i].decode("utf-8", "surrogatepass")

    def __len__(self) -> int:
        return len(self._keys)
