"""The cached vectors of one vault: SQLite beside the index, in the user cache.

Table ``docs``: one row per index document (note or code file) — its kind, the
digest of its passages (:func:`rubi.semantic.passages.passages_digest`), the headings
of its passages (JSON), the ``gen`` of the write, and ``vecs``: float16 bytes of
``(1 + passages) × dims`` (row 0 the whole document, then one row per passage).
Table ``meta``: the model id and dims, ``gen``, a counter bumped by every write, and
``base``, the gen of the last write that emptied the file (a new model, a full run).
Table ``gone``: ids removed, with the gen that removed them, so a reader catches up
with the rows after its gen instead of reading every row.

Plain numbers and text only (nothing is unpickled); the file is opened after
:func:`rubi.core.picklefiles.check_trusted` all the same, like every derived file. One
writer at a time (the sync run holds the index lock); a reader sees the last commit.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rubi.core.picklefiles import check_trusted

__all__ = ["VECTORS_FORMAT", "VectorRow", "VectorStore", "open_vectors"]

VECTORS_FORMAT = 2
"""Bump when the tables change shape; an older file is emptied."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, digest TEXT NOT NULL,
    headings TEXT NOT NULL, gen INTEGER NOT NULL, vecs BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS docs_gen ON docs (gen);
CREATE TABLE IF NOT EXISTS gone (id TEXT PRIMARY KEY, gen INTEGER NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class VectorRow:
    """One document's vectors as stored.

    Attributes:
        id: the index document id.
        kind: ``note`` or ``file``.
        headings: one per passage ("" where the passage has none).
        gen: the write that stored it.
        vecs: float16 bytes, ``(1 + len(headings)) × dims``.
    """

    id: str
    kind: str
    headings: tuple[str, ...]
    gen: int
    vecs: bytes


class VectorStore:
    """An open vectors file (see the module docstring). Use :func:`open_vectors`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def close(self) -> None:
        self._conn.close()

    def meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def gen(self) -> int:
        """The write counter (0 when nothing was written)."""
        return int(self.meta("gen") or 0)

    def digests(self) -> dict[str, str]:
        """id → digest of every stored document."""
        return dict(self._conn.execute("SELECT id, digest FROM docs"))

    def digest(self, doc_id: str) -> str | None:
        """The digest stored for ``doc_id``, or None."""
        row = self._conn.execute("SELECT digest FROM docs WHERE id = ?", (doc_id,)).fetchone()
        return str(row[0]) if row else None

    def changes_since(self, gen: int) -> tuple[list[VectorRow], list[str]]:
        """Rows written and ids removed by writes after ``gen``."""
        rows = [
            VectorRow(doc_id, kind, tuple(json.loads(heads)), int(g), bytes(vecs))
            for doc_id, kind, heads, g, vecs in self._conn.execute(
                "SELECT id, kind, headings, gen, vecs FROM docs WHERE gen > ?", (gen,)
            )
        ]
        written = {r.id for r in rows}
        removed = [
            i
            for (i,) in self._conn.execute("SELECT id FROM gone WHERE gen > ?", (gen,))
            if i not in written
        ]
        return rows, removed

    def documents(self, dims: int) -> list[tuple[str, str, int, bytes, int]]:
        """Every stored document without its passages: ``(id, headings as stored
        (JSON), gen, its whole-document vector (the first ``2 × dims`` bytes of
        ``vecs``), the length of ``vecs`` in bytes)``. What a process that searches
        once needs of the file (the passages of its candidates it reads with
        :meth:`vectors_of`)."""
        return [
            (str(doc_id), str(heads), int(g), bytes(head), int(size))
            for doc_id, heads, g, head, size in self._conn.execute(
                # the rows in the order of changes_since(-1)'s (the same plan)
                "SELECT id, headings, gen, substr(vecs, 1, ?), length(vecs) FROM docs "
                "WHERE gen > ?",
                (2 * dims, -1),
            )
        ]

    def vectors_of(self, ids: Iterable[str]) -> dict[str, tuple[int, bytes]]:
        """id → (gen, vecs) of the stored documents among ``ids``."""
        out: dict[str, tuple[int, bytes]] = {}
        wanted = list(ids)
        for at in range(0, len(wanted), 500):  # SQLite's bound-parameter limit
            chunk = wanted[at : at + 500]
            marks = ",".join("?" * len(chunk))
            for doc_id, g, vecs in self._conn.execute(
                f"SELECT id, gen, vecs FROM docs WHERE id IN ({marks})", chunk
            ):
                out[str(doc_id)] = (int(g), bytes(vecs))
        return out

    def gens(self) -> dict[str, int]:
        """id → gen of every stored document (what a reader compares to catch up)."""
        return {k: int(v) for k, v in self._conn.execute("SELECT id, gen FROM docs")}

    def rows(self, ids: Iterable[str] | None = None) -> Iterator[VectorRow]:
        """The rows of ``ids`` (every row when None)."""
        sql = "SELECT id, kind, headings, gen, vecs FROM docs"
        if ids is None:
            cursor = self._conn.execute(sql)
        else:
            wanted = list(ids)
            self._conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (id TEXT PRIMARY KEY)")
            self._conn.execute("DELETE FROM wanted")
            self._conn.executemany(
                "INSERT OR IGNORE INTO wanted VALUES (?)", ((i,) for i in wanted)
            )
            cursor = self._conn.execute(sql + " WHERE id IN (SELECT id FROM wanted)")
        for doc_id, kind, headings, gen, vecs in cursor:
            yield VectorRow(doc_id, kind, tuple(json.loads(headings)), int(gen), bytes(vecs))

    def write(
        self,
        rows: Iterable[tuple[str, str, str, list[str], bytes]],
        removed: Iterable[str],
        *,
        model_id: str,
        dims: int,
        keep_only: set[str] | None = None,
    ) -> int:
        """Store ``rows`` ``(id, kind, digest, headings, vecs)`` and drop ``removed``
        (and, when ``keep_only`` is given, every id not in it) in one transaction.

        A different model id or dims empties the file first.

        Returns:
            The new gen.
        """
        with self._conn:
            gen = self.gen() + 1
            emptied = self.meta("model") != model_id or self.meta("dims") != str(dims)
            if emptied:
                self._conn.execute("DELETE FROM docs")
                self._conn.execute("DELETE FROM gone")
            self._conn.executemany(
                "INSERT OR REPLACE INTO docs VALUES (?, ?, ?, ?, ?, ?)",
                (
                    (doc_id, kind, digest, json.dumps(heads), gen, vecs)
                    for doc_id, kind, digest, heads, vecs in rows
                ),
            )
            dropped = list(removed)
            if keep_only is not None:
                dropped += [
                    i for (i,) in self._conn.execute("SELECT id FROM docs") if i not in keep_only
                ]
            self._conn.executemany("DELETE FROM docs WHERE id = ?", ((i,) for i in dropped))
            self._conn.executemany(
                "INSERT OR REPLACE INTO gone VALUES (?, ?)", ((i, gen) for i in dropped)
            )
            if emptied:
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('base', ?)", (str(gen),))
            for key, value in (("model", model_id), ("dims", str(dims)), ("gen", str(gen))):
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        return gen


def open_vectors(path: Path, *, create: bool) -> VectorStore | None:
    """Open the vectors file at ``path``; None when it does not exist and ``create`` is
    false. A file of another :data:`VECTORS_FORMAT` is emptied.

    Raises:
        UntrustedCacheError: the file is outside the user cache or not the user's own.
        sqlite3.Error: the file is not a readable database.
    """
    if not path.exists():
        if not create:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
    check_trusted(path)
    conn = sqlite3.connect(str(path), timeout=30.0)
    try:
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is None or row[0] != str(VECTORS_FORMAT):
            with conn:
                conn.execute("DELETE FROM docs")
                conn.execute("DELETE FROM meta")
                conn.execute("INSERT INTO meta VALUES ('format', ?)", (str(VECTORS_FORMAT),))
    except sqlite3.Error:
        conn.close()
        raise
    return VectorStore(conn)
