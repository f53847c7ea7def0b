"""The vectors of one vault in memory, ranked by cosine similarity to a query.

A document's score is the mean of two cosines: the query against the whole document
(the mean of all its tokens) and against its best passage (a heading section), so a
note whose one section answers the question ranks beside a note that is about it
throughout (``docs/semantic.md`` has the figures behind the mix).

One :class:`DenseIndex` per vault and process (:func:`dense_index_for`), caught up
with the vectors file whenever it changed (new and changed rows only).
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.semantic import demand
from rubi.semantic.arith import best_first, candidates, dot
from rubi.semantic.arith import median as cosine_median
from rubi.semantic.demand import load_on_demand, staying, staying_on_demand

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.semantic.vectors import VectorRow, VectorStore

__all__ = [
    "DOC_WEIGHT",
    "DenseIndex",
    "DenseMatch",
    "DenseRanking",
    "dense_index_for",
    "load_on_demand",
    "staying_on_demand",
]

DOC_WEIGHT = 0.5
"""Weight of the whole-document cosine; the best passage's gets the rest."""
log = get_logger(__name__)

_INDEXES: dict[Path, DenseIndex] = {}
"""Each vectors file's matrices in this process, by the file's path. Never stale:
:func:`dense_index_for` has the entry catch up with the file (its stamp) on every
lookup. Not bounded: one entry per vault a process searches (two, usually)."""
_INDEXES_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class DenseMatch:
    """One document close to the query.

    Attributes:
        id: the index document id.
        score: the mixed cosine (−1 to 1).
        heading: the heading of its best passage ("" when that is the text before the
            first heading, or a code file).
    """

    id: str
    score: float
    heading: str


@dataclass(frozen=True, slots=True)
class DenseRanking:
    """What :meth:`DenseIndex.ranked` found.

    Attributes:
        matches: the eligible documents closest to the query, best first.
        median: the median score of every document in the index, eligible or not
            (the background a match stands out from; 0.0 when nothing was scored).
    """

    matches: list[DenseMatch]
    median: float


class DenseIndex:
    """The vectors file at ``path`` as matrices (thread-safe; see the module docstring).

    Each document has a slot: a row of the document matrix and a run of rows in the
    passage matrix. Catching up with a write touches the slots of the documents it
    wrote or removed (a changed document's passages go to the end of the passage
    matrix, its old run is left dead); both matrices grow by doubling and are packed
    again once half of either is dead. A save therefore costs the work of its notes,
    not a rebuild of the vault's matrices. Passages are loaded in float16, as stored,
    and a search converts its candidates' rows: a process that searches once (a cold
    hook) never converts the rest. The second search converts the whole matrix to
    float32 once (a resident process: its candidates' rows are then taken as they are,
    1.5 ms less per search at 6,400 notes). Every conversion is exact.
    """

    def __init__(self, path: Path, on_demand: bool | None = None) -> None:
        """``on_demand``: passages read for the first search only (see
        :func:`load_on_demand`, whose setting is the default)."""
        self.path = path
        self._on_demand = demand.on_demand() if on_demand is None else on_demand
        self._lazy = False  # documents only: passages read per search from the file
        self._raw_heads: dict[int, str] = {}  # lazy: a candidate's headings as stored
        self._doc_gens: Any = None  # lazy: int64 (n,), the gen of each document's row
        self._lock = threading.Lock()
        self._signature: tuple[int, int, int] | None = None
        self._gen = -1
        self._base = -1
        self._dims = 0
        self._slot: dict[str, int] = {}
        self._ids: list[str | None] = []
        self._heads: list[tuple[str, ...]] = []
        self._docs: Any = None  # float32 (capacity, dims)
        self._alive: Any = None  # bool (capacity,)
        self._pstart: Any = None  # int64 (capacity,): the slot's first passage row
        self._psize: Any = None  # int64 (capacity,)
        self._passages: Any = None  # float16, float32 after a second search (capacity, dims)
        self._searched = False
        self._pused = 0
        self._pdead = 0

    def __len__(self) -> int:
        return len(self._slot)

    def refresh(self) -> None:
        """Catch up with the vectors file when it changed since the last look.

        Raises:
            sqlite3.Error, UntrustedCacheError: the file cannot be read.
        """
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            st = None
        signature = (st.st_mtime_ns, st.st_size, st.st_ino) if st else (0, 0, 0)
        with self._lock:
            if signature == self._signature:
                return
            self._load_changes()
            self._signature = signature

    def _load_changes(self) -> None:
        import numpy as np

        from rubi.semantic.vectors import open_vectors

        store = open_vectors(self.path, create=False)
        if store is None:
            self._reset(0)
            return
        try:
            dims = int(store.meta("dims") or 0)
            base, gen = int(store.meta("base") or 0), store.gen()
            if gen == self._gen:
                return
            if dims != self._dims or base > self._gen or self._docs is None or self._lazy:
                self._reset(dims)
                since = -1
            else:
                since = self._gen
            if since < 0 and self._on_demand and (not self._searched or staying()):
                loaded = self._documents(store, gen)
                if loaded is not None:
                    self._gen, self._base = loaded, base
                    return
            rows, removed = store.changes_since(since)
        finally:
            store.close()
        for doc_id in removed:
            self._remove(doc_id)
        if since >= 0 or not self._fill(rows, dims):
            for row in rows:
                vecs = np.frombuffer(row.vecs, dtype=np.float16).reshape(-1, dims)
                self._put(row.id, row.headings, vecs.astype(np.float32))
        self._gen, self._base = gen, base
        if self._pdead * 2 > max(self._pused, 1) or len(self._slot) * 2 < len(self._ids):
            self._pack()

    def _fill(self, rows: Sequence[VectorRow], dims: int) -> bool:
        """Load ``rows`` into the empty index just :meth:`_reset` at once, with the
        slots, ids and vectors :meth:`_put` would give them row by row. The file's
        float16 bytes are copied once into the passage matrix, where each document's
        whole-document row stays, unused, before its passages (not counted dead: the
        waste is half the document matrix's size); only the document rows are
        converted to float32. A cold process (the recall hook) paid for three copies
        of every vector, two of them float32. False, with nothing
        changed, when a row is not one or more whole vectors or an id repeats: the
        row-by-row path then reports it as it always did."""
        import numpy as np

        if dims <= 0 or not rows or len({row.id for row in rows}) != len(rows):
            return False
        width = 2 * dims  # bytes of one float16 vector
        sizes = [len(row.vecs) // width for row in rows]
        if any(n < 1 or len(row.vecs) != n * width for row, n in zip(rows, sizes, strict=True)):
            return False
        counts = np.array(sizes, dtype=np.int64)
        first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        every = np.empty((int(counts.sum()), dims), dtype=np.float16)
        view = every.data.cast("B")
        at = 0
        for row in rows:
            view[at : at + len(row.vecs)] = row.vecs
            at += len(row.vecs)
        self._docs = every[first].astype(np.float32)
        self._passages = every
        self._pstart, self._psize = first + 1, counts - 1
        self._alive = np.ones(len(rows), dtype=bool)
        self._ids = [row.id for row in rows]
        self._slot = {row.id: i for i, row in enumerate(rows)}
        self._heads = [row.headings for row in rows]
        self._pused, self._pdead = len(every), 0
        return True

    def _documents(self, store: VectorStore, gen: int) -> int | None:
        """Load the whole-document rows of ``store`` (at ``gen`` when read) into the
        empty index just :meth:`_reset`, in the order and with the values :meth:`_fill`
        gives them, and no passage (:meth:`_candidate_passages` reads a search's).

        The rows come from the flat documents file when it is current, else from the
        SQLite rows (:func:`rubi.semantic.docmatrix.document_rows`).

        Returns:
            The gen loaded; None, with nothing changed, when a row is not one whole
            vector or an id repeats (the full load then reports it).
        """
        import numpy as np

        from rubi.semantic.docmatrix import document_rows

        dims = self._dims
        found = document_rows(store, self.path, gen, dims)
        if found is None:
            return None
        loaded, rows = found
        n = len(rows.ids)
        if not n:
            return None
        self._docs = rows.docs.astype(np.float32)
        self._psize = rows.passages.astype(np.int64)
        self._pstart = np.zeros(n, dtype=np.int64)
        self._alive = np.ones(n, dtype=bool)
        self._ids = list(rows.ids)
        self._slot = {doc_id: i for i, doc_id in enumerate(rows.ids)}
        if len(self._slot) != n:
            self._reset(dims)
            return None
        self._raw_heads = {}
        self._doc_gens = rows.gens
        self._lazy = True
        return loaded

    def _candidate_passages(self, cands: Any) -> Any:
        """The passage rows of the documents ``cands`` (slots), one after another, as
        float16 ``(rows, dims)``, read from the file; None when the file no longer
        holds a candidate as it was loaded (rewritten or removed since)."""
        import sqlite3

        import numpy as np

        from rubi.core.picklefiles import UntrustedCacheError
        from rubi.semantic.vectors import open_vectors

        slots = cands.tolist()
        ids = [self._ids[c] for c in slots]
        try:
            store = open_vectors(self.path, create=False)
            if store is None:
                return None
            try:
                got = store.vectors_of(i for i in ids if i is not None)
            finally:
                store.close()
        except (OSError, sqlite3.Error, UntrustedCacheError):
            return None
        width = 2 * self._dims
        parts: list[bytes] = []
        for slot, doc_id in zip(slots, ids, strict=True):
            row = got.get(doc_id) if doc_id is not None else None
            expected = int(self._psize[slot]) * width
            if row is None or row[0] != int(self._doc_gens[slot]) or len(row[2]) != expected:
                return None
            self._raw_heads[slot] = row[1]
            parts.append(row[2])
        return np.frombuffer(b"".join(parts), dtype=np.float16).reshape(-1, self._dims)

    def _load_all(self) -> None:
        """Drop what is loaded and load the whole file (passages too); an unreadable
        file leaves the index empty (the channel fails open, as in
        :func:`dense_index_for`)."""
        import sqlite3

        from rubi.core.picklefiles import UntrustedCacheError

        self._reset(self._dims)
        try:
            self._load_changes()
        except (OSError, ValueError, sqlite3.Error, UntrustedCacheError) as exc:
            log.warning("semantic channel skipped: %s", exc)
            self._reset(self._dims)

    def _heading(self, slot: int, passage: int) -> str:
        if self._lazy:
            return str(json.loads(self._raw_heads[slot])[passage])
        return self._heads[slot][passage]

    def _reset(self, dims: int) -> None:
        import numpy as np

        self._lazy = False
        self._raw_heads, self._doc_gens = {}, None
        self._dims = dims
        self._slot, self._ids, self._heads = {}, [], []
        self._docs = np.zeros((16, max(dims, 1)), dtype=np.float32)
        self._alive = np.zeros(16, dtype=bool)
        self._pstart = np.zeros(16, dtype=np.int64)
        self._psize = np.zeros(16, dtype=np.int64)
        self._passages = np.zeros((64, max(dims, 1)), dtype=np.float16)
        self._pused = self._pdead = 0
        self._gen = -1

    def _put(self, doc_id: str, heads: tuple[str, ...], vecs: Any) -> None:
        import numpy as np

        slot = self._slot.get(doc_id)
        if slot is None:
            slot = len(self._ids)
            if slot == len(self._alive):  # grow by doubling
                grow = len(self._alive)
                self._docs = np.concatenate([self._docs, np.zeros_like(self._docs)])
                self._alive = np.concatenate([self._alive, np.zeros(grow, dtype=bool)])
                self._pstart = np.concatenate([self._pstart, np.zeros(grow, dtype=np.int64)])
                self._psize = np.concatenate([self._psize, np.zeros(grow, dtype=np.int64)])
            self._slot[doc_id] = slot
            self._ids.append(doc_id)
            self._heads.append(heads)
        else:
            self._pdead += int(self._psize[slot])
            self._heads[slot] = heads
        passages = vecs[1:]
        need = self._pused + len(passages)
        if need > len(self._passages):
            size = max(need, 2 * len(self._passages))
            grown = np.zeros((size, self._passages.shape[1]), dtype=self._passages.dtype)
            grown[: self._pused] = self._passages[: self._pused]
            self._passages = grown
        self._passages[self._pused : need] = passages
        self._docs[slot] = vecs[0]
        self._pstart[slot], self._psize[slot] = self._pused, len(passages)
        self._alive[slot] = True
        self._pused = need

    def _remove(self, doc_id: str) -> None:
        slot = self._slot.pop(doc_id, None)
        if slot is None:
            return
        self._alive[slot] = False
        self._pdead += int(self._psize[slot])
        self._psize[slot] = 0
        self._ids[slot] = None

    def _pack(self) -> None:
        """Rebuild the matrices from the live slots only."""
        import numpy as np

        live = [(i, s) for i, s in self._slot.items()]
        docs = self._docs[[s for _, s in live]] if live else self._docs[:0]
        heads = [self._heads[s] for _, s in live]
        runs = [self._passages[self._pstart[s] : self._pstart[s] + self._psize[s]] for _, s in live]
        gen, base = self._gen, self._base
        self._reset(self._dims)
        for (doc_id, _), head, doc, run in zip(live, heads, docs, runs, strict=True):
            self._put(doc_id, head, np.vstack([doc[None, :], run]))
        self._gen, self._base = gen, base

    def rank(self, query: Any, eligible: Callable[[str], bool], limit: int) -> list[DenseMatch]:
        """The ``limit`` eligible documents closest to ``query`` (a unit vector of the
        model's dims), best first (equal scores in id order); [] for a zero vector or
        an empty index."""
        return self.ranked(query, eligible, limit).matches

    def ranked(self, query: Any, eligible: Callable[[str], bool], limit: int) -> DenseRanking:
        """:meth:`rank`'s matches and the median score of every live document."""
        import numpy as np

        with self._lock:
            if not self._slot or not np.any(query):
                return DenseRanking([], 0.0)
            if self._lazy and self._searched and not staying():
                self._load_all()  # a second search: a resident process keeps it all
                if not self._slot:
                    return DenseRanking([], 0.0)
            return self._ranked(query, eligible, limit)

    def stay(self) -> None:
        """Convert the passages to float32 now, as a second search would: the server's
        warm-up does, so its first client search does not (16 ms at 6,500 notes)."""
        with self._lock:
            if self._searched and not self._lazy and str(self._passages.dtype) != "float32":
                self._passages = self._passages.astype("float32")  # exact, as in _ranked

    def _ranked(self, query: Any, eligible: Callable[[str], bool], limit: int) -> DenseRanking:
        """:meth:`ranked` under the lock, the index not empty."""
        import numpy as np

        found: list[DenseMatch] = []
        if self._searched and not self._lazy and self._passages.dtype != np.float32:
            self._passages = self._passages.astype(np.float32)  # resident: see the class
        self._searched = True
        n = len(self._ids)
        alive = self._alive[:n]
        whole = np.where(alive, dot(self._docs[:n], query), -np.inf)
        best = whole.copy()  # a note whose passages are not scored: its whole cosine
        cands = candidates(whole)
        cands = cands[alive[cands] & (self._psize[cands] > 0)]
        per_passage = np.zeros(0, dtype=np.float32)
        offsets = np.zeros(0, dtype=np.int64)
        if len(cands):
            sizes = self._psize[cands].astype(np.int64)
            offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
            # each candidate's passage rows, one after another (no loop per document)
            if self._lazy:
                block = self._candidate_passages(cands)
                if block is None:  # the file changed since the load: all of it, now
                    self._load_all()
                    if not self._slot:
                        return DenseRanking([], 0.0)
                    return self._ranked(query, eligible, limit)
                per_passage = dot(block.astype(np.float32), query)
            else:
                rows = np.repeat(self._pstart[cands] - offsets, sizes) + np.arange(sizes.sum())
                per_passage = dot(self._passages[rows].astype(np.float32, copy=False), query)
            best[cands] = np.maximum.reduceat(per_passage, offsets)
        scores = DOC_WEIGHT * whole + (1.0 - DOC_WEIGHT) * best
        median = cosine_median(scores[alive])
        first = dict(zip(cands.tolist(), offsets.tolist(), strict=True))  # passage rows
        for i, score in best_first(scores, limit):
            doc_id = self._ids[i]
            if doc_id is None or not math.isfinite(score):
                break  # the dead slots come last
            if not eligible(doc_id):
                continue
            heading = ""
            o = first.get(i)
            if o is not None:  # its passages were scored: the closest one's heading
                run = per_passage[o : o + int(self._psize[i])]
                heading = self._heading(i, int(np.argmax(run)))
            found.append(DenseMatch(doc_id, score, heading))
            if len(found) >= limit:
                break
        found.sort(key=lambda m: (-m.score, m.id))
        return DenseRanking(found, median)


def dense_index_for(
    index_dir: Path, *, on_demand: bool | None = None, make: bool = True
) -> DenseIndex | None:
    """This process's :class:`DenseIndex` of the vault whose derived data is in
    ``index_dir``, caught up; None when the channel is off or nothing is embedded, or,
    ``make`` false, when this process has none yet (then nothing is read).
    ``on_demand`` is given to the index when this call makes it (True: its first search
    reads only what it needs; None: :func:`load_on_demand`'s setting); an index this
    process already has is returned as it is."""
    from rubi import semantic

    if not semantic.enabled():
        return None
    from rubi.semantic.sync import vectors_file

    path = vectors_file(index_dir)
    if not path.exists():
        return None
    with _INDEXES_LOCK:
        index = _INDEXES.get(path)
        if index is None:
            if not make:
                return None
            index = _INDEXES[path] = DenseIndex(path, on_demand=on_demand)
    import sqlite3

    from rubi.core.picklefiles import UntrustedCacheError

    try:
        index.refresh()
    except (OSError, ValueError, sqlite3.Error, UntrustedCacheError) as exc:
        # The channel fails open: a search without it beats no search.
        log.warning("semantic channel skipped: %s", exc)
        return None
    return index if len(index) else None


def query_vector(query: str, terms: Sequence[str]) -> Any:
    """The unit vector of a query and its terms (float32, the model's dims)."""
    from rubi.semantic.encoder import load_encoder

    text = " ".join([query, *terms])
    return load_encoder().encode([text])[0]
