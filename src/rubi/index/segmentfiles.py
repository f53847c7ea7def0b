"""A Whoosh index read without importing Whoosh: the table of contents, the term
tables, the postings, the length columns and the stored fields of codec ``whoosh3``
segments, for a process that searches once (a cold hook, a cold ``rubi search``).

Whoosh's reading stack (``whoosh.index``, ``reading``, ``codec``, ``filedb``,
``columns``, ``matching`` and what they import) costs a cold recall hook about 7 ms of
CPU to import, and its block decoding passes every posting through a matcher object.
:func:`open_segments` reads the same files directly: the latest table of contents
(its pickles loaded with stand-in classes for Whoosh's and rubi's: only their saved
attributes are read, and nothing outside a short list of plain types is loaded), each
segment's compound file memory-mapped, the hashed term table (``HSH3``: MD5 or CRC-32
slots, as ``whoosh.filedb.filetables.HashReader`` probes them), a term's info
(``W3TermInfo``: inlined postings or an extent), its posting blocks (``W3Bl``: the
pickled block header, the zlib-compressed pickled ids, delta-encoded, and weights), a
field's length column (one byte a document) and the stored fields (a pickled dict a
document, zlib-compressed). The same bytes give the same numbers: the scorer's
postings, lengths and stored fields, and so every ranking, are the ones Whoosh's
reader gives (tests compare them term by term and search by search).

Anything it does not know (another table-of-contents version, a segment that is not
a compound ``whoosh3`` one, a hash type, a pickle naming another class, a missing
file) raises :class:`SegmentFormatError` (or the decoder's own error), and the caller
(:class:`rubi.index.searchindex.SearchIndex`) reads the index through Whoosh instead.
Every other pickle (the segment's file directory, the term table's extras, posting
blocks, stored fields) may name only plain types and Python's arrays: anything else
raises :class:`SegmentFormatError` before it is made, so nothing in the files can run
code here (the index is the user's own cache, its table of contents checked by
:func:`rubi.core.picklefiles.check_trusted` first).
"""

from __future__ import annotations

import mmap
import os
import re
import struct
import zlib
from array import array
from io import BytesIO
from itertools import accumulate
from pathlib import Path

from rubi.core.picklefiles import open_trusted
from rubi.index.segmentpickles import (
    Saved,
    SegmentFormatError,
    TocUnpickler,
    plain_load,
    plain_loads,
)

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

__all__ = [
    "ColdReader",
    "ColdSegment",
    "SegmentFormatError",
    "TermTable",
    "compound_directory",
    "decode_blocks",
    "latest_generation",
    "open_segments",
    "term_table",
]

INDEX_NAME = "MAIN"
"""Whoosh's default index name, the one rubi's indexes use."""

_TOC = re.compile(rf"^_{INDEX_NAME}_([0-9]+)\.toc$")
_TOC_VERSION = -111  # whoosh.index._CURRENT_TOC_VERSION
_SEGMENT = "whoosh.codec.whoosh3.W3Segment"
_CODEC = "whoosh.codec.whoosh3.W3Codec"
_SCHEMA = "whoosh.fields.Schema"
_BLOCK_MAGIC = b"W3Bl"
_HASH_MAGIC = b"HSH3"
_INT = struct.Struct("!i")
_LONG = struct.Struct("!q")
_USHORT = struct.Struct("!H")
_UINT = struct.Struct("!I")
_LENGTHS = struct.Struct("!ii")  # a hash file item's key and value lengths
_POINTER = struct.Struct("!Iq")  # a hash slot: the key's hash, the item's position
_DIR_ENTRY = struct.Struct("!qi")  # a hash table: its position, its slots
_TERM_INFO = struct.Struct("!BfIBBfII")  # W3TermInfo's fixed part


def _varint(data: bytes | mmap.mmap, pos: int) -> tuple[int, int]:
    """Whoosh's variable-length unsigned integer at ``pos``: (value, position after).
    At most ten bytes (64 bits): a run of 0xFF bytes is no number (unbounded, its
    big-integer shifts would take time quadratic in the run's length)."""
    byte = data[pos]
    value, shift, pos = byte & 0x7F, 7, pos + 1
    while byte & 0x80:
        if shift > 63:
            raise SegmentFormatError("a variable-length number of more than 64 bits")
        byte = data[pos]
        value, shift, pos = value | (byte & 0x7F) << shift, shift + 7, pos + 1
    return value, pos


def latest_generation(directory: Path | str) -> int:
    """The newest table of contents' generation in ``directory``, -1 when none."""
    found = -1
    for name in os.listdir(directory):
        m = _TOC.match(name)
        if m:
            found = max(found, int(m.group(1)))
    return found


def _read_toc(directory: str, generation: int) -> tuple[frozenset[str], list[dict[str, Any]]]:
    """The schema's field names and each segment's saved attributes."""
    with open(os.path.join(directory, f"_{INDEX_NAME}_{generation}.toc"), "rb") as fh:
        data = fh.read()
    pos = 0
    sizes = []
    for _ in range(3):
        size, pos = _varint(data, pos)
        sizes.append(size)
    check, version = _INT.unpack_from(data, pos)[0], _INT.unpack_from(data, pos + 4)[0]
    if sizes != [4, 8, 4] or check != -12345 or version != _TOC_VERSION:
        raise SegmentFormatError(f"table of contents {sizes} {check} {version}")
    pos += 8
    for _ in range(3):  # Whoosh's release
        pos = _varint(data, pos)[1]
    length, pos = _varint(data, pos)
    stand_ins: dict[str, type[Saved]] = {}
    schema = TocUnpickler(BytesIO(data[pos : pos + length]), stand_ins).load()
    pos += length
    if _INT.unpack_from(data, pos)[0] != generation:
        raise SegmentFormatError("table of contents of another generation")
    segments = TocUnpickler(BytesIO(data[pos + 8 :]), stand_ins).load()
    if not isinstance(schema, Saved) or schema.name != _SCHEMA:
        raise SegmentFormatError("no schema")
    fields = schema.saved()
    if fields.get("_dyn_fields") or not isinstance(fields.get("_fields"), dict):
        raise SegmentFormatError("a schema of dynamic fields")
    saved = []
    for segment in segments if isinstance(segments, list) else ():
        if not isinstance(segment, Saved) or segment.name != _SEGMENT:
            raise SegmentFormatError("a segment of another codec")
        state = segment.saved()
        codec = state.get("_codec")
        if not isinstance(codec, Saved) or codec.name != _CODEC or not state.get("compound"):
            raise SegmentFormatError("a segment that is not a compound whoosh3 one")
        saved.append(state)
    return frozenset(fields["_fields"]), saved


def compound_directory(data: bytes | mmap.mmap) -> dict[str, tuple[int, int]]:
    """A compound segment file's sub-files: name → (offset, length) in the file."""
    where = _LONG.unpack_from(data, 0)[0]
    found = plain_loads(data[where:])
    return {str(file): (int(info["offset"]), int(info["length"])) for file, info in found.items()}


class TermTable:
    """A segment's hashed term table (``HSH3``), as :func:`term_table` reads it (a plain
    class, not a ``NamedTuple``: a cold reader does not import ``typing``, about 3 ms):
    ``hash`` a key's hash (MD5's last four bytes or CRC-32, as the table was written);
    ``fieldmap`` field name → its number, the first two bytes of its terms' keys;
    ``tables`` the 256 hash tables as (position from ``start``, slots); ``start`` the
    table's position in the compound file; ``order`` one entry of the ordered keys'
    positions, which start at ``order_at``; ``order_len`` how many keys it holds."""

    __slots__ = ("fieldmap", "hash", "order", "order_at", "order_len", "start", "tables")

    def __init__(
        self,
        hash: Callable[[bytes], int],
        fieldmap: dict[str, int],
        tables: list[tuple[int, int]],
        start: int,
        order: struct.Struct,
        order_at: int,
        order_len: int,
    ) -> None:
        self.hash, self.fieldmap, self.tables, self.start = hash, fieldmap, tables, start
        self.order, self.order_at, self.order_len = order, order_at, order_len


def term_table(data: bytes | mmap.mmap, start: int, length: int) -> TermTable:
    """The term table of ``length`` bytes at ``start`` in a compound segment file.

    Raises:
        SegmentFormatError: another format, or a hash type it does not know.
    """
    if data[start : start + 4] != _HASH_MAGIC:
        raise SegmentFormatError("a term table of another format")
    kind = data[start + 4]
    hash_of: Callable[[bytes], int]
    if kind == 0:
        try:
            from _md5 import md5  # type: ignore[import-not-found]
        except ImportError:  # pragma: no cover - an interpreter without it
            from hashlib import md5
        hash_of = lambda key: int.from_bytes(md5(key).digest()[-4:], "big")  # noqa: E731
    elif kind == 1:
        hash_of = lambda key: zlib.crc32(key) & 0xFFFFFFFF  # noqa: E731
    else:
        raise SegmentFormatError(f"a term table hashed by kind {kind}")
    end = start + length - _INT.size
    extras_at = end - _INT.unpack_from(data, end)[0]
    stream = BytesIO(data[extras_at:end])
    extras = plain_load(stream)
    fieldmap = {str(k): int(v) for k, v in extras["fieldmap"].items()}
    tables_at = extras_at - 256 * _DIR_ENTRY.size
    tables = list(_DIR_ENTRY.iter_unpack(data[tables_at : tables_at + 256 * _DIR_ENTRY.size]))
    order = struct.Struct("!" + str(extras["indextype"]))
    return TermTable(
        hash_of, fieldmap, tables, start, order, extras_at + stream.tell(), int(extras["indexlen"])
    )


class _Identity:
    """What :func:`rubi.index.segmentdata.segment_id` asks of a segment: its id."""

    __slots__ = ("segid",)

    def __init__(self, segid: str) -> None:
        self.segid = segid


class ColdSegment:
    """One segment's files, memory-mapped: what :class:`~rubi.index.termscore.TermScorer`
    and :class:`~rubi.index.segmentdata.SegmentData` ask of a Whoosh segment reader."""

    def __init__(self, directory: str, state: dict[str, Any], fields: frozenset[str]) -> None:
        self._segid = str(state["segid"])
        self._count = int(state["_doccount"])
        deleted = frozenset(state.get("_deleted") or ())
        if not set(map(type, deleted)) <= {int}:  # a set of types: a third of int() each
            raise SegmentFormatError("deleted documents that are not document numbers")
        self.deleted_docs_set = deleted
        self._fields = fields
        self._field_lengths = {str(k): int(v) for k, v in dict(state["_fieldlengths"]).items()}
        name = f"{state.get('indexname', INDEX_NAME)}_{self._segid}"
        with open_trusted(Path(directory, f"{name}.seg")) as fh:  # a FIFO would block
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            self._files = compound_directory(self._map)
            self._open_terms(f"{name}.trm")
            self._postings = self._files[f"{name}.pst"][0]
        except BaseException:
            self._map.close()
            raise
        self._name = name
        self._stored: tuple[int, Sequence[int], array[int]] | None = None

    def _open_terms(self, file: str) -> None:
        table = term_table(self._map, *self._files[file])
        self._hash = table.hash
        self._fieldmap = table.fieldmap
        self._tables = table.tables
        self._terms_at = table.start
        # The ordered keys' positions follow the extras (OrderedHashReader's index).
        self._order, self._order_at, self._order_len = table.order, table.order_at, table.order_len

    # -- what a Whoosh reader answers ------------------------------------------------
    def segment(self) -> _Identity:
        return _Identity(self._segid)

    def doc_count_all(self) -> int:
        return self._count

    def doc_count(self) -> int:
        return self._count - len(self.deleted_docs_set)

    def has_deletions(self) -> bool:
        return bool(self.deleted_docs_set)

    def field_length(self, field: str) -> int:
        return self._field_lengths.get(field, 0)

    def _find(self, field: str, text: str) -> tuple[int, int] | None:
        """The term's info in the term table: (its position, its length), or None."""
        if field not in self._fields:
            return None
        key = _USHORT.pack(self._fieldmap.get(field, 65535)) + text.encode("utf-8")
        keyhash = self._hash(key)
        table, slots = self._tables[keyhash & 255]
        if not slots:
            return None
        data, base = self._map, self._terms_at
        first = slot = table + ((keyhash >> 8) % slots) * _POINTER.size
        end = table + slots * _POINTER.size
        for _ in range(slots):
            slothash, item = _POINTER.unpack_from(data, base + slot)
            if not item:
                return None
            if slothash == keyhash:
                keylen, datalen = _LENGTHS.unpack_from(data, base + item)
                at = base + item + _LENGTHS.size
                if keylen == len(key) and data[at : at + keylen] == key:
                    return at + keylen, datalen
            slot += _POINTER.size
            if slot == end:
                slot = table
            if slot == first:
                break
        return None

    def __contains__(self, term: tuple[str, str]) -> bool:
        return self._find(*term) is not None

    def doc_frequency(self, field: str, text: str) -> int:
        found = self._find(field, text)
        return 0 if found is None else int(_UINT.unpack_from(self._map, found[0] + 5)[0])

    def term_postings(self, field: str, text: str) -> tuple[list[int], Any]:
        """The term's document numbers (ascending, deleted ones included) and weights."""
        found = self._find(field, text)
        if found is None:
            return [], []
        data = self._map
        at, length = found
        info = _TERM_INFO.unpack_from(data, at)
        rest = at + _TERM_INFO.size
        if info[0]:  # inlined: (ids, weights, values)
            ids, weights, _ = plain_loads(data[rest : at + length])
            return list(ids), list(weights) if weights else [1.0] * len(ids)
        offset = _LONG.unpack_from(data, rest)[0]
        return decode_blocks(self._map, self._postings + offset)

    def lengths_bytes(self, field: str) -> bytes | None:
        """The field's length column (one byte a document), None when it has none."""
        found = self._files.get(f"{self._name}._{field}_len.col")
        if found is None:
            return None
        start, length = found
        return self._map[start : start + length]

    def stored_fields(self, docnum: int) -> dict[str, Any]:
        if self._stored is None:
            self._stored = self._stored_column()
        base, offsets, lengths = self._stored
        length = lengths[docnum]
        if not length:
            return {}
        at = base + offsets[docnum]
        value = plain_loads(zlib.decompress(self._map[at : at + length]))
        return {k: v for k, v in (value or {}).items() if k in self._fields}

    def _stored_column(self) -> tuple[int, Sequence[int], array[int]]:
        """Whoosh's ``VarBytesColumn`` of the stored fields: where its values start,
        each document's offset (where the column keeps none, the lengths' running sums
        in a list: an array costs a conversion a number) and length."""
        start, size = self._files[f"{self._name}._stored.col"]
        data, count = self._map, self._count
        last = start + size - 1
        code = chr(data[last])
        offsets: Sequence[int] | None = None
        if code == "X":
            code, offsets_code = chr(data[last - 2]), chr(data[last - 1])
            at = (last - 2) - count * struct.calcsize(offsets_code)
            offsets = _array(data, at, offsets_code, count)
            last = at
        lengths = _array(data, last - struct.calcsize(code) * count, code, count)
        if offsets is None:
            offsets = list(accumulate(lengths, initial=0))
        return start, offsets, lengths

    def lexicon(self, field: str, start: bytes = b"") -> list[bytes]:
        """The field's terms in order (the term table's keys), only those from ``start``."""
        if field not in self._fields or field not in self._fieldmap:
            return []
        prefix = _USHORT.pack(self._fieldmap[field]) + start
        low, high = 0, self._order_len
        while low < high:
            mid = (low + high) // 2
            if self._key(mid) < prefix:
                low = mid + 1
            else:
                high = mid
        found = []
        while low < self._order_len and (key := self._key(low)).startswith(prefix):
            found.append(key[len(prefix) - len(start) :])
            low += 1
        return found

    def _key(self, number: int) -> bytes:
        """The term table's ``number``-th key in order."""
        data, base = self._map, self._terms_at
        item = self._order.unpack_from(data, self._order_at + number * self._order.size)[0]
        keylen = _INT.unpack_from(data, base + item)[0]
        return data[base + item + _LENGTHS.size : base + item + _LENGTHS.size + keylen]

    def close(self) -> None:
        self._map.close()


def decode_blocks(data: bytes | mmap.mmap, at: int) -> tuple[list[int], Any]:
    """The posting blocks (``W3Bl``) starting at ``at`` in ``data``: their document
    numbers (ascending, deleted ones included) and weights, as Whoosh's matcher
    decodes them.

    Raises:
        SegmentFormatError: no posting list of this format at ``at``, or a block
            whose count is not its number of ids or weights (a damaged block).
    """
    if data[at : at + 4] != _BLOCK_MAGIC:
        raise SegmentFormatError("a posting list of another format")
    at += 4
    ids: list[int] = []
    weights: list[float] = []
    last = False
    while not last:
        length = _INT.unpack_from(data, at)[0]
        last = length < 0
        end = at + _INT.size + abs(length)
        header = BytesIO(data[at + _INT.size : end])
        count, _, _, compressed, _, _ = plain_load(header)
        raw = data[at + _INT.size + header.tell() : end]
        block = plain_loads(zlib.decompress(raw) if compressed else raw)
        found_ids = list(accumulate(block[0]))
        found = block[1]
        if len(found_ids) != count or (
            found is not None and not isinstance(found, float) and len(found) != count
        ):
            raise SegmentFormatError("a posting block whose count disagrees with its postings")
        ids.extend(found_ids)
        if found is None:
            weights.extend([1.0] * count)
        elif isinstance(found, float):  # Whoosh widens it through a float array
            weights.extend(array("f", [found] * count))
        else:
            weights.extend(found)
        at = end
    return ids, weights


def _array(data: mmap.mmap, at: int, code: str, count: int) -> array[int]:
    """``count`` big-endian numbers of type ``code`` at ``at`` (Whoosh's ``get_array``)."""
    found = array(code)
    found.frombytes(data[at : at + found.itemsize * count])
    if struct.pack("=H", 1) != struct.pack("!H", 1):
        found.byteswap()
    return found


class ColdReader:
    """The segments of one table of contents, as a Whoosh ``MultiReader`` answers
    :class:`~rubi.index.termscore.TermScorer` (document numbers run on across them)."""

    def __init__(self, directory: str, generation: int, segments: list[ColdSegment]) -> None:
        self._directory = directory
        self._generation = generation
        self._segments = segments
        self._offsets = list(accumulate((s.doc_count_all() for s in segments), initial=0))

    def generation(self) -> int:
        return self._generation

    def latest_generation(self) -> int:
        """The index's newest generation now (a commit since makes a new one)."""
        return latest_generation(self._directory)

    def leaf_readers(self) -> list[tuple[ColdSegment, int]]:
        return list(zip(self._segments, self._offsets, strict=False))

    def doc_count(self) -> int:
        return sum(s.doc_count() for s in self._segments)

    def field_length(self, field: str) -> int:
        return sum(s.field_length(field) for s in self._segments)

    def lexicon(self, field: str) -> list[bytes]:
        return sorted({t for s in self._segments for t in s.lexicon(field)})

    def close(self) -> None:
        for segment in self._segments:
            segment.close()


def open_segments(directory: Path | str) -> ColdReader:
    """The index in ``directory`` as its latest table of contents lists it.

    Raises:
        SegmentFormatError: no index, no segment, or a format this reader does not
            know (read the index through Whoosh then).
        OSError: a file gone meanwhile (a commit replaced the generation).
    """
    directory = str(directory)
    generation = latest_generation(directory)
    if generation < 0:
        raise SegmentFormatError("no table of contents")
    fields, states = _read_toc(directory, generation)
    if not states:
        raise SegmentFormatError("no segment")
    segments: list[ColdSegment] = []
    try:
        for state in states:
            segments.append(ColdSegment(directory, state, fields))
    except BaseException:
        for segment in segments:
            segment.close()
        raise
    return ColdReader(directory, generation, segments)
