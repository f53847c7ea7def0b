"""The manifest and the parsed notes, one record per note, in SQLite.

A save changes one note; the store writes that note's rows, not the vault's. Tables:

- ``meta``: key → JSON value (formats, the change counter ``gen``, ``indexed_at``,
  attachments, the code files and fingerprint);
- ``files``: one :class:`~rubi.sync.manifest.FileEntry` per note file;
- ``notes``: one parsed note per id (pickled, body cut to
  :data:`~rubi.sync.manifest.NOTES_BODY_KEPT`), with the ``gen`` that wrote it;
- ``gone``: ids removed, with the ``gen`` that removed them.

``gen`` counts the runs that changed the graph. A graph snapshot saved at gen *g*
plus the ``notes`` and ``gone`` rows after *g* is the current graph
(:mod:`rubi.sync.livegraph`), and a long-lived vault sync that saw gen *g* catches up
with the same rows after another process indexed.

The file lives in the user's cache folder like every derived file and is opened only
after :func:`rubi.core.picklefiles.check_trusted` (its note rows are pickles). One writer
at a time (the index lock); readers see the last committed run (write-ahead log).
"""

from __future__ import annotations

import contextlib
import dataclasses
import pickle
import sqlite3
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.core.jsonline import dumps, loads
from rubi.core.picklefiles import check_trusted

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.core.filestamp import Stamp
    from rubi.core.model import Note  # its rows unpickle to it: pickle imports it then

__all__ = ["CODE_SHAPE", "CODE_STAMP", "STORE_FORMAT", "Store", "open_store", "quiet_stamp"]

CODE_STAMP = "code_graph"
"""Store meta key: the generation of the run that last changed the code map's shape
(the graph's code nodes); a graph whose ``code_stamp`` differs has older code nodes."""

CODE_SHAPE = "code_shape"
"""Meta key: the shape id (:attr:`rubi.codemap.model.CodeMap.shape_id`) of the code map
the store's rows were last committed with. The map is kept on disk before the run's
rows are committed, so a run killed between the two leaves a kept map ahead of the
store and the graph; the next run, finding the kept map's shape unlike this one, moves
the graph's code nodes again (:attr:`rubi.sync.steps.SyncRun.regraphed`)."""

STORE_FORMAT = 1
"""Bump when the tables change shape; an older store is dropped and rebuilt."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, sha256 TEXT,
    note_id TEXT, problem TEXT, signature TEXT);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, gen INTEGER, data BLOB);
CREATE INDEX IF NOT EXISTS notes_gen ON notes (gen);
CREATE TABLE IF NOT EXISTS gone (id TEXT PRIMARY KEY, gen INTEGER);
"""


def _dump(note: Note, body_kept: int) -> bytes:
    trimmed = dataclasses.replace(note, body=note.body[:body_kept])
    return pickle.dumps(trimmed, protocol=pickle.HIGHEST_PROTOCOL)


class Store:
    """An open store (see the module docstring). Use :func:`open_store`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def close(self) -> None:
        self._conn.close()

    # -- meta ------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """Every meta value, decoded."""
        rows = self._conn.execute("SELECT key, value FROM meta").fetchall()
        return {k: loads(v) for k, v in rows}

    def meta_value(self, key: str, default: Any = None) -> Any:
        """One meta value, decoded (``default`` when absent): cheaper than :meth:`meta`,
        which decodes the code manifest of a large project too."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return loads(row[0]) if row else default

    def meta_values(self, keys: Iterable[str]) -> dict[str, Any]:
        """The meta values of ``keys`` that are present, decoded (one query)."""
        wanted = list(keys)
        rows = self._conn.execute(
            f"SELECT key, value FROM meta WHERE key IN ({', '.join('?' * len(wanted))})",
            wanted,
        ).fetchall()
        return {k: loads(v) for k, v in rows}

    def gen(self) -> int:
        """The change counter (0 for an empty store)."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'gen'").fetchone()
        return int(loads(row[0])) if row else 0

    # -- reading ---------------------------------------------------------------------
    def files(self) -> Iterator[tuple[Any, ...]]:
        """Rows ``(path, mtime_ns, size, sha256, note_id, problem, signature)``."""
        yield from self._conn.execute(
            "SELECT path, mtime_ns, size, sha256, note_id, problem, signature FROM files"
        )

    def file_stamps(self) -> dict[str, tuple[int, int]]:
        """Each note file's recorded ``(mtime_ns, size)`` by path."""
        return {
            path: (mtime, size)
            for path, mtime, size in self._conn.execute("SELECT path, mtime_ns, size FROM files")
        }

    def file_digests(self, paths: Collection[str]) -> dict[str, str]:
        """The recorded SHA-256 of each of ``paths`` that has a row (``""``: a file
        that could not be read)."""
        out: dict[str, str] = {}
        for path in paths:
            row = self._conn.execute("SELECT sha256 FROM files WHERE path = ?", (path,))
            got = row.fetchone()
            if got is not None:
                out[path] = got[0] or ""
        return out

    def notes(self) -> dict[str, Note]:
        """Every saved note by id."""
        out: dict[str, Note] = {}
        for note_id, data in self._conn.execute("SELECT id, data FROM notes"):
            out[note_id] = pickle.loads(data)
        return out

    def changes_since(self, gen: int) -> tuple[dict[str, Note], list[str]]:
        """Notes written and ids removed by runs after ``gen``."""
        written = {
            note_id: pickle.loads(data)
            for note_id, data in self._conn.execute(
                "SELECT id, data FROM notes WHERE gen > ?", (gen,)
            )
        }
        removed = [r[0] for r in self._conn.execute("SELECT id FROM gone WHERE gen > ?", (gen,))]
        return written, [r for r in removed if r not in written]

    def count_since(self, gen: int) -> int:
        """How many note rows runs after ``gen`` wrote or removed (the journal's length)."""
        a = self._conn.execute("SELECT COUNT(*) FROM notes WHERE gen > ?", (gen,)).fetchone()
        b = self._conn.execute("SELECT COUNT(*) FROM gone WHERE gen > ?", (gen,)).fetchone()
        return int(a[0]) + int(b[0])

    # -- writing ---------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """One atomic write: everything inside commits together or not at all. Inside
        a transaction :meth:`begin` opened, it joins it (and commits it)."""
        if not self._conn.in_transaction:
            self.begin()
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        self._conn.execute("COMMIT")

    def begin(self) -> None:
        """Open a write transaction that the next :meth:`transaction` block commits
        (a streamed full build writes its note rows as it reads them); :meth:`rollback`
        or closing the store drops it."""
        self._conn.execute("BEGIN IMMEDIATE")

    def rollback(self) -> None:
        """Drop the open transaction's writes, if one is open."""
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")

    def clear(self) -> None:
        """Drop every row (a full rebuild)."""
        for table in ("meta", "files", "notes", "gone"):
            self._conn.execute(f"DELETE FROM {table}")  # fixed names

    def set_meta(self, values: dict[str, Any]) -> None:
        self._conn.executemany(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [(k, dumps(v)) for k, v in values.items()],
        )

    def put_files(self, rows: Iterable[tuple[Any, ...]]) -> None:
        """Manifest rows ``(path, mtime_ns, size, sha256, note_id, problem,
        signature)``; an ``mtime_ns`` outside SQLite's 64-bit integers (a file dated
        after 2262 or before 1678: an archive's or a synced folder's, ``touch -d``) is
        stored clamped to them, so it cannot stop the run (OverflowError); such a file
        is read again by each run, and its same bytes leave it unchanged."""
        self._conn.executemany(
            "INSERT OR REPLACE INTO files "
            "(path, mtime_ns, size, sha256, note_id, problem, signature) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(path, _sqlite_int(mtime), *rest) for path, mtime, *rest in rows],
        )

    def drop_files(self, paths: Iterable[str]) -> None:
        self._conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in paths])

    def put_notes(self, notes: Iterable[Note], gen: int, body_kept: int) -> None:
        ids: list[tuple[str]] = []

        def rows() -> Iterator[tuple[str, int, bytes]]:  # one pickle in memory at a time
            for n in notes:
                ids.append((n.id,))
                yield n.id, gen, _dump(n, body_kept)

        self._conn.executemany(
            "INSERT OR REPLACE INTO notes (id, gen, data) VALUES (?, ?, ?)", rows()
        )
        self._conn.executemany("DELETE FROM gone WHERE id = ?", ids)

    def drop_notes(self, ids: Iterable[str], gen: int) -> None:
        rows = [(i,) for i in ids]
        self._conn.executemany("DELETE FROM notes WHERE id = ?", rows)
        self._conn.executemany(
            "INSERT OR REPLACE INTO gone (id, gen) VALUES (?, ?)", [(i, gen) for (i,) in rows]
        )


def quiet_stamp(path: Path) -> Stamp | None:
    """The stamp (:func:`rubi.core.filestamp.quiet_stamp`) of the store at ``path`` and
    its write-ahead log: two equal stamps mean nobody committed in between, so a reader
    that saw the store's generation at the first need not open it again (opening and
    asking costs about 0.7 ms). :mod:`rubi.core.filestamp` is imported here: a cold
    search that reads the store once never asks."""
    from rubi.core import filestamp

    return filestamp.quiet_stamp((path, path.with_name(path.name + "-wal")))


_READ_ONLY_ERRORS = frozenset({"SQLITE_READONLY", "SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN"})
"""What SQLite says when a write-ahead-log database cannot be read in place: its folder
(or the file) is read-only, so the ``-shm`` index of the log cannot be made."""


def _read_only(path: Path) -> sqlite3.Connection:
    """``path`` opened read-only as an immutable file (SQLite's ``immutable=1``: no
    ``-shm``, no locks), for a reader in a cache folder it cannot write: nothing can
    change the file there but its owner, whose last run committed before it left
    (a run checkpoints its log on close)."""
    uri = f"{path.absolute().as_uri()}?mode=ro&immutable=1"
    return sqlite3.connect(uri, uri=True, timeout=60.0, isolation_level=None)


def open_store(path: Path, *, create: bool) -> Store | None:
    """Open the store at ``path``; None when it does not exist and ``create`` is false,
    or when it is of another format (the caller rebuilds). A reader (``create``
    false) in a folder it cannot write opens the file read-only as it stands.

    Raises:
        UntrustedCacheError: ``path`` is not in the user's own cache folder.
        RubiError: the disk is full (SQLite's ``SQLITE_FULL``): a cache folder on a
            full disk was reported as an unreadable index with `rubi index --full` to
            run, which deleted the store and failed the same way.
        sqlite3.Error: a damaged file.
    """
    try:
        return _open_store(path, create=create)
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
            raise RubiError(
                f"{path}: the disk is full ({exc}); free space there, or set "
                "XDG_CACHE_HOME to a folder on another disk"
            ) from exc
        raise


def _open_store(path: Path, *, create: bool) -> Store | None:
    """:func:`open_store`'s work, SQLite's errors as they come."""
    if path.exists():
        check_trusted(path)
        for suffix in ("-wal", "-shm"):  # SQLite reads them as part of the file
            # none, or another process's last close removed it: nothing to check
            with contextlib.suppress(FileNotFoundError):
                check_trusted(path.with_name(path.name + suffix))
    elif not create:
        return None
    conn = sqlite3.connect(str(path), timeout=60.0, isolation_level=None)
    store = Store(conn)
    if create:  # a reader (every search) leaves the file's settings and tables alone
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(_SCHEMA)
        path.chmod(0o600)
    try:
        fmt = conn.execute("SELECT value FROM meta WHERE key = 'store_format'").fetchone()
    except sqlite3.OperationalError as exc:
        store.close()
        if create or getattr(exc, "sqlite_errorname", "") not in _READ_ONLY_ERRORS:
            return None  # no tables yet: a first run is creating them
        conn = _read_only(path)  # a write-ahead log cannot be opened in a read-only folder
        store = Store(conn)
        fmt = conn.execute("SELECT value FROM meta WHERE key = 'store_format'").fetchone()
    if fmt is None:
        if conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] and not create:
            store.close()
            return None
        return store
    if loads(fmt[0]) != STORE_FORMAT:
        if not create:
            store.close()
            return None
        with store.transaction():
            store.clear()
    return store


_SQLITE_MIN, _SQLITE_MAX = -(1 << 63), (1 << 63) - 1
"""The range of an SQLite INTEGER (signed 64 bits)."""


def _sqlite_int(value: Any) -> Any:
    """``value`` clamped to an SQLite INTEGER when it is an int outside that range."""
    if isinstance(value, int) and not _SQLITE_MIN <= value <= _SQLITE_MAX:
        return max(_SQLITE_MIN, min(value, _SQLITE_MAX))
    return value
