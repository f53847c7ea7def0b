"""BM25F term at a time over an open Whoosh reader, with its statistics in memory.

The model is BM25F proper (Robertson, Zaragoza & Taylor 2004, "Simple BM25 extension
to multiple weighted fields"; Zaragoza, Craswell, Taylor, Saria & Robertson 2004 for
its parameters): for each query word, the field-weighted, length-normalised term
frequencies are added before one saturation,

    tf~ = sum over fields f of  w_f * tf_f / ((1 - b_f) + b_f * len_f / avglen_f)
    score(word) = idf(word) * tf~ / (k1 + tf~)

and a document's score is the sum over the query's words. ``idf`` is Whoosh's,
``log(N / (df + 1)) + 1``, with ``df`` the live documents holding the word in any
field (the union of its clauses' postings) and ``N`` the live document count; a
word of CJK pieces (bigrams and lone characters of Han, kana or Hangul,
:func:`_cjk_word`) takes Robertson–Spärck Jones's IDF instead
(:meth:`TermScorer.piece_idf`): a bigram is no word, and the bigrams of grammar that
nearly every page holds (``する``, ``こと``, Korean endings) then add next to nothing,
where Whoosh's floor of 1 counted each as a word. A word's clauses are its terms in
each field (:class:`TermQuery` ``word``): fields and languages analysed differently
(code, each note's language) give one word different terms, and they saturate
together. A word in a short title then adds at most one word's worth, where a title
score per field, multiplied by its boost and summed, outweighed a note matching most
of a question in its body.

Whoosh scores a disjunction document at a time (every posting of every query term
through a matcher, a scorer and a read of its field length from the segment's length
column on disk); :class:`TermScorer` scores term at a time:

- each segment's field lengths are read once per field into an array;
- a term's postings are read a block at a time (Whoosh's own blocks) into an array of
  document numbers and one of weighted, normalised frequencies, kept in a cache
  bounded by :data:`MAX_CACHED_POSTINGS` postings (searches share words);
- a query adds each word's frequencies, then its saturated scores, into a dict (or,
  from :data:`NUMPY_POSTINGS` postings, numpy arrays, in the same order: the same
  bits), clause by clause in the query's order.

A written segment never changes (a commit adds segments and marks documents deleted):
its field lengths, postings and stored fields are kept in a :class:`SegmentData` that
outlives the reader, so a reader opened after a commit reads only the new segment.

Statistics are the live documents' (:mod:`rubi.index.deletions`): their count, the
document frequencies and the fields' average lengths. The top hits are Whoosh's
``TopCollector`` choice: highest score first, the lower document number on a tie.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from math import log

from rubi.index.bm25fsums import Postings, best_allowed, best_numpy, loaded_numpy, word_sums
from rubi.index.commonwords import pruned_top
from rubi.index.segmentdata import (
    MAX_CACHED_POSTINGS,
    MAX_CACHED_STORED,
    UNKEPT_STORED,
    SegmentData,
    segment_id,
)

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.index.segmentdata import Lengths

__all__ = [
    "MAX_CACHED_POSTINGS",
    "MAX_CACHED_STORED",
    "NUMPY_POSTINGS",
    "UNKEPT_STORED",
    "Postings",
    "ScoredDoc",
    "SegmentData",
    "TermQuery",
    "TermScorer",
]

_NONE: frozenset[int] = frozenset()

NUMPY_POSTINGS = 500
"""Postings in a query from which :meth:`TermScorer.top` sums them with numpy when this
process has it loaded (the engine, ``rubi serve`` with the semantic extra; never a cold
hook): the same hits at 0.3 of the CPU (600 postings 0.07 vs 0.17 ms, 20,000 1.1 vs 3.9)."""


@dataclass(frozen=True, slots=True)
class TermQuery:
    """One clause: the term ``text`` in ``field``, whose frequency weighs ``boost``
    (the field's BM25F weight), a term of the query's word number ``word`` (a word's
    clauses saturate together). ``alone``: the clause is its word's only one and
    ``boost`` multiplies its saturated score instead (a field scored as its own BM25,
    :data:`rubi.index.schema.SOLO_FIELDS`). ``origin``: the query word the clause
    comes from (a word's solo clauses have ``word`` numbers of their own), for the
    share of the query's IDF mass a document matches (:meth:`TermScorer.word_idfs`);
    -1: the clause counts in no such share. ``reading``: the term is a piece of a
    word written with capitals inside it (``java`` of ``JavaScript``), saturated with
    the word but no part of its document frequency (:meth:`TermScorer.top`)."""

    field: str
    text: str
    boost: float
    word: int
    alone: bool = False
    origin: int = -1
    reading: bool = False
    weight: float = 1.0  # times the word's saturated score: RM3's feedback words' weights


@dataclass(frozen=True, slots=True)
class ScoredDoc:
    """A hit: global document number, score, and the clauses it matched (indexes
    into the query's clauses)."""

    docnum: int
    score: float
    matched: tuple[int, ...]


class TermScorer:
    """Scores queries of words by BM25F over one open Whoosh reader (see the module
    docstring). Not thread-safe: the owner serialises calls.

    Args:
        reader: an open Whoosh ``IndexReader`` (a segment or a multi-segment reader);
            the scorer is valid while it stays open and current.
        B: BM25F length normalisation ``b_f`` of the fields ``field_B`` leaves out.
        K1: BM25F saturation ``k1`` of a word's combined frequency.
        field_B: ``b_f`` of the fields given their own.
        segments: the segment data kept from the readers opened before (a new one
            when None); what belongs to segments this reader lacks is dropped.
    """

    def __init__(
        self,
        reader: Any,
        *,
        B: float,
        K1: float,
        field_B: Mapping[str, float] | None = None,
        segments: SegmentData | None = None,
    ) -> None:
        self.reader = reader
        self.B = B
        self.K1 = K1
        self.field_B = dict(field_B or {})
        self.doc_count = int(reader.doc_count())
        self._leaves: list[tuple[Any, int, frozenset[int], str]] = [
            (
                leaf,
                offset,
                frozenset(leaf.deleted_docs_set) if leaf.has_deletions() else _NONE,
                segment_id(leaf),
            )
            for leaf, offset in reader.leaf_readers()
        ]
        self._offsets = [offset for _, offset, _, _ in self._leaves]
        self.segments = segments if segments is not None else SegmentData()
        self.segments.keep({segid for _, _, _, segid in self._leaves})
        self._postings: OrderedDict[tuple[str, str, float, float], Postings] = OrderedDict()
        self._cached = 0
        self._docs: OrderedDict[tuple[str, str], array[int]] = OrderedDict()  # see docs()
        self._docs_held = 0
        self._docsets: dict[tuple[str, str], frozenset[int]] = {}
        self._df: dict[tuple[str, str], int] = {}

    # -- statistics --------------------------------------------------------------
    def avg_field_length(self, field: str) -> float:
        """The field's average length over live documents, 1 when 0."""
        return float(self.reader.field_length(field)) / (self.doc_count or 1) or 1

    def length_shares(self, docnums: Iterable[int], fields: Iterable[str]) -> dict[int, float]:
        """Each document's length over the average document's, both summed over
        ``fields`` (tokens as Whoosh stores them, one byte per field), by document
        number; a field no live document has counts for neither; 1.0 each when the
        average is 0."""
        held = [f for f in fields if self.reader.field_length(f)]
        average = sum(float(self.reader.field_length(f)) for f in held) / (self.doc_count or 1)
        out: dict[int, float] = {}
        for docnum in docnums:
            if average <= 0:
                out[docnum] = 1.0
                continue
            leaf, offset, _, segid = self._leaves[bisect_right(self._offsets, docnum) - 1]
            length = 0
            for f in held:
                codes, table = self.segments.lengths(segid, leaf, f)
                length += table[codes[docnum - offset]]
            out[docnum] = max(length, 1) / average
        return out

    def doc_frequency(self, field: str, text: str) -> int:
        """Live documents holding ``text`` in ``field`` (cached; :meth:`SegmentData.live_count`:
        no postings read in a segment without deletions)."""
        key = (field, text)
        found = self._df.get(key)
        if found is None:
            found = self._df[key] = sum(
                self.segments.live_count(segid, leaf, field, text, deleted)
                for leaf, _, deleted, segid in self._leaves
            )
        return found

    def idf(self, df: int) -> float:
        """Whoosh's inverse document frequency of a word ``df`` live documents hold:
        ``log(N / (df + 1)) + 1``; 0.0 in an index with no live documents (a new,
        empty personal vault), where no word can match and the formula has no value."""
        n = self.doc_count
        return log(n / (df + 1)) + 1 if n > 0 else 0.0

    def piece_idf(self, df: int) -> float:
        """The inverse document frequency of a CJK bigram (or lone character) ``df``
        live documents hold: Robertson–Spärck Jones's, non-negative as Lucene writes it,
        ``log(1 + (N - df + 0.5) / (df + 0.5))``."""
        n = self.doc_count
        return log(1 + (n - df + 0.5) / (df + 0.5))

    def word_dfs(self, clauses: Sequence[TermQuery]) -> dict[int, int]:
        """Each query word's document frequency by the clauses' ``origin`` (clauses of
        origin -1 left out): the live documents holding it in any of its clauses, 0 for
        a word no document holds."""
        docs: dict[int, list[array[int]]] = {}
        for c in clauses:
            if c.origin >= 0:
                docs.setdefault(c.origin, []).append(self.docs(c))
        return {w: _union_size(d) for w, d in docs.items()}

    def word_idfs(self, clauses: Sequence[TermQuery]) -> dict[int, float]:
        """Each query word's IDF by the clauses' ``origin`` (clauses of origin -1 left
        out), of its :meth:`word_dfs` (0 for a word no document holds: the highest IDF,
        the vault has nothing on it)."""
        return {w: self.idf(df) for w, df in self.word_dfs(clauses).items()}

    def _idf_of(
        self, clauses: Sequence[TermQuery], members: Sequence[int]
    ) -> Callable[[int], float]:
        """The IDF of the word of ``members`` (its clauses' indexes) as a function of
        its document frequency: a CJK piece's, else Whoosh's; a word with readings
        weighs as rare as the documents holding its written form make it (when any
        does), not the union with its pieces' (``java`` and ``script`` would make
        ``JavaScript`` as common as ``script``). ``docs/benchmarks-history.md``, "issue
        28: Russian below its BM25, sixteenth pass"."""
        if _cjk_word(clauses, members):
            return self.piece_idf
        if not any(clauses[i].reading for i in members):
            return self.idf
        held: set[int] = set()
        for i in members:
            if not clauses[i].reading:
                held.update(self.docs(clauses[i]))
        return _written_idf(self.idf(len(held))) if held else self.idf

    # -- postings ----------------------------------------------------------------
    def postings(self, clause: TermQuery, field_b: Mapping[str, float] | None = None) -> Postings:
        """The clause's live postings with their weighted, normalised frequencies
        (cached); ``field_b``: a field's length normalisation for this query, in place
        of the scorer's (:meth:`top`)."""
        B = (field_b or {}).get(clause.field, self.field_B.get(clause.field, self.B))
        key = (clause.field, clause.text, 1.0 if clause.alone else clause.boost, B)
        found = self._postings.get(key)
        if found is not None:
            self._postings.move_to_end(key)
            return found
        found = self._read(clause, B)
        self._postings[key] = found
        self._cached += len(found.docs)
        while self._cached > MAX_CACHED_POSTINGS and len(self._postings) > 1:
            _, dropped = self._postings.popitem(last=False)
            self._cached -= len(dropped.docs)
        return found

    def docs(self, clause: TermQuery) -> array[int]:
        """The clause's live global document numbers, ascending: its :meth:`postings`'
        documents, whatever the boost and length normalisation, read without making
        their weights (a query word's document frequency needs no more; cached, shared
        with the postings read since)."""
        key = (clause.field, clause.text)
        found = self._docs.get(key)
        if found is not None:
            self._docs.move_to_end(key)
            return found
        found = array("i")
        for leaf, offset, deleted, segid in self._leaves:
            ids: Sequence[int] = self.segments.postings(segid, leaf, clause.field, clause.text)[0]
            if deleted:  # one pass: the live ones, moved by the offset (0 moves none)
                found.extend([d + offset for d in ids if d not in deleted])
            else:
                found.extend([d + offset for d in ids] if offset else ids)
        self._keep_docs(key, found)
        return found

    def _keep_docs(self, key: tuple[str, str], docs: array[int]) -> None:
        self._docs[key] = docs
        self._docs_held += len(docs)
        while self._docs_held > MAX_CACHED_POSTINGS and len(self._docs) > 1:
            self._docs_held -= len(self._docs.popitem(last=False)[1])

    def _read(self, clause: TermQuery, B: float) -> Postings:
        field, text = clause.field, clause.text
        per_leaf: list[tuple[int, Sequence[int], Sequence[float], Lengths, str]] = []
        for leaf, offset, deleted, segid in self._leaves:
            ids, tfs = _live(*self.segments.postings(segid, leaf, field, text), deleted)
            if ids:
                lengths = self.segments.lengths(segid, leaf, field)
                per_leaf.append((offset, ids, tfs, lengths, segid))
        known = self._docs.get((field, text))  # the same documents, read before
        docs: array[int] = array("i") if known is None else known
        weights: array[float] = array("d")
        if not per_leaf:
            return Postings(docs, weights)
        avgfl, w = self.avg_field_length(field), 1.0 if clause.alone else clause.boost
        for offset, ids, tfs, (codes, table), segid in per_leaf:
            norms = self.segments.divisors(segid, field, B, avgfl, table)
            weights.extend([(w * tf) / norms[codes[d]] for d, tf in zip(ids, tfs, strict=True)])
            if known is None:
                docs.extend([d + offset for d in ids] if offset else ids)
        if known is None:
            self._keep_docs((field, text), docs)
        return Postings(docs, weights)

    # -- filters -----------------------------------------------------------------
    def docs_with(self, field: str, value: str, values: Collection[str] = ()) -> frozenset[int]:
        """Live global document numbers holding ``value`` in the ID field ``field``.

        ``values``: every value the field holds (``value`` among them), when each
        document holds one. In a segment whose documents all hold one of them (their
        postings' counts, read from the term table, add up to its documents) and where
        ``value`` is the most common, its documents are found as the others' complement
        (a notes search of a vault with a code map: 709 code files decoded instead of
        6,400 notes); the same set either way."""
        key = (field, value)
        found = self._docsets.get(key)
        if found is None:
            docs: set[int] = set()
            for leaf, offset, deleted, segid in self._leaves:
                others = _others_if_fewer(leaf, field, value, values)
                if others is None:
                    ids = _live(*self.segments.postings(segid, leaf, field, value), deleted)[0]
                    docs.update([d + offset for d in ids])
                    continue
                mine = set(range(offset, offset + int(leaf.doc_count_all())))
                mine.difference_update([d + offset for d in deleted])
                for other in others:
                    ids = self.segments.postings(segid, leaf, field, other)[0]
                    mine.difference_update([d + offset for d in ids] if offset else ids)
                docs.update(mine)
            found = frozenset(docs)
            self._docsets[key] = found
        return found

    def stored(self, docnum: int) -> dict[str, Any]:
        """A document's stored fields but :data:`UNKEPT_STORED` (cached; the caller
        must not change the dict)."""
        leaf, offset, _, segid = self._leaves[bisect_right(self._offsets, docnum) - 1]
        return self.segments.stored(segid, leaf, docnum - offset)

    # -- queries -----------------------------------------------------------------
    def top(
        self,
        clauses: Sequence[TermQuery],
        limit: int,
        *,
        allow: frozenset[int] | None = None,
        mask: frozenset[int] = frozenset(),
        k1: float | None = None,
        field_b: Mapping[str, float] | None = None,
    ) -> list[ScoredDoc]:
        """The ``limit`` best documents for the query of ``clauses``: highest score
        first, the lower document number first on a tie (Whoosh's choice).

        Args:
            clauses: the terms, grouped into words by their ``word``; a word's
                frequencies are added in the clauses' order.
            limit: hits at most (≥ 1).
            allow: only these documents, or all.
            mask: never these documents.
            k1: the saturation of this query (None: the scorer's ``K1``); the
                postings hold none of it, so one cache serves every ``k1``.
            field_b: the length normalisation of these fields for this query (the
                others: the scorer's); the postings are cached by it.
        """
        docs = [self.docs(c) for c in clauses]  # the postings' documents, shared
        members: dict[int, list[int]] = {}
        for i, c in enumerate(clauses):
            members.setdefault(c.word, []).append(i)
        words = [tuple(m) for m in members.values()]
        scales = [(c.boost if c.alone else 1.0) * c.weight for c in (clauses[m[0]] for m in words)]
        idfs = [self._idf_of(clauses, m) for m in words]
        k1 = self.K1 if k1 is None else k1
        np = loaded_numpy()
        if np is not None and allow is None and sum(map(len, docs)) >= NUMPY_POSTINGS:
            lists = [self.postings(c, field_b) for c in clauses]
            ranked = best_numpy(np, lists, words, scales, idfs, k1, limit, mask)
        elif (
            pruned := pruned_top(
                self, clauses, docs, words, scales, idfs, k1, limit, allow, mask, field_b
            )
        ) is not None:
            ranked = pruned
        else:
            lists = [self.postings(c, field_b) for c in clauses]
            ranked = best_allowed(word_sums(lists, words, scales, idfs, k1), allow, mask, limit)
        top = {d for _, d in ranked}
        holding: dict[int, list[int]] = {d: [] for d in top}
        for i, held in enumerate(docs):
            if not held:
                continue
            if len(held) <= 16 * len(top):  # short list: one pass in C
                found: Iterable[int] = top.intersection(held)
            else:  # long list: look each hit up
                found = [d for d in top if _holds(held, d)]
            for d in found:
                holding[d].append(i)
        return [ScoredDoc(d, -neg, tuple(sorted(holding[d]))) for neg, d in ranked]


def _written_idf(value: float) -> Callable[[int], float]:
    return lambda _df: value


def _cjk_word(clauses: Sequence[TermQuery], members: Sequence[int]) -> bool:
    """Whether every clause of a word is a CJK piece: a bigram (or a lone character)
    of Han, kana or Hangul, as :class:`rubi.index.analysis.CJKBigramFilter` cuts them."""
    return all(_is_cjk_piece(clauses[i].text) for i in members)


def _is_cjk_piece(text: str) -> bool:
    return (
        not text.isascii()
        and len(text) <= 2
        and all(
            "\u3040" <= ch <= "\u30ff"
            or "\u3400" <= ch <= "\u4dbf"
            or "\u4e00" <= ch <= "\u9fff"
            or "\uf900" <= ch <= "\ufaff"
            or "\uac00" <= ch <= "\ud7af"
            for ch in text
        )
    )


def _holds(docs: Sequence[int], docnum: int) -> bool:
    at = bisect_left(docs, docnum)
    return at < len(docs) and docs[at] == docnum


def _others_if_fewer(
    leaf: Any, field: str, value: str, values: Collection[str]
) -> list[str] | None:
    """The values of ``values`` but ``value`` when every document of the segment
    ``leaf`` holds one of ``values`` in ``field`` (their documents, deleted ones
    included, add up to the segment's: one value a document) and together they hold
    fewer documents than ``value``; else None (``value``'s own postings are read)."""
    if value not in values:
        return None
    try:
        counts = {v: int(leaf.doc_frequency(field, v)) for v in values}
        whole = int(leaf.doc_count_all())
    except Exception:  # whoosh raises many kinds for a field it lacks
        return None
    others = [v for v in values if v != value]
    if sum(counts.values()) != whole or sum(counts[v] for v in others) >= counts[value]:
        return None
    return others


def _union_size(lists: Sequence[array[int]]) -> int:
    """Distinct document numbers in ``lists`` (each ascending, without repeats): a
    word's document frequency over its clauses. One list is its length; with numpy
    loaded, many postings are counted by ``bincount`` (exact: integers)."""
    held = [docs for docs in lists if docs]
    if len(held) <= 1:
        return len(held[0]) if held else 0
    np = loaded_numpy()
    if np is None or sum(len(docs) for docs in held) < NUMPY_POSTINGS:
        return len(set().union(*held))
    joined = np.concatenate([np.frombuffer(docs, dtype=np.intc) for docs in held])
    return int(np.count_nonzero(np.bincount(joined)))


def _live(
    ids: Sequence[int], weights: Sequence[float], deleted: frozenset[int]
) -> tuple[Sequence[int], Sequence[float]]:
    """The postings of the documents not in ``deleted``."""
    if not deleted or not ids:
        return ids, weights
    if len(deleted) < len(ids) // 8:  # few deleted: look each up in the sorted ids
        if not any(_holds(ids, d) for d in deleted):
            return ids, weights
    elif deleted.isdisjoint(ids):
        return ids, weights
    if len(ids) != len(weights):
        raise ValueError("a posting list whose documents and weights differ in number")
    live = [d not in deleted for d in ids]  # one Python pass; the two copies in C
    return list(compress(ids, live)), list(compress(weights, live))
