"""Writing the flat graph (``graph.flat``; :mod:`rubi.graph.flat` reads it, its layout
is :mod:`rubi.graph.flatlayout`'s): streamed section by section, atomically, and its
generation marked anew in place when a run changed nothing the graph holds."""

from __future__ import annotations

import json
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import accumulate, islice
from operator import methodcaller
from pathlib import Path
from typing import IO, Any

from rubi.core.atomic import atomic_write_stream
from rubi.core.errors import RubiError
from rubi.core.picklefiles import collector_paused, open_trusted
from rubi.graph.build import GraphBuild, LinkProblem
from rubi.graph.flatlayout import (
    ADJACENCY,
    ALIGN,
    BODY,
    CODES,
    FLAT_FORMAT,
    GEN,
    GEN_AT,
    HEADER,
    ID_END,
    INDEXES,
    LAZY_FROM,
    MAGIC,
    OFFSETS,
    ORDER,
    SECTION,
    SECTIONS,
    TABLE,
)
from rubi.graph.flatreuse import Previous, held_digest, table_digest

__all__ = ["restamp", "write_flat"]


def write_flat(
    path: Path,
    build: GraphBuild,
    gen: int,
    stamp: int,
    origin: tuple[str, frozenset[str]] | None = None,
) -> None:
    """Write what a reader reads of ``build`` (as of store generation ``gen`` and code
    stamp ``stamp``) to ``path`` atomically (the user's own file, 0600).

    ``build.graph`` is a ``networkx.MultiDiGraph`` or a
    :class:`~rubi.graph.frozen.FrozenGraph` (the same dicts).

    ``origin``: the id of the graph snapshot ``build``'s graph was read from or
    written as (:func:`rubi.graph.snapshot.save_snapshot`) and the nodes whose
    successors or predecessors may differ from the snapshot's (those a
    :class:`~rubi.graph.frozen.FrozenGraph` recorded). Both are recorded in the file;
    when the file replaced records the same snapshot and the same node ids (or one
    list of ids begins with the other: nodes added or removed at the end), the
    adjacency rows of every node neither file names are copied from it (each such row
    equals the snapshot's in both), with its edge keys and attribute dicts kept at
    their positions. Without it (or another snapshot, other ids) every row is encoded.
    The graph read back is the same either way; the bytes may differ (the tables'
    order).

    Raises:
        OSError: the folder is not writable or the disk is full; ``path`` is unchanged.
        TypeError, ValueError: an attribute JSON cannot hold; ``path`` is unchanged.
    """
    from rubi.graph.flatreuse import previous_tables

    previous = previous_tables(path)  # its unchanged name tables are copied, not encoded
    try:
        with collector_paused():  # no object it makes is a cycle; a 50k-note heap is long to scan
            atomic_write_stream(
                path,
                lambda fh: _Writer(fh, previous).write(build, gen, stamp, origin),
                mode=0o600,
            )
    finally:
        if previous is not None:
            previous.close()


_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""One encoder for every value (``json.dumps`` with arguments makes one per call)."""
_encode_str: Callable[[str], str] = json.encoder.encode_basestring_ascii


def _json(value: object) -> bytes:
    return _ENCODER.encode(value).encode("ascii")


def _ids_text(ids: list[str]) -> bytes:
    """The node ids in UTF-8, each followed by :data:`~rubi.graph.flatlayout.ID_END`,
    their characters as they are (a lone surrogate of an undecodable file name too:
    ``surrogatepass``, as the reader decodes).

    Raises:
        TypeError: an id is not a string.
        ValueError: an id holds :data:`~rubi.graph.flatlayout.ID_END` (no file is
            written: a reader reads the snapshot, as without one).
    """
    text = ID_END.join(ids) + ID_END if ids else ""
    if text.count(ID_END) != len(ids):
        bad = next(i for i in ids if ID_END in i)
        raise ValueError(f"the node id {bad[:80]!r} holds a NUL character; run `rubi index --full`")
    return text.encode("utf-8", "surrogatepass")


Batch = Callable[[list[Any]], tuple[bytes, Iterable[int]]]
"""Encodes a chunk of values: their bytes joined, and each one's length."""


def _each(encode: Callable[[Any], bytes]) -> Batch:
    """A :data:`Batch` of ``encode`` applied to each value."""

    def batch(values: list[Any]) -> tuple[bytes, Iterable[int]]:
        blobs = list(map(encode, values))
        return b"".join(blobs), map(len, blobs)

    return batch


def _strings_batch(values: list[list[str]]) -> tuple[bytes, Iterable[int]]:
    """Name-table values (lists of ids) as JSON arrays, a chunk in one piece and
    without an encoder's overhead: the JSON is ASCII (``encode_basestring_ascii``
    escapes the rest), so a value's characters are its bytes, and ``][`` between two
    values' items is where one array ends."""
    items = [",".join(map(_encode_str, v)) for v in values]
    return ("[" + "][".join(items) + "]").encode("ascii"), [len(t) + 2 for t in items]


_keys_batch = _each(methodcaller("encode", "utf-8", "surrogatepass"))
"""Table keys as :func:`~rubi.graph.flatlayout.utf8` encodes them (a C-level call)."""


ORIGIN = "origin"
"""The ``tables`` key of the snapshot write a flat file's rows derive from."""
CHANGED = "changed"
"""The ``tables`` key of the node ids whose rows may differ from that snapshot's."""
MAX_CHANGED_SHARE = 0.25
"""An origin is recorded only when at most this share of the nodes changed since the
snapshot (more, and the next write would encode most rows again anyway)."""

BLOCK = 1 << 16
"""Bytes a section is written in at a time (at least: a larger value is one block)."""


class _Writer:
    """Streams the sections to ``fh`` in :data:`SECTIONS` order."""

    def __init__(self, fh: IO[bytes], previous: Previous | None = None) -> None:
        self._fh = fh
        self._previous = previous
        self._crc = 0
        self._searched_crc = 0
        self._pos = BODY
        self._spans: dict[str, tuple[int, int]] = {}

    def _put(self, data: bytes | memoryview) -> None:
        self._fh.write(data)
        self._crc = zlib.crc32(data, self._crc)
        self._pos += len(data)

    def _section(self, name: str, chunks: Iterable[bytes | memoryview]) -> None:
        assert name == SECTIONS[len(self._spans)], name
        if name == LAZY_FROM:
            self._searched_crc, self._crc = self._crc, 0
        pad = -self._pos % ALIGN
        if pad:
            self._put(b"\0" * pad)
        start = self._pos
        # joined into blocks of about 64 KiB: a write and a CRC update per value
        # (200,000 name-table values on a 10,000-file repository) were a third of it
        block: list[bytes | memoryview] = []
        size = 0
        for chunk in chunks:
            block.append(chunk)
            size += len(chunk)
            if size >= BLOCK:
                self._put(block[0] if len(block) == 1 else b"".join(block))
                block, size = [], 0
        if block:
            self._put(block[0] if len(block) == 1 else b"".join(block))
        self._spans[name] = (start, self._pos - start)

    def _ints(self, name: str, values: array[int]) -> None:
        self._section(name, [memoryview(values).cast("B")])

    def write(
        self,
        build: GraphBuild,
        gen: int,
        stamp: int,
        origin: tuple[str, frozenset[str]] | None = None,
    ) -> None:
        g: Any = build.graph
        nodes: dict[str, dict[str, Any]] = g._node
        ids = list(nodes)
        index = {node: i for i, node in enumerate(ids)}
        self._fh.write(b"\0" * BODY)
        ids_text = _ids_text(ids)
        self._section("ids", [ids_text])
        offsets = array(OFFSETS, [0])
        self._section("attrs", _encoded(nodes.values(), _each(_json), offsets))
        self._ints("attr_off", offsets)
        keys: dict[str, int] = {}
        datas: dict[object, int] = {}
        data_list: list[dict[str, Any]] = []
        # id of a (live, shared) attribute dict → its position; networkx shares each
        # node pair's key dict between the successor and predecessor views, so the
        # second direction finds every edge's attributes here
        seen: dict[int, int] = {}
        kept = self._kept_rows(origin, ids_text, index, keys, datas, data_list)
        for direction, adjacency in (("succ", g._succ), ("pred", g._pred)):
            distinct = (datas, data_list, seen)
            self._adjacency(direction, ids, adjacency, index, keys, distinct, kept)
        named = {
            "names": build.names,
            "type_names": build.type_names,
            "defined_names": build.defined_names,
        }
        held = {name: held_digest(rows) for name, rows in named.items()}
        digests: dict[str, str] = {}
        orders: dict[str, list[str]] = {}
        copied: dict[str, list[memoryview] | None] = {}
        for name, rows in named.items():
            found = self._previous.held(name, held[name]) if self._previous else None
            if found is not None:  # the same table in the same order: no sort, no digest
                copied[name], digests[name] = found
                continue
            orders[name] = sorted(rows)
            digests[name] = table_digest(orders[name], rows)
            copied[name] = self._previous.table(name, digests[name]) if self._previous else None
        tables = {
            "keys": list(keys),
            "data": data_list,
            "graph": g.graph,
            "digests": digests,
            "held": held,
        }
        if origin is not None and len(origin[1]) <= len(ids) * MAX_CHANGED_SHARE:
            tables[ORIGIN] = origin[0]
            tables[CHANGED] = sorted(origin[1])
        self._section("tables", [_json(tables)])
        for name, rows in named.items():
            same = copied[name]
            if same is None:
                self._table(name, rows, _strings_batch, orders[name])
            else:  # the replaced file's sections: the same bytes (rubi.graph.flatreuse)
                for part, section in zip(TABLE, same, strict=True):
                    self._section(f"{name}_{part}", [section])
        self._table("problems", build.problems_by_note, _each(_problems_json))
        table = b"".join(SECTION.pack(*self._spans[name]) for name in SECTIONS)
        crcs = (zlib.crc32(table), self._searched_crc, self._crc)
        self._fh.seek(0)
        self._fh.write(HEADER.pack(MAGIC, FLAT_FORMAT, ORDER, gen, stamp, self._pos, *crcs))
        self._fh.write(table)

    def _kept_rows(
        self,
        origin: tuple[str, frozenset[str]] | None,
        ids_text: bytes,
        index: dict[str, int],
        keys: dict[str, int],
        datas: dict[object, int],
        data_list: list[dict[str, Any]],
    ) -> list[int] | None:
        """When the replaced file's rows can be copied (see :func:`write_flat`): the
        positions of the nodes whose rows are encoded again, ascending, with ``keys``,
        ``datas`` and ``data_list`` seeded with the replaced file's edge keys and
        attribute dicts at their positions; else None (nothing seeded)."""
        previous = self._previous
        if origin is None or previous is None:
            return None
        tables = previous.tables
        old_keys, old_data = tables.get("keys"), tables.get("data")
        changed = tables.get(CHANGED)
        if (
            tables.get(ORIGIN) != origin[0]
            or not isinstance(changed, list)
            or not all(type(n) is str for n in changed)
            or not isinstance(old_keys, list)
            or not all(type(k) is str for k in old_keys)
            or len(set(old_keys)) != len(old_keys)
            or not isinstance(old_data, list)
            or not all(isinstance(d, dict) for d in old_data)
        ):
            return None
        old_ids = previous.section("ids")
        common = min(len(old_ids), len(ids_text))  # each id ends in ID_END: a whole id
        if old_ids[:common] != ids_text[:common]:
            return None  # node ids differ before either list ends (a node removed)
        keys.update((k, i) for i, k in enumerate(old_keys))
        for data in old_data:
            data_list.append(data)
            datas.setdefault(_marker(data), len(data_list) - 1)
        again = {index[n] for n in origin[1].union(changed) if n in index}
        # nodes past the replaced file's (added since) are encoded; so are the rows
        # that named a node past the new list's end (its neighbours: touched by the
        # removal, or recorded by the file replaced with the node's addition)
        again.update(range(bytes(old_ids).count(ID_END.encode()), len(index)))
        return sorted(again)

    def _adjacency(
        self,
        direction: str,
        ids: list[str],
        adjacency: Mapping[str, Mapping[str, Mapping[str, Any]]],
        index: dict[str, int],
        keys: dict[str, int],
        distinct: tuple[dict[object, int], list[dict[str, Any]], dict[int, int]],
        again: list[int] | None,
    ) -> None:
        """One direction's adjacency; ``distinct`` is the distinct attribute dicts
        (:func:`_data_id`) and the positions of the dicts seen (by ``id``). With
        ``again`` (positions, ascending: :meth:`_kept_rows`), only those nodes' rows are
        encoded and the others copied from the replaced file, their offsets moved by
        C-level maps: the same arrays as encoding every row with the tables seeded as
        they are; None encodes every row."""
        datas, data_list, seen = distinct
        old: list[memoryview] = []
        cast: list[memoryview] = []
        if again is not None:
            assert self._previous is not None
            old = [self._previous.section(f"{direction}_{part}") for part in ADJACENCY]
            cast = [
                view.cast(CODES[f"{direction}_{part}"])
                for view, part in zip(old, ADJACENCY, strict=True)
            ]
        off, nbr = array(OFFSETS, [0]), array(INDEXES)
        koff, key, data = array(OFFSETS, [0]), array(INDEXES), array(INDEXES)
        position, seen_at = index.__getitem__, seen.get
        key_add, data_add, koff_add = key.append, data.append, koff.append
        at = 0
        for stop in [*(range(len(ids)) if again is None else again), len(ids)]:
            if at < stop:  # nodes at..stop-1 as the replaced file holds them
                o_off, o_nbr, o_koff, o_key, o_data = cast
                n0, n1 = o_off[at], o_off[stop]
                off.extend(map((len(nbr) - n0).__add__, o_off[at + 1 : stop + 1]))
                nbr.extend(o_nbr[n0:n1])
                k0, k1 = o_koff[n0], o_koff[n1]
                koff.extend(map((len(key) - k0).__add__, o_koff[n0 + 1 : n1 + 1]))
                key.extend(o_key[k0:k1])
                data.extend(o_data[k0:k1])
            if stop == len(ids):
                break
            row = adjacency[ids[stop]]
            nbr.extend(map(position, row))
            for keydict in row.values():
                for k, attrs in keydict.items():
                    key_add(keys.setdefault(k, len(keys)))
                    found = seen_at(id(attrs))
                    if found is None:
                        found = seen[id(attrs)] = _data_id(attrs, datas, data_list)
                    data_add(found)
                koff_add(len(key))
            off.append(len(nbr))
            at = stop + 1
        for view in [*cast, *old]:
            view.release()  # the replaced file is unmapped once written
        for part, values in zip(ADJACENCY, (off, nbr, koff, key, data), strict=True):
            self._ints(f"{direction}_{part}", values)

    def _table(
        self, name: str, table: Mapping[str, Any], encode: Batch, order: list[str] | None = None
    ) -> None:
        """``table`` as sorted keys (UTF-8) and one encoded value per key.

        The keys are sorted as strings: UTF-8 (lone surrogates included, as
        :func:`~rubi.graph.flatlayout.utf8` encodes them) keeps code point order, so
        this is the order of their bytes the reader's binary search expects. Keys and
        values are encoded :data:`CHUNK` at a time and their ends taken from the
        lengths in one pass (a generator step per key was most of the time). ``order``:
        the keys sorted, when the caller sorted them already."""
        if order is None:
            order = sorted(table)
        off, voff = array(OFFSETS, [0]), array(OFFSETS, [0])
        self._section(f"{name}_keys", _encoded(order, _keys_batch, off))
        self._ints(f"{name}_off", off)
        values = map(table.__getitem__, order)
        self._section(f"{name}_vals", _encoded(values, encode, voff))
        self._ints(f"{name}_voff", voff)


CHUNK = 4096
"""Table rows encoded at a time (:func:`_encoded`)."""


def _encoded(values: Iterable[Any], encode: Batch, offsets: array[int]) -> Iterator[bytes]:
    """``values`` encoded, :data:`CHUNK` at a time into one blob, each value's end
    appended to ``offsets``."""
    it = iter(values)
    at = offsets[-1]
    while chunk := list(islice(it, CHUNK)):
        blob, lengths = encode(chunk)
        ends = accumulate(lengths, initial=at)
        next(ends)
        offsets.extend(ends)
        at = offsets[-1]
        yield blob


def _marker(attrs: Mapping[str, Any]) -> object:
    """What tells an edge's attribute dict from the others: its items, or their JSON
    when a value cannot be hashed."""
    try:
        marker: object = tuple(attrs.items())
        hash(marker)
    except TypeError:
        marker = _json(attrs)
    return marker


def _data_id(attrs: Mapping[str, Any], datas: dict[object, int], data_list: list[Any]) -> int:
    """The position of an edge's attribute dict among the distinct ones (one dict per
    relation is shared by every note edge; a code edge's carries its weight)."""
    marker = _marker(attrs)
    found = datas.get(marker)
    if found is None:
        found = datas[marker] = len(data_list)
        data_list.append(dict(attrs))
    return found


def _problems_json(problems: list[LinkProblem]) -> bytes:
    return _json([(p.target, p.status, p.resolved_to, p.candidates) for p in problems])


def restamp(path: Path, gen: int, new_gen: int) -> bool:
    """Mark the flat graph at ``path`` as of generation ``new_gen`` when it is of ``gen``:
    for a run that committed without changing the graph (a body edited, a code file's
    text changed), whose build is the same at both. The header's generation is
    rewritten in place (8 bytes no CRC covers; a reader sees the old value or the new),
    not the whole file.

    Returns:
        True when marked; False when the file is missing, not this format's, of
        another generation or not trusted.

    Raises:
        OSError: the file could not be read or written.
    """
    try:
        fh = open_trusted(path, write=True)
    except FileNotFoundError:
        return False
    except RubiError:  # open_trusted's UntrustedCacheError: a file rubi never writes to
        return False
    with fh:
        head = fh.read(HEADER.size)
        if len(head) < HEADER.size:
            return False
        magic, fmt, order, held = HEADER.unpack(head)[:4]
        if (magic, fmt, order, held) != (MAGIC, FLAT_FORMAT, ORDER, gen):
            return False
        fh.seek(GEN_AT)
        fh.write(GEN.pack(new_gen))
    return True
