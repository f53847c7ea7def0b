"""BM25F term at a time over an open Whoosh reader, with its statistics in memory.

Whoosh scores a disjunction document at a time: every posting of every query term
goes through a matcher, a scorer and a read of the document's field length from the
segment's length column on disk (three to five Python calls and a seek per posting).
:class:`TermScorer` gives the same hits with the same scores at a fraction of the
cost, for as long as the reader it was built on is current:

- each segment's field lengths are read once per field into an array, and each
  document's BM25 length term ``K1 * ((1 - B) + B * fl / avgfl)`` is computed once;
- a term's postings are read a block at a time (Whoosh's own blocks) and turned into
  an array of document numbers and one of boosted scores, kept in a cache bounded by
  :data:`MAX_CACHED_POSTINGS` postings (the recall hook and searches share words);
- a query adds each term's scores into a dict, in the query's term order, so every
  float operation is Whoosh's (:func:`whoosh.scoring.bm25`, the term boost, the sum
  in the array union matcher's order): scores are equal to the last bit.

The statistics are those of :class:`rubi.index.deletions.LiveBM25F`: the live
document count, document frequencies without deleted documents, a field's average
length from the segments' live totals. The top hits are Whoosh's ``TopCollector``
choice: highest score first, the lower document number on a tie.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from math import log
from typing import Any

from whoosh.util.numeric import byte_to_length

__all__ = [
    "MAX_CACHED_POSTINGS",
    "UNKEPT_STORED",
    "Postings",
    "ScoredDoc",
    "TermQuery",
    "TermScorer",
]

MAX_CACHED_POSTINGS = 1_000_000
"""Postings (document number and score: 12 bytes each) the scorer keeps for terms
already read; the least recently used terms are dropped beyond it."""

UNKEPT_STORED = frozenset({"meta"})
"""Stored fields :meth:`TermScorer.stored` leaves out (a hit needs none of them)."""

_LENGTHS = tuple(byte_to_length(b) for b in range(256))
"""Whoosh's stored field length (one byte, about 3% resolution) → its length."""


@dataclass(frozen=True, slots=True)
class TermQuery:
    """One clause of the disjunction: ``text`` in ``field``, its score times ``boost``."""

    field: str
    text: str
    boost: float


@dataclass(frozen=True, slots=True)
class Postings:
    """A term's live postings: ascending global document numbers and, beside each,
    its boosted BM25F score."""

    docs: array[int]
    scores: array[float]


@dataclass(frozen=True, slots=True)
class ScoredDoc:
    """A hit: global document number, score, and the clauses it matched (indexes
    into the query's clauses)."""

    docnum: int
    score: float
    matched: tuple[int, ...]


class TermScorer:
    """Scores disjunctions of terms over one open Whoosh reader (see the module
    docstring). Not thread-safe: the owner serialises calls.

    Args:
        reader: an open Whoosh ``IndexReader`` (a segment or a multi-segment reader);
            the scorer is valid while it stays open and current.
        B: BM25 length normalisation.
        K1: BM25 term-frequency saturation.
    """

    def __init__(self, reader: Any, *, B: float, K1: float) -> None:
        self.reader = reader
        self.B = B
        self.K1 = K1
        self.doc_count = int(reader.doc_count())
        self._leaves: list[tuple[Any, int, frozenset[int]]] = [
            (leaf, offset, frozenset(leaf.deleted_docs_set) if leaf.has_deletions() else _NONE)
            for leaf, offset in reader.leaf_readers()
        ]
        self._norms: dict[str, list[array[float]]] = {}
        self._postings: OrderedDict[tuple[str, str, float], Postings] = OrderedDict()
        self._cached = 0
        self._docsets: dict[tuple[str, str], frozenset[int]] = {}
        self._stored: dict[int, dict[str, Any]] = {}
        self._df: dict[tuple[str, str], int] = {}

    # -- statistics --------------------------------------------------------------
    def avg_field_length(self, field: str) -> float:
        """The field's average length over live documents (LiveBM25F's), 1 when 0."""
        return float(self.reader.field_length(field)) / (self.doc_count or 1) or 1

    def _field_norms(self, field: str) -> list[array[float]]:
        """Per segment, each document's ``K1 * ((1 - B) + B * fl / avgfl)``."""
        norms = self._norms.get(field)
        if norms is None:
            avgfl, B, K1 = self.avg_field_length(field), self.B, self.K1
            norms = []
            for leaf, _, _ in self._leaves:
                lengths = _stored_lengths(leaf, field)
                norms.append(array("d", [K1 * ((1 - B) + B * fl / avgfl) for fl in lengths]))
            self._norms[field] = norms
        return norms

    def doc_frequency(self, field: str, text: str) -> int:
        """Live documents holding ``text`` in ``field`` (cached; deleted documents are
        left out as :class:`~rubi.index.deletions.LiveBM25F` leaves them out)."""
        key = (field, text)
        found = self._df.get(key)
        if found is None:
            found = 0
            for leaf, _, deleted in self._leaves:
                if (field, text) not in leaf:
                    continue
                if deleted:
                    found += len(_leaf_postings(leaf, field, text, deleted)[0])
                else:
                    found += int(leaf.doc_frequency(field, text))
            self._df[key] = found
        return found

    def idf(self, df: int) -> float:
        """Whoosh's (and :class:`~rubi.index.deletions.LiveBM25F`'s) inverse document
        frequency of a term ``df`` live documents hold: ``log(N / (df + 1)) + 1``."""
        return log(self.doc_count / (df + 1)) + 1

    def with_document_idf(
        self, clauses: Sequence[TermQuery], shared: Collection[str]
    ) -> list[TermQuery]:
        """``clauses`` with the boost of each clause in a ``shared`` field scaled so
        that its term weighs the IDF of the documents holding it in any of those
        fields (the most in one field: BM25F's one IDF per term, Robertson & Zaragoza
        2009 section 3.5), not the IDF of the field alone. A word half the vault's
        bodies carry is no rarer in titles: "note" in nine titles of a help vault
        outranked the one note whose heading was "Math" for "write math equations in
        a note".

        The boost scales by ``idf(df of the term) / idf(df in the field)`` (≤ 1), so
        Whoosh given the returned clauses scores as this scorer does. Clauses of other
        fields, and whose term no document holds, are returned as they are."""
        most: dict[str, int] = {}
        for c in clauses:
            if c.field in shared:
                df = self.doc_frequency(c.field, c.text)
                most[c.text] = max(most.get(c.text, 0), df)
        out: list[TermQuery] = []
        for c in clauses:
            df = self.doc_frequency(c.field, c.text) if c.field in shared else 0
            if df and most[c.text] > df:
                c = TermQuery(c.field, c.text, c.boost * self.idf(most[c.text]) / self.idf(df))
            out.append(c)
        return out

    # -- postings ----------------------------------------------------------------
    def postings(self, clause: TermQuery) -> Postings:
        """The clause's live postings with their boosted scores (cached)."""
        key = (clause.field, clause.text, clause.boost)
        found = self._postings.get(key)
        if found is not None:
            self._postings.move_to_end(key)
            return found
        found = self._read(clause)
        self._postings[key] = found
        self._cached += len(found.docs)
        while self._cached > MAX_CACHED_POSTINGS and len(self._postings) > 1:
            _, dropped = self._postings.popitem(last=False)
            self._cached -= len(dropped.docs)
        return found

    def _read(self, clause: TermQuery) -> Postings:
        field, text = clause.field, clause.text
        per_leaf: list[tuple[int, list[int], list[float], array[float]]] = []
        df = 0
        norms = None
        for i, (leaf, offset, deleted) in enumerate(self._leaves):
            if (field, text) not in leaf:
                continue
            ids, weights = _leaf_postings(leaf, field, text, deleted)
            if not ids:
                continue
            if norms is None:
                norms = self._field_norms(field)
            df += len(ids)
            per_leaf.append((offset, ids, weights, norms[i]))
        docs: array[int] = array("i")
        scores: array[float] = array("d")
        if not df:
            return Postings(docs, scores)
        # Whoosh: idf = log(N / (df + 1)) + 1 (LiveBM25F), bm25() times the term's boost.
        idf = self.idf(df)
        k1p1, boost = self.K1 + 1, clause.boost
        for offset, ids, weights, norm in per_leaf:
            if boost != 1.0:
                scores.extend(
                    [
                        idf * ((tf * k1p1) / (tf + norm[d])) * boost
                        for d, tf in zip(ids, weights, strict=True)
                    ]
                )
            else:
                scores.extend(
                    [
                        idf * ((tf * k1p1) / (tf + norm[d]))
                        for d, tf in zip(ids, weights, strict=True)
                    ]
                )
            docs.extend([d + offset for d in ids] if offset else ids)
        return Postings(docs, scores)

    # -- filters -----------------------------------------------------------------
    def docs_with(self, field: str, value: str) -> frozenset[int]:
        """Live global document numbers holding ``value`` in the ID field ``field``."""
        key = (field, value)
        found = self._docsets.get(key)
        if found is None:
            found = frozenset(
                d + offset
                for leaf, offset, deleted in self._leaves
                if (field, value) in leaf
                for d in _leaf_postings(leaf, field, value, deleted)[0]
            )
            self._docsets[key] = found
        return found

    def stored(self, docnum: int) -> dict[str, Any]:
        """A document's stored fields but :data:`UNKEPT_STORED` (cached; the caller
        must not change the dict)."""
        found = self._stored.get(docnum)
        if found is None:
            fields = self.reader.stored_fields(docnum)
            found = {k: v for k, v in fields.items() if k not in UNKEPT_STORED}
            self._stored[docnum] = found
        return found

    # -- queries -----------------------------------------------------------------
    def top(
        self,
        clauses: Sequence[TermQuery],
        limit: int,
        *,
        allow: frozenset[int] | None = None,
        mask: frozenset[int] = frozenset(),
    ) -> list[ScoredDoc]:
        """The ``limit`` best documents for the disjunction of ``clauses``: highest
        score first, the lower document number first on a tie (Whoosh's choice).

        Args:
            clauses: the terms, in the order Whoosh would sum them (duplicates count
                twice, as they do in Whoosh).
            limit: hits at most (≥ 1).
            allow: only these documents, or all.
            mask: never these documents.
        """
        lists = [self.postings(c) for c in clauses]
        acc: dict[int, float] = {}
        get = acc.get
        for p in lists:
            for d, s in zip(p.docs, p.scores, strict=True):
                acc[d] = get(d, 0.0) + s
        # Every sum is > 0 (idf > 0, tf > 0), as Whoosh's array matcher requires.
        candidates: Collection[int] = acc.keys() if allow is None else acc.keys() & allow
        if mask:
            candidates = set(candidates) - mask
        best = heapq.nsmallest(limit, [(-acc[d], d) for d in candidates])
        top = {d for _, d in best}
        holding: dict[int, list[int]] = {d: [] for d in top}
        for i, p in enumerate(lists):
            if not p.docs:
                continue
            if len(p.docs) <= 16 * len(top):  # short list: one pass in C
                found: Iterable[int] = top.intersection(p.docs)
            else:  # long list: look each hit up
                found = [d for d in top if _holds(p.docs, d)]
            for d in found:
                holding[d].append(i)
        return [ScoredDoc(d, -neg, tuple(sorted(holding[d]))) for neg, d in best]


_NONE: frozenset[int] = frozenset()


def _holds(docs: array[int], docnum: int) -> bool:
    at = bisect_left(docs, docnum)
    return at < len(docs) and docs[at] == docnum


def _stored_lengths(leaf: Any, field: str) -> list[int]:
    """Each document's stored length of ``field`` in one segment (0 when empty).

    Read whole from the segment's length column (one byte per document); a segment
    without the column (no document has the field) gives Whoosh's default of 1."""
    count = int(leaf.doc_count_all())
    try:
        column = leaf._perdoc._cached_reader(f"_{field}_len", _lengths_column())
        if column is None:
            return [1] * count
        raw = column._dbfile.get(column._basepos, column._count)
    except AttributeError:  # another codec: ask document by document
        return [int(leaf.doc_field_length(d, field, 1) or 0) for d in range(count)]
    lengths = [_LENGTHS[b] for b in raw]
    return lengths + [0] * (count - len(lengths))


def _lengths_column() -> Any:
    from whoosh.codec.whoosh3 import LENGTHS_COLUMN

    return LENGTHS_COLUMN


def _leaf_postings(
    leaf: Any, field: str, text: str, deleted: frozenset[int]
) -> tuple[list[int], list[float]]:
    """A term's postings in one segment, deleted documents left out: (segment
    document numbers ascending, term frequencies)."""
    m = leaf.postings(field, text)
    if hasattr(m, "child"):  # the filter Whoosh puts over deleted documents
        m = m.child
        m.reset()  # the filter moved it past the first deleted documents
    ids: list[int] = []
    weights: list[float] = []
    if all(hasattr(m, a) for a in ("_read_ids", "_read_weights", "_next_block", "_atend")):
        while m.is_active():  # Whoosh's on-disk postings: a block (≤ 128) at a time
            m._read_ids()
            m._read_weights()
            ids.extend(m._ids)
            weights.extend(m._weights)
            m._next_block()
    else:  # inlined postings (a term in one document) and other matchers
        while m.is_active():
            ids.append(m.id())
            weights.append(m.weight())
            m.next()
    if deleted:
        kept = [(d, w) for d, w in zip(ids, weights, strict=True) if d not in deleted]
        ids, weights = [d for d, _ in kept], [w for _, w in kept]
    return ids, weights
