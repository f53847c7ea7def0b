"""Deleted documents and BM25F: an index updated note by note ranks like a fresh build.

Whoosh never rewrites a segment to drop a document: a replaced or removed document is
only marked deleted, and stays in the segment's statistics (document count, document
frequencies, field-length totals) until the segment is merged. BM25F's idf and
average field length then come out differently for the same files indexed fresh or
edit by edit (after a long concurrent run, 29 of 46 top-10 lists differed).

Three pieces make the two agree exactly:

- :func:`total_stored_lengths` makes a writer keep each segment's field-length totals
  equal to the sum of its live documents' stored lengths (Whoosh totalled exact
  lengths but stores rounded ones, so a merge changed the totals, and it never took a
  deleted document's length off).
- The scorer (:class:`rubi.index.termscore.TermScorer`) uses the live document count
  and, for the query's words, document frequencies without the deleted documents in
  their postings; :class:`LiveBM25F` is Whoosh's own per-field BM25F with the same
  live statistics (for comparisons: rubi's ranking is BM25F proper, in the scorer).
- Equal scores are ordered by id (in :meth:`rubi.index.searchindex.SearchIndex.bm25`).

:func:`merge_policy` merges every segment into one once more than
:data:`MERGE_DELETED_SHARE` of the documents are deleted, for speed: deleted documents
and extra segments slow every query, and the subtraction grows with them.

BM25F: Robertson, Zaragoza & Taylor, "Simple BM25 extension to multiple weighted
fields" (2004); the idf is Whoosh's, ``log(N / (df + 1)) + 1``.
"""

from __future__ import annotations

from bisect import bisect_right
from math import log
from typing import Any

from whoosh.scoring import BM25F, BM25FScorer, WeightScorer
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import MERGE_SMALL, OPTIMIZE

from rubi.index.whooshinternals import (
    block_ids,
    field_length_totals,
    next_block,
    segment_and_docnum,
    segment_field_lengths,
)

__all__ = [
    "MERGE_DELETED_SHARE",
    "MERGE_MAX_TOKENS",
    "LiveBM25F",
    "merge_due",
    "merge_policy",
    "total_stored_lengths",
]

MERGE_DELETED_SHARE = 0.2
"""Merge all segments into one when more than this share of the documents are
deleted (Whoosh's OPTIMIZE). Rankings are exact at any share (:class:`LiveBM25F`);
the merge is for speed: deleted documents and extra segments made BM25 up to 2-4x
slower per query (Obsidian Help, 173 notes), and the subtraction adds 0-3.5 ms there
(8 ms at a 40% share of 6,280 notes). A merge rewrites the whole index (about 1 s for
those 173 notes, as long as indexing them), so at 20% it costs about 30-40 ms per
replaced document, amortized. Figures: docs/benchmarks-history.md, "Deleted documents"."""

MERGE_MAX_TOKENS = 250_000
"""No automatic merge of an index holding more tokens than this (all fields): a
merge runs at about 50,000 tokens a second here (5 s at this size; 93-188 s for the
6,280 notes of the whole Obsidian Help, 5 million tokens), which a hook or a
``register`` call must not wait for. Such an index keeps its deleted documents
(rankings stay exact) until ``rubi index --full`` rebuilds it."""


def total_stored_lengths(writer: Any) -> None:
    """Make a Whoosh ``SegmentWriter`` keep each segment's field-length totals equal to
    the sum of its live documents' stored lengths, whatever was merged or deleted.

    Whoosh stores a document's length rounded to a byte (about 3% resolution) but
    added the exact length to the segment's total, and a merge copies the rounded
    lengths, so the same documents totalled 1.7% longer merged than built fresh
    (Obsidian Help bodies). Deleting a document left its length in the total. Here a
    new document adds its rounded length, and a deleted one's stored lengths are taken
    off its segment's totals (saved with the segment at commit), so BM25F's average
    field length needs no work per query.
    """
    perdoc = writer.perdocwriter
    add_field = perdoc.add_field
    totals = field_length_totals(perdoc)

    def add_rounded(fieldname: str, fieldobj: Any, value: Any, length: int) -> None:
        add_field(fieldname, fieldobj, value, length)
        if length:
            totals[fieldname] += byte_to_length(length_to_byte(length)) - length

    perdoc.add_field = add_rounded

    delete_document, commit, cancel = writer.delete_document, writer.commit, writer.cancel
    readers: list[Any] = []  # one reader of the segments as they were, while needed
    scorable = list(writer.schema.scorable_names())

    def delete_taking_lengths(docnum: int, delete: bool = True) -> None:
        segment, segdocnum = segment_and_docnum(writer, docnum)
        lengths = segment_field_lengths(segment)
        if delete and lengths is not None and not segment.is_deleted(segdocnum):
            if not readers:
                readers.append(writer.reader())
            for name in scorable:
                length = readers[0].doc_field_length(docnum, name) or 0
                if length and name in lengths:
                    lengths[name] = max(0, lengths[name] - length)
        delete_document(docnum, delete)

    def close_readers() -> None:
        while readers:
            readers.pop().close()

    def commit_closing(*args: Any, **kwargs: Any) -> None:
        close_readers()
        commit(*args, **kwargs)

    def cancel_closing() -> None:
        close_readers()
        cancel()

    writer.delete_document = delete_taking_lengths
    writer.commit = commit_closing
    writer.cancel = cancel_closing


def _tokens(segment: Any) -> int:
    """Tokens in every field of a segment (Whoosh keeps the totals in its TOC)."""
    return int(sum(getattr(segment, "_fieldlengths", {}).values()))


def merge_due(segments: list[Any]) -> bool:
    """True when more than :data:`MERGE_DELETED_SHARE` of the documents in
    ``segments`` (Whoosh segments) are deleted."""
    total = sum(seg.doc_count_all() for seg in segments)
    deleted = sum(seg.deleted_count() for seg in segments)
    return bool(total) and deleted / total > MERGE_DELETED_SHARE


def merge_policy(writer: Any, segments: list[Any]) -> list[Any]:
    """Whoosh merge policy: every segment into one (OPTIMIZE) when a merge is due
    (:func:`merge_due`) and the index is at most :data:`MERGE_MAX_TOKENS`, else
    Whoosh's usual merge of small segments (MERGE_SMALL). Returns the segments kept
    as they are."""
    if merge_due(segments) and sum(_tokens(seg) for seg in segments) <= MERGE_MAX_TOKENS:
        return list(OPTIMIZE(writer, segments))
    return list(MERGE_SMALL(writer, segments))


class _Leaf:
    """One segment with deletions: its reader and its deleted document numbers."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.deleted = sorted(reader.deleted_docs_set)
        self.deleted_set = frozenset(self.deleted)

    def deleted_with(self, fieldname: str, text: Any) -> int:
        """How many deleted documents hold ``text`` in ``fieldname``."""
        try:
            live = self.reader.postings(fieldname, text)
        except Exception:  # whoosh raises TermNotFound and kin
            return 0
        raw = getattr(live, "child", None)  # postings() wraps the raw list in a filter
        if raw is None:  # pragma: no cover - an unwrapped list has no deleted documents
            return 0
        raw.reset()  # the filter moved it past the first deleted documents
        if all(hasattr(raw, a) for a in ("_next_block", "_ids", "block_max_id", "block_min_id")):
            return self._count_by_block(raw)
        return self._count_by_skipping(raw)  # pragma: no cover - another codec's postings

    def _count_by_block(self, raw: Any) -> int:
        """Block by block (Whoosh's on-disk postings come in blocks of up to 128 ids
        with the highest id in the block header): a block whose id range holds no
        deleted document is passed without decoding; in the others the deleted ids are
        counted with a set intersection."""
        deleted, count, low = self.deleted, 0, -1
        while raw.is_active():
            high = raw.block_max_id()
            at = bisect_right(deleted, low)
            if at < len(deleted) and deleted[at] <= high:
                raw.block_min_id()  # decodes the block's ids
                count += len(self.deleted_set.intersection(block_ids(raw)))
            low = high
            next_block(raw)
        return count

    def _count_by_skipping(self, raw: Any) -> int:
        count = 0
        for docnum in self.deleted:  # skip through the postings to each deleted one
            if not raw.is_active():
                break
            if raw.id() < docnum:
                raw.skip_to(docnum)
                if not raw.is_active():
                    break
            if raw.id() == docnum:
                count += 1
        return count


class _LiveStats:
    """Document count, document frequencies and field lengths of one reader's live
    documents, computed on demand and kept for the reader's lifetime."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.doc_count = int(reader.doc_count())
        self.leaves = [_Leaf(leaf) for leaf, _ in reader.leaf_readers() if leaf.has_deletions()]

    def doc_frequency(self, fieldname: str, text: Any) -> int:
        df = int(self.reader.doc_frequency(fieldname, text))
        return df - sum(leaf.deleted_with(fieldname, text) for leaf in self.leaves)

    def avg_field_length(self, fieldname: str) -> float:
        # The segments' totals count live documents only (total_stored_lengths).
        return float(self.reader.field_length(fieldname)) / (self.doc_count or 1)


class _Scorer(BM25FScorer):  # type: ignore[misc]
    def __init__(
        self,
        searcher: Any,
        fieldname: str,
        text: Any,
        B: float,
        K1: float,
        qf: float,
        avgfl: float,
    ) -> None:
        self.idf = searcher.get_parent().idf(fieldname, text)
        self.avgfl = avgfl or 1
        self.B = B
        self.K1 = K1
        self.qf = qf
        self.setup(searcher, fieldname, text)


class LiveBM25F(BM25F):  # type: ignore[misc]
    """Whoosh's BM25F with the statistics of live documents only: ``N`` is the live
    document count, ``df`` leaves out deleted documents, and a field's average length
    is the live documents' total (kept by :func:`total_stored_lengths`) over ``N``.
    Equal to Whoosh's BM25F on an index without deletions; the subtraction from
    ``df`` costs time only when there are some.

    Args:
        B: length normalisation (Whoosh's ``B``).
        K1: term-frequency saturation (Whoosh's ``K1``).
    """

    def __init__(self, B: float, K1: float) -> None:
        super().__init__(B=B, K1=K1)
        self._stats: _LiveStats | None = None

    def _live(self, searcher: Any) -> _LiveStats:
        reader = searcher.get_parent().reader()
        if self._stats is None or self._stats.reader is not reader:
            self._stats = _LiveStats(reader)
        return self._stats

    def idf(self, searcher: Any, fieldname: str, text: Any) -> float:
        stats = self._live(searcher)
        if stats.doc_count <= 0:  # no live document: nothing can match (log(0) fails)
            return 0.0
        return log(stats.doc_count / (stats.doc_frequency(fieldname, text) + 1)) + 1

    def scorer(self, searcher: Any, fieldname: str, text: Any, qf: float = 1) -> Any:
        if not searcher.schema[fieldname].scorable:
            return WeightScorer.for_(searcher, fieldname, text)
        B = self._field_B.get(fieldname, self.B)
        avgfl = self._live(searcher).avg_field_length(fieldname)
        return _Scorer(searcher, fieldname, text, B, self.K1, qf, avgfl)
