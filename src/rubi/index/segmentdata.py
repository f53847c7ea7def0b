"""What a Whoosh segment holds, read once and kept (:class:`SegmentData`): each
field's stored lengths, each term's postings, each document's stored fields. A
segment never changes once written (a commit adds segments and marks documents
deleted), so what is read of it outlives the reader: the reader opened after a
commit reads only the new segment. Read by the BM25F scorer
(:class:`rubi.index.termscore.TermScorer`).
"""

from __future__ import annotations

import struct
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Collection, Sequence
from pathlib import Path

from whoosh.util.numeric import byte_to_length

from rubi.core.segmentreads import segments_mapped
from rubi.index.segmentfiles import ColdSegment
from rubi.index.segmentpickles import SegmentFormatError

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from rubi.index.segmentterms import SegmentTerms

__all__ = [
    "MAX_CACHED_POSTINGS",
    "MAX_CACHED_STORED",
    "UNKEPT_STORED",
    "SegmentData",
    "segment_id",
]

MAX_CACHED_POSTINGS = 1_000_000
"""Postings (document number and score: 12 bytes each) the scorer keeps for terms
already read; the least recently used terms are dropped beyond it."""

MAX_CACHED_STORED = 20_000
"""Documents whose stored fields :class:`SegmentData` keeps (about 0.5 KB each); all
are forgotten when more are asked for."""

UNKEPT_STORED = frozenset({"meta"})
"""Stored fields :meth:`TermScorer.stored` leaves out (a hit needs none of them)."""

_UNREAD = (OSError, ValueError, SegmentFormatError, zlib.error, struct.error)
"""What a segment's file read by :class:`~rubi.index.segmentterms.SegmentTerms` may
raise (another format, a damaged or vanished file): that segment is then read through
Whoosh."""

_LENGTHS = tuple(byte_to_length(b) for b in range(256))
"""Whoosh's stored field length (one byte, about 3% resolution) → its length."""


class SegmentData:
    """Per segment (by its id), what no later commit changes: each field's stored
    lengths, each term's postings (deleted documents included: a reader filters its
    own), each document's stored fields but :data:`UNKEPT_STORED`. Postings are
    bounded by :data:`MAX_CACHED_POSTINGS`, least recently used dropped first, stored
    fields by :data:`MAX_CACHED_STORED`. Given the index's ``directory``, a Whoosh
    segment's postings and document frequencies are read from its file by
    :class:`~rubi.index.segmentterms.SegmentTerms` (the same values, a quarter of the
    CPU), through Whoosh where that reader cannot open it.
    Not thread-safe: the owner serialises calls."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self._directory = directory
        self._files: dict[str, SegmentTerms | None] = {}
        self._lengths: dict[tuple[str, str], Lengths] = {}
        self._divisors: dict[tuple[str, str, float, float], list[float]] = {}
        self._postings: OrderedDict[tuple[str, str, str], tuple[Sequence[int], Sequence[float]]]
        self._postings = OrderedDict()
        self._held = 0
        self._stored: dict[tuple[str, int], dict[str, Any]] = {}

    def keep(self, segments: Collection[str]) -> None:
        """Forget every segment but ``segments`` (the ones a new reader holds)."""
        for field in [k for k in self._lengths if k[0] not in segments]:
            del self._lengths[field]
        for table in [k for k in self._divisors if k[0] not in segments]:
            del self._divisors[table]
        for term in [k for k in self._postings if k[0] not in segments]:
            self._held -= len(self._postings.pop(term)[0])
        for doc in [k for k in self._stored if k[0] not in segments]:
            del self._stored[doc]
        for segment in [k for k in self._files if k not in segments]:
            self._close(segment)

    def close(self) -> None:
        """Close the segment files this keeps open (they are opened again on use)."""
        for segment in list(self._files):
            self._close(segment)

    def _close(self, segment: str) -> None:
        found = self._files.pop(segment, None)
        if found is not None:
            found.close()

    def _unread(self, segment: str) -> None:
        """Read the segment through Whoosh from now on (its file read otherwise failed)."""
        self._close(segment)
        self._files[segment] = None

    def _terms(self, segment: str, leaf: Any) -> SegmentTerms | None:
        """The segment's file read by ``pread``, opened on first use; None without a
        directory or where it cannot be (:func:`~rubi.index.segmentterms.open_terms`)."""
        if self._directory is None:
            return None
        if segment not in self._files:
            from rubi.index.segmentterms import open_terms

            self._files[segment] = open_terms(self._directory, leaf)
        return self._files[segment]

    def lengths(self, segment: str, leaf: Any, field: str) -> Lengths:
        """Each document's stored length of ``field`` in the segment, as its code and
        the table of what each code means: document ``d``'s length is
        ``table[codes[d]]``."""
        key = (segment, field)
        found = self._lengths.get(key)
        if found is None:
            found = self._lengths[key] = _stored_lengths(leaf, field)
        return found

    def divisors(
        self, segment: str, field: str, B: float, avgfl: float, table: Sequence[int]
    ) -> list[float]:
        """Each length code's BM25F divisor in the segment's ``field``,
        ``(1 - B) + B * table[code] / avgfl`` (``table``: its :meth:`lengths`' table;
        ``avgfl``: the field's average length, which a commit changes), made once per
        segment, field, ``B`` and average: a posting's weight divides by it instead of
        computing it (the same floats). The divisors follow from ``B``, ``avgfl`` and
        the table alone: for Whoosh's table (:data:`_LENGTHS`, every segment's but a
        reader's of another codec) one list serves every segment and field with those
        two (a cold recall made one a segment, 256 floats each), kept under no segment
        (:meth:`keep` drops it with the segments: a commit changes the averages)."""
        key = ("", "", B, avgfl) if table is _LENGTHS else (segment, field, B, avgfl)
        found = self._divisors.get(key)
        if found is None:
            found = self._divisors[key] = [(1 - B) + B * n / avgfl for n in table]
        return found

    def postings(
        self, segment: str, leaf: Any, field: str, text: str
    ) -> tuple[Sequence[int], Sequence[float]]:
        """The term's postings in the segment, deleted documents included: (segment
        document numbers ascending, term frequencies); empty when it has none. Arrays
        (12 bytes a posting in the cache), but in a process that searches once and exits
        (:func:`~rubi.core.segmentreads.segments_mapped`): there, the lists a segment
        read without Whoosh decoded, as they are (copied into arrays item by item, they
        cost a cold recall 1% of its instructions)."""
        key = (segment, field, text)
        found = self._postings.get(key)
        if found is not None:
            self._postings.move_to_end(key)
            return found
        if isinstance(leaf, ColdSegment):  # read without Whoosh
            found = leaf.term_postings(field, text)
            if not segments_mapped():  # a long-lived process keeps its cache compact
                found = (array("i", found[0]), array("d", found[1]))
            self._keep_postings(key, found)
            return found
        ids: array[int] = array("i")
        weights: array[float] = array("d")
        terms = self._terms(segment, leaf)
        try:
            _read_postings(leaf, field, text, ids, weights, terms)
        except _UNREAD:
            if terms is None:
                raise  # Whoosh's own error
            self._unread(segment)  # read through Whoosh from now on
            _read_postings(leaf, field, text, ids, weights)
        found = (ids, weights)
        self._keep_postings(key, found)
        return found

    def _keep_postings(
        self, key: tuple[str, str, str], found: tuple[Sequence[int], Sequence[float]]
    ) -> None:
        self._postings[key] = found
        self._held += len(found[0])
        while self._held > MAX_CACHED_POSTINGS and len(self._postings) > 1:
            self._held -= len(self._postings.popitem(last=False)[1][0])

    def live_count(
        self, segment: str, leaf: Any, field: str, text: str, deleted: frozenset[int]
    ) -> int:
        """How many documents not in ``deleted`` hold the term in the segment: with no
        deletion, the length of its :meth:`postings` when they are held, else the
        document frequency the segment's term table keeps for it (Whoosh counts a
        posting as it writes one: the same number, no postings decoded; 0 for a term or
        field it lacks); else its postings less the deleted ones."""
        if deleted:
            ids = self.postings(segment, leaf, field, text)[0]
            return len(ids) - len(deleted.intersection(ids))
        found = self._postings.get((segment, field, text))
        if found is not None:
            return len(found[0])
        terms = None if isinstance(leaf, ColdSegment) else self._terms(segment, leaf)
        if terms is not None:
            try:
                return terms.doc_frequency(field, text)
            except _UNREAD:
                self._unread(segment)
        return int(leaf.doc_frequency(field, text))

    def stored(self, segment: str, leaf: Any, docnum: int) -> dict[str, Any]:
        """A document's stored fields (the caller must not change the dict)."""
        key = (segment, docnum)
        found = self._stored.get(key)
        if found is None:
            fields = leaf.stored_fields(docnum)
            found = {k: v for k, v in fields.items() if k not in UNKEPT_STORED}
            if len(self._stored) >= MAX_CACHED_STORED:
                self._stored.clear()
            self._stored[key] = found
        return found


Lengths = tuple["Sequence[int]", "Sequence[int]"]
"""A field's stored lengths in one segment: each document's code, and the table of
what a code means (:meth:`SegmentData.lengths`)."""


def _stored_lengths(leaf: Any, field: str) -> Lengths:
    """Each document's stored length of ``field`` in one segment (0 when empty), as
    :meth:`SegmentData.lengths` gives it.

    Read whole from the segment's length column (one byte per document, Whoosh's
    code of the length, decoded by :data:`_LENGTHS` where it is used: decoding every
    document's up front, 14 columns of 6,500 documents, was 1 ms of a cold recall
    that reads a few hundred of them); a segment without the column (no document has
    the field) gives Whoosh's default of 1."""
    count = int(leaf.doc_count_all())
    try:
        if isinstance(leaf, ColdSegment):  # read without Whoosh
            raw = leaf.lengths_bytes(field)
        else:  # a Whoosh reader's segment (a long-lived process's): its internals
            from rubi.index.whooshinternals import column_bytes, lengths_column

            column = lengths_column(leaf, field)
            raw = None if column is None else column_bytes(column)
        if raw is None:
            return b"\1" * count, _LENGTHS
    except AttributeError:  # another codec: ask document by document
        asked = [int(leaf.doc_field_length(d, field, 1) or 0) for d in range(count)]
        return asked, range(max(asked, default=0) + 1)  # each length its own code
    return bytes(raw[:count]) + bytes(max(0, count - len(raw))), _LENGTHS


def segment_id(leaf: Any) -> str:
    """The id of a segment reader's segment (a reader without one: its own id, so
    nothing of it is shared with another reader)."""
    segment = getattr(leaf, "segment", None)
    found = getattr(segment(), "segid", None) if callable(segment) else None
    return str(found) if found else f"reader-{id(leaf)}"


def _read_postings(
    leaf: Any,
    field: str,
    text: str,
    ids: array[int],
    weights: array[float],
    terms: SegmentTerms | None = None,
) -> None:
    """Append a term's postings in one segment, deleted documents included, to
    ``ids`` (segment document numbers, ascending) and ``weights`` (frequencies);
    nothing for a term the segment does not hold. Read from the segment's file by
    ``terms`` when given (nothing appended when that fails: one of :data:`_UNREAD`),
    else through Whoosh, where the term is looked up once: asking
    ``(field, text) in leaf`` first looked up a held term twice in the segment's term
    table (a term of another language's chain is mostly not held, one held term in
    three on obsidian-hub's questions)."""
    if terms is not None:
        found_ids, found_weights = terms.term_postings(field, text)
        ids.extend(found_ids)
        weights.extend(found_weights)
        return
    from whoosh.reading import TermNotFound  # a long-lived reader's: Whoosh is loaded

    from rubi.index.whooshinternals import block_postings, has_blocks, next_block

    try:
        m = leaf.postings(field, text)
    except TermNotFound:  # no such term (or field) in the segment
        return
    if hasattr(m, "child"):  # the filter Whoosh puts over deleted documents
        m = m.child
        m.reset()  # the filter moved it past the first deleted documents
    if has_blocks(m):
        while m.is_active():  # Whoosh's on-disk postings: a block (≤ 128) at a time
            block_ids_, block_weights = block_postings(m)
            ids.extend(iter(block_ids_))  # iter: Whoosh's arrays are of other kinds
            weights.extend(iter(block_weights))
            next_block(m)
    else:  # inlined postings (a term in one document) and other matchers
        while m.is_active():
            ids.append(m.id())
            weights.append(m.weight())
            m.next()
