"""The vectors of one vault in memory, ranked by cosine similarity to a query.

A document's score is the mean of two cosines: the query against the whole document
(the mean of all its tokens) and against its best passage (a heading section), so a
note whose one section answers the question ranks beside a note that is about it
throughout (``docs/semantic.md`` has the figures behind the mix).

One :class:`DenseIndex` per vault and process (:func:`dense_index_for`), caught up
with the vectors file whenever it changed (new and changed rows only).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["DOC_WEIGHT", "DenseIndex", "DenseMatch", "dense_index_for"]

DOC_WEIGHT = 0.5
"""Weight of the whole-document cosine; the best passage's gets the rest."""
PASSAGE_CANDIDATES = 400
"""Notes (by whole-document cosine) whose passages are scored; the others count their
whole cosine twice. Bounds the work of a search in a big vault (6,000 notes hold about
30,000 passages)."""

_INDEXES: dict[Path, DenseIndex] = {}
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


class DenseIndex:
    """The vectors file at ``path`` as matrices (thread-safe; see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._signature: tuple[int, int, int] | None = None
        self._rows: dict[str, tuple[int, tuple[str, ...], Any]] = {}  # id → gen, heads, vecs
        self._ids: list[str] = []
        self._heads: list[tuple[str, ...]] = []
        self._docs: Any = None  # float32 (N, dims)
        self._passages: Any = None  # float32 (M, dims)
        self._starts: Any = None  # int64 (N,): each document's first passage row

    def __len__(self) -> int:
        return len(self._ids)

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
            self._rows = {}
        else:
            try:
                dims = int(store.meta("dims") or 0)
                gens = store.gens()
                for gone in [i for i in self._rows if i not in gens]:
                    del self._rows[gone]
                stale = [i for i, g in gens.items() if self._rows.get(i, (None,))[0] != g]
                for row in store.rows(stale if len(stale) < len(gens) else None):
                    vecs = np.frombuffer(row.vecs, dtype=np.float16).reshape(-1, dims)
                    self._rows[row.id] = (row.gen, row.headings, vecs.astype(np.float32))
            finally:
                store.close()
        self._build()

    def _build(self) -> None:
        import numpy as np

        ids = sorted(self._rows)
        self._ids = ids
        self._heads = [self._rows[i][1] for i in ids]
        if not ids:
            self._docs = self._passages = self._starts = None
            return
        mats = [self._rows[i][2] for i in ids]
        self._docs = np.ascontiguousarray(np.vstack([m[:1] for m in mats]))
        self._passages = np.ascontiguousarray(np.vstack([m[1:] for m in mats]))
        sizes = np.array([m.shape[0] - 1 for m in mats], dtype=np.int64)
        self._starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)

    def rank(self, query: Any, eligible: Callable[[str], bool], limit: int) -> list[DenseMatch]:
        """The ``limit`` eligible documents closest to ``query`` (a unit vector of the
        model's dims), best first; [] for a zero vector or an empty index."""
        import numpy as np

        with self._lock:
            docs, passages, starts = self._docs, self._passages, self._starts
            ids, heads = self._ids, self._heads
        if docs is None or not np.any(query):
            return []
        whole = _dot(docs, query)
        best = whole.copy()  # a note whose passages are not scored: its whole cosine
        cands = _candidates(whole)
        sizes = np.array([len(heads[i]) for i in cands], dtype=np.int64)
        rows = np.concatenate(
            [np.arange(starts[i], starts[i] + n) for i, n in zip(cands, sizes, strict=True)]
        )
        per_passage = _dot(passages[rows], query)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        best[cands] = np.maximum.reduceat(per_passage, offsets)
        scores = DOC_WEIGHT * whole + (1.0 - DOC_WEIGHT) * best
        where = dict(zip((int(i) for i in cands), (int(o) for o in offsets), strict=True))
        found: list[DenseMatch] = []
        for i in _best_first(scores, limit):
            doc_id = ids[i]
            if not eligible(doc_id):
                continue
            heading = ""
            if i in where:
                o, n = where[i], len(heads[i])
                heading = heads[i][int(np.argmax(per_passage[o : o + n]))]
            found.append(DenseMatch(doc_id, float(scores[i]), heading))
            if len(found) >= limit:
                break
        return found


def _best_first(scores: Any, limit: int) -> Iterator[int]:
    """Indexes of ``scores`` best first: the top ``4 × limit`` by a partial sort (the
    eligible ones are nearly always among them), then the rest."""
    import numpy as np

    head = 4 * limit
    if len(scores) <= head:
        yield from (int(i) for i in np.argsort(-scores, kind="stable"))
        return
    top = np.argpartition(-scores, head)[:head]
    top = top[np.argsort(-scores[top], kind="stable")]
    yield from (int(i) for i in top)
    rest = np.setdiff1d(np.arange(len(scores)), top, assume_unique=True)
    yield from (int(i) for i in rest[np.argsort(-scores[rest], kind="stable")])


def _dot(rows: Any, vector: Any) -> Any:
    """``rows @ vector`` without BLAS: OpenBLAS's threads spin on a busy machine and
    made a 6,000 × 256 product cost 4–8 ms of CPU instead of 0.3–0.5 ms."""
    import numpy as np

    return np.einsum("ij,j->i", rows, vector)


def _candidates(whole: Any) -> Any:
    """Indexes of the :data:`PASSAGE_CANDIDATES` best whole-document cosines."""
    import numpy as np

    if len(whole) <= PASSAGE_CANDIDATES:
        return np.arange(len(whole))
    return np.sort(np.argpartition(-whole, PASSAGE_CANDIDATES)[:PASSAGE_CANDIDATES])


def dense_index_for(index_dir: Path) -> DenseIndex | None:
    """This process's :class:`DenseIndex` of the vault whose derived data is in
    ``index_dir``, caught up; None when the channel is off or nothing is embedded."""
    from rubi import semantic
    from rubi.semantic.sync import vectors_file

    if not semantic.enabled():
        return None
    path = vectors_file(index_dir)
    if not path.exists():
        return None
    with _INDEXES_LOCK:
        index = _INDEXES.setdefault(path, DenseIndex(path))
    index.refresh()
    return index if len(index) else None


def query_vector(query: str, terms: Sequence[str]) -> Any:
    """The unit vector of a query and its terms (float32, the model's dims)."""
    from rubi.semantic.encoder import load_encoder

    text = " ".join([query, *terms])
    return load_encoder().encode([text])[0]
