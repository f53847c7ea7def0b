"""The cached vectors of one vault: SQLite beside the index, in the user cache.

Table ``docs``: one row per index document (note or code file) — its kind, the
digest of its passages (:func:`rubi.semantic.passages.passages_digest`), the headings
of its passages (JSON), the ``gen`` of the write, the number of its passages, and
``doc``: the float16 bytes of its whole-document vector (``dims`` values).
Table ``passages``: one row per document too, ``vecs``: float16 bytes of
``passages × dims`` (one row per passage, in the order of the headings). A process
that searches once reads the small ``docs`` rows of every document and the
``passages`` rows of its candidates only (at 6,300 notes 4 MB instead of 25 MB:
format 2 kept both in one blob, and SQLite read the whole blob to take its start).
Table ``meta``: the model id and dims, ``gen``, a counter bumped by every write, and
``base``, the gen of the last write that emptied the file (a new model, a full run).
Table ``gone``: ids removed, with the gen that removed them, so a reader catches up
with the rows after its gen instead of reading every row.

Plain numbers and text only (nothing is unpickled); the file is opened after
:func:`rubi.core.picklefiles.check_trusted` all the same, like every derived file. One
writer at a time (the sync run holds the index lock); a reader sees the last commit.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rubi.core.picklefiles import check_trusted
from rubi.semantic.docmatrix import DocRows

log = logging.getLogger(__name__)

__all__ = ["VECTORS_FORMAT", "VectorRow", "VectorStore", "open_vectors"]

VECTORS_FORMAT = 3
"""Bump when the tables change shape. A format-2 file is converted in place the first
time it is opened (:func:`_migrate`: the same vectors, gens and ids; nothing is
embedded again); a file of any other format is emptied (``rubi index --full`` fills
it)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, digest TEXT NOT NULL,
    headings TEXT NOT NULL, gen INTEGER NOT NULL, passages INTEGER NOT NULL,
    doc BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS docs_gen ON docs (gen);
CREATE TABLE IF NOT EXISTS passages (id TEXT PRIMARY KEY, vecs BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS gone (id TEXT PRIMARY KEY, gen INTEGER NOT NULL);
"""

_TABLES = ("docs", "passages", "gone")

_ROWS = (
    # every column of a document, its vectors whole (docs.doc then passages.vecs); in
    # the order of the documents() scan: by gen, then rowid (the docs_gen index's)
    "SELECT d.id, d.kind, d.headings, d.gen, d.doc, coalesce(p.vecs, x'') "
    "FROM docs AS d LEFT JOIN passages AS p ON p.id = d.id"
)


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
            VectorRow(doc_id, kind, tuple(json.loads(heads)), int(g), bytes(doc) + bytes(rest))
            for doc_id, kind, heads, g, doc, rest in self._conn.execute(
                _ROWS + " WHERE d.gen > ? ORDER BY d.gen, d.rowid", (gen,)
            )
        ]
        written = {r.id for r in rows}
        removed = [
            i
            for (i,) in self._conn.execute("SELECT id FROM gone WHERE gen > ?", (gen,))
            if i not in written
        ]
        return rows, removed

    def documents(self) -> tuple[int, DocRows] | None:
        """Every stored document without its passages, read in one transaction: the
        gen they are of and their :class:`DocRows` (in the order of
        ``changes_since(-1)``). What a process that searches once needs of the file
        (the passages of its candidates it reads with :meth:`vectors_of`); no passage
        vector is read. None when a row's vector is not ``dims`` values or an id
        repeats."""
        import numpy as np

        self._conn.execute("BEGIN")
        try:
            dims, gen = int(self.meta("dims") or 0), self.gen()
            rows = self._conn.execute(
                "SELECT id, gen, passages, doc FROM docs WHERE gen > ? ORDER BY gen, rowid",
                (-1,),
            ).fetchall()
        finally:
            self._conn.commit()
        width = 2 * dims
        if (
            dims <= 0
            or len({r[0] for r in rows}) != len(rows)
            or any(len(r[3]) != width or r[2] < 0 for r in rows)
        ):
            return None
        return gen, DocRows(
            [str(r[0]) for r in rows],
            np.array([r[1] for r in rows], dtype=np.int64),
            np.array([r[2] for r in rows], dtype=np.int32),
            np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float16).reshape(-1, dims),
        )

    def vectors_of(self, ids: Iterable[str]) -> dict[str, tuple[int, str, bytes]]:
        """id → (gen, headings as stored (JSON), passage vectors: float16 bytes,
        ``passages × dims``) of the stored documents among ``ids``."""
        out: dict[str, tuple[int, str, bytes]] = {}
        wanted = list(ids)
        for at in range(0, len(wanted), 500):  # SQLite's bound-parameter limit
            chunk = wanted[at : at + 500]
            marks = ",".join("?" * len(chunk))
            for doc_id, g, heads, vecs in self._conn.execute(
                "SELECT d.id, d.gen, d.headings, coalesce(p.vecs, x'') FROM docs AS d "
                f"LEFT JOIN passages AS p ON p.id = d.id WHERE d.id IN ({marks})",
                chunk,
            ):
                out[str(doc_id)] = (int(g), str(heads), bytes(vecs))
        return out

    def token(self) -> str | None:
        """The file's token (hex): made when the file was made or emptied, so a
        derived file (:mod:`rubi.semantic.docmatrix`) tells this file from one built
        anew at the same gen."""
        return self.meta("token")

    def count(self) -> int:
        """How many documents are stored (counted on the gen index: no row is read)."""
        return int(self._conn.execute("SELECT count(*) FROM docs").fetchone()[0])

    def kinds(self) -> dict[str, str]:
        """id → kind (``note``, ...) of every stored document."""
        return {str(k): str(v) for k, v in self._conn.execute("SELECT id, kind FROM docs")}

    def gens(self) -> dict[str, int]:
        """id → gen of every stored document (what a reader compares to catch up)."""
        return {k: int(v) for k, v in self._conn.execute("SELECT id, gen FROM docs")}

    def rows(self, ids: Iterable[str] | None = None) -> Iterator[VectorRow]:
        """The rows of ``ids`` (every row when None)."""
        if ids is None:
            cursor = self._conn.execute(_ROWS)
        else:
            wanted = list(ids)
            self._conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (id TEXT PRIMARY KEY)")
            self._conn.execute("DELETE FROM wanted")
            self._conn.executemany(
                "INSERT OR IGNORE INTO wanted VALUES (?)", ((i,) for i in wanted)
            )
            cursor = self._conn.execute(_ROWS + " WHERE d.id IN (SELECT id FROM wanted)")
        for doc_id, kind, headings, gen, doc, rest in cursor:
            yield VectorRow(
                doc_id, kind, tuple(json.loads(headings)), int(gen), bytes(doc) + bytes(rest)
            )

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

        Raises:
            ValueError: a row's ``vecs`` is not one or more whole vectors of ``dims``
                float16 values (nothing is written).
        """
        width = 2 * dims  # bytes of one float16 vector
        split = []
        for doc_id, kind, digest, heads, vecs in rows:
            if dims <= 0 or len(vecs) < width or len(vecs) % width:
                raise ValueError(f"vectors of {doc_id!r} are not whole {dims}-value rows")
            n = len(vecs) // width - 1
            split.append((doc_id, kind, digest, json.dumps(heads), n, vecs[:width], vecs[width:]))
        with self._conn:
            gen = self.gen() + 1
            emptied = self.meta("model") != model_id or self.meta("dims") != str(dims)
            if emptied:
                for table in _TABLES:
                    self._conn.execute(f"DELETE FROM {table}")
            self._conn.executemany(
                "INSERT OR REPLACE INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)",
                ((i, k, d, h, gen, n, doc) for i, k, d, h, n, doc, _ in split),
            )
            self._conn.executemany(
                "INSERT OR REPLACE INTO passages VALUES (?, ?)",
                ((i, rest) for i, *_, rest in split),
            )
            dropped = list(removed)
            if keep_only is not None:
                dropped += [
                    i for (i,) in self._conn.execute("SELECT id FROM docs") if i not in keep_only
                ]
            for table in ("docs", "passages"):
                self._conn.executemany(f"DELETE FROM {table} WHERE id = ?", ((i,) for i in dropped))
            self._conn.executemany(
                "INSERT OR REPLACE INTO gone VALUES (?, ?)", ((i, gen) for i in dropped)
            )
            if emptied:
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('base', ?)", (str(gen),))
            for key, value in (("model", model_id), ("dims", str(dims)), ("gen", str(gen))):
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        return gen


def open_vectors(path: Path, *, create: bool, replace_damaged: bool = False) -> VectorStore | None:
    """Open the vectors file at ``path``; None when it does not exist and ``create`` is
    false. A format-2 file is converted in place once (:func:`_migrate`); a file of
    another :data:`VECTORS_FORMAT` is emptied.

    Args:
        path: the file (``semantic.sqlite`` in a vault's index folder).
        create: make an empty file when there is none.
        replace_damaged: a file that is no database or a malformed one is deleted,
            with a warning, and an empty one made in its place (for a run that
            rebuilds every vector: a full index run, under the index lock).

    Raises:
        UntrustedCacheError: the file is outside the user cache or not the user's own.
        sqlite3.Error: the file is not a readable database (and not replaced).
    """
    if not path.exists():
        if not create and not replace_damaged:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
    check_trusted(path)
    conn = sqlite3.connect(str(path), timeout=30.0)
    try:
        if _format(conn) != str(VECTORS_FORMAT):
            _upgrade(conn)
    except sqlite3.Error as exc:
        conn.close()
        if not replace_damaged or not _damaged(exc):
            raise
        log.warning("the vectors file %s is damaged (%s); it is built anew", path, exc)
        for stale in (path, path.with_name(path.name + "-journal")):
            stale.unlink(missing_ok=True)
        return open_vectors(path, create=True)
    return VectorStore(conn)


def _damaged(exc: sqlite3.Error) -> bool:
    """True when ``exc`` says the file is no database or a malformed one (not a lock
    or a full disk: those pass)."""
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def _format(conn: sqlite3.Connection) -> str | None:
    """The file's format as stored, None for a file without one (new, or no rubi's)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        return None
    return str(row[0]) if row else None


def _upgrade(conn: sqlite3.Connection) -> None:
    """Bring the file to :data:`VECTORS_FORMAT` in one transaction that holds the
    write lock (a second process opening it meanwhile waits, then finds it done):
    a format-2 file is converted (:func:`_migrate`), anything else emptied."""
    conn.execute("BEGIN IMMEDIATE")
    old = False
    try:
        found = _format(conn)
        if found != str(VECTORS_FORMAT):
            columns = {r[1] for r in conn.execute("PRAGMA table_info(docs)")}
            old = found == "2" and "vecs" in columns
            if old:
                conn.execute("DROP INDEX IF EXISTS docs_gen")
                conn.execute("ALTER TABLE docs RENAME TO docs_v2")
            else:
                for table in ("docs_v2", *_TABLES, "meta"):
                    conn.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if old:
                _migrate(conn)
            conn.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [("format", str(VECTORS_FORMAT)), ("token", os.urandom(16).hex())],
            )
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    if old:  # give back the old table's pages, once; while another connection reads,
        # VACUUM fails and later writes reuse the free pages instead
        with contextlib.suppress(sqlite3.OperationalError):
            conn.execute("VACUUM")


def _migrate(conn: sqlite3.Connection) -> None:
    """Move a format-2 ``docs`` table (renamed ``docs_v2``: one blob of the whole
    document's vector and its passages' per row) into format 3's ``docs`` and
    ``passages``, keeping each row's id, gen and rowid (so the order of a scan stays)
    and every byte of its vectors. A row that is not whole vectors is dropped (a full
    run embeds it again), as is everything when the dims are unknown."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'dims'").fetchone()
    width = 2 * int(row[0]) if row and str(row[0]).isdigit() else 0
    if width:
        whole = "length(vecs) >= :w AND length(vecs) % :w = 0"
        conn.execute(
            "INSERT INTO docs (rowid, id, kind, digest, headings, gen, passages, doc) "
            "SELECT rowid, id, kind, digest, headings, gen, length(vecs) / :w - 1, "
            f"substr(vecs, 1, :w) FROM docs_v2 WHERE {whole}",
            {"w": width},
        )
        conn.execute(
            "INSERT INTO passages (id, vecs) "
            f"SELECT id, substr(vecs, :w + 1) FROM docs_v2 WHERE {whole}",
            {"w": width},
        )
    conn.execute("DROP TABLE docs_v2")
