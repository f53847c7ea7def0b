"""The per-file parse cache: one SQLite row per file, keyed by path, validated by
content hash.

A file whose size and modification time are unchanged is not even read (unless it
was modified just before its row was written, see :data:`RACY_WINDOW_NS`); one whose
stat changed is hashed, and its old parse is reused when the SHA-256 is the same
(a ``touch``, a branch switch back and forth); only new content is parsed. Parses do
not depend on the path, so a renamed file reuses its parse too.

Work is proportional to the change: opening the cache reads every row's stat
columns (path, hash, size, mtime, language, why skipped, problems), never a parse;
:meth:`ParseCache.parses` decodes the parses asked for; :meth:`ParseCache.write`
upserts the rows that changed and deletes the files that went, in one transaction.

Rows hold JSON, never pickles: a row that does not decode to the expected shape is
treated as absent (the file is parsed again), so a damaged or planted cache can
cost time but never run code. A file that is not a readable database, or was written
by another layout or parser version, is started afresh. Two processes may write at
once (SQLite's locking; a writer that cannot get the lock in
:data:`BUSY_TIMEOUT_S` gives up with a warning and the next run parses again).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubi.codemap.lang import PARSER_VERSION
from rubi.codemap.model import ImportSpec, Parsed, Symbol
from rubi.core.filestamp import RACY_WINDOW_NS  # a file this recently changed: hashed again
from rubi.core.model import ScanWarning

__all__ = [
    "BUSY_TIMEOUT_S",
    "CACHE_FORMAT",
    "RACY_WINDOW_NS",
    "CacheEntry",
    "ParseCache",
    "open_cache",
]

logger = logging.getLogger(__name__)

CACHE_FORMAT = 2
"""Layout version of the cache; another one is dropped and rebuilt (1 was one JSON file)."""
BUSY_TIMEOUT_S = 10.0
"""How long a write waits for another process's write to finish."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, language TEXT NOT NULL, skip TEXT,
    problems TEXT NOT NULL, parsed TEXT);
"""
_UNREADABLE = "code map cache unreadable; rebuilt from the files"


def _not_written(exc: Exception) -> str:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return f"code map cache not written ({reason}); check the folder"


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """What is remembered about one file.

    Attributes:
        sha256: hex digest of the bytes parsed.
        size: bytes, as of the stat that was checked.
        mtime_ns: modification time, as of that stat.
        language: the file's language.
        parsed: its parse; None when the file was left out (``skip``) or when the
            entry was read from the cache and its parse not decoded yet
            (:meth:`ParseCache.parses`).
        skip: why the file was left out (binary, minified), else None.
        problems: what was odd about the file (``Parsed.problems``), kept beside the
            parse so that warnings need no parse decoded.
    """

    sha256: str
    size: int
    mtime_ns: int
    language: str
    parsed: Parsed | None
    skip: str | None = None
    problems: tuple[str, ...] = ()

    @property
    def mapped(self) -> bool:
        """True when the file is on the map (it was not left out)."""
        return self.skip is None


def _parsed_to_json(parsed: Parsed) -> str:
    data = {
        "i": [[s.kind, s.target, list(s.names)] for s in parsed.imports],
        "s": [[s.name, s.kind, s.line] for s in parsed.symbols],
        "p": parsed.package,
        "d": list(parsed.idents),
        "e": list(parsed.problems),
    }
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _strs(value: Any) -> tuple[str, ...]:
    # set(map(type, ...)): the check in C; an import edit decodes every row's lists
    if type(value) is not list or (value and set(map(type, value)) != {str}):
        raise TypeError("expected a list of strings")
    return tuple(value)


def _parsed_from_json(text: str) -> Parsed:
    """Decode a row's parse, checking every type.

    Raises:
        ValueError, TypeError, KeyError: the text is not a parse of this layout.
    """
    data = json.loads(text)
    imports = []
    for kind, target, names in data["i"]:
        if not (isinstance(kind, str) and isinstance(target, str)):
            raise TypeError("import kind and target must be strings")
        imports.append(ImportSpec(kind, target, _strs(names)))
    symbols = []
    for name, kind, line in data["s"]:
        if not (isinstance(name, str) and isinstance(kind, str) and type(line) is int):
            raise TypeError("a symbol is (name, kind, line)")
        symbols.append(Symbol(name, kind, line))
    if not isinstance(data["p"], str):
        raise TypeError("package must be a string")
    return Parsed(
        imports=tuple(imports),
        symbols=tuple(symbols),
        package=data["p"],
        idents=_strs(data["d"]),
        problems=_strs(data["e"]),
    )


def _entry(row: tuple[Any, ...]) -> CacheEntry | None:
    """A row's stat columns as an entry (parse not decoded), or None when malformed."""
    _, sha, size, mtime_ns, language, skip, problems, has_parse = row
    try:
        ok = (
            isinstance(sha, str)
            and type(size) is int
            and type(mtime_ns) is int
            and isinstance(language, str)
            and (skip is None or isinstance(skip, str))
            and (skip is not None or has_parse)
        )
        if not ok or not isinstance(problems, str):
            decoded = None
        else:
            decoded = () if problems == "[]" else _strs(json.loads(problems))
    except (ValueError, TypeError):
        decoded = None
    if decoded is None:
        return None
    return CacheEntry(sha, size, mtime_ns, language, None, skip, decoded)


class ParseCache:
    """An open parse cache (see the module docstring). Use :func:`open_cache`.

    Attributes:
        entries: every well-formed row by repository path, parses not decoded.
        warnings: what went wrong opening it (an unreadable file, malformed rows).
    """

    def __init__(self, path: Path | None, conn: sqlite3.Connection | None) -> None:
        self.path = path
        self._conn = conn
        self.entries: dict[str, CacheEntry] = {}
        self.warnings: list[ScanWarning] = []
        self._by_content: dict[tuple[str, str], str] | None = None

    def detached(self) -> ParseCache:
        """The same rows with no database behind them, for a forked child (a SQLite
        connection must not cross a ``fork``): cached entries whose stat is unchanged
        are reused, while a file whose parse would be decoded is parsed again."""
        view = ParseCache(self.path, None)
        view.entries = self.entries
        return view

    def path_of(self, sha256: str, language: str) -> str | None:
        """A mapped file whose cached parse is of this content, or None (a renamed or
        copied file reuses it). The lookup table is built on first use."""
        if self._by_content is None:
            self._by_content = {
                (e.sha256, e.language): p for p, e in self.entries.items() if e.skip is None
            }
        return self._by_content.get((sha256, language))

    def parses(self, paths: Iterable[str]) -> dict[str, Parsed]:
        """The cached parses of ``paths``; a path without a row, left out, or whose
        parse does not decode is missing from the result (parse the file again)."""
        wanted = [p for p in paths if p in self.entries and self.entries[p].mapped]
        if self._conn is None or not wanted:
            return {}
        out: dict[str, Parsed] = {}
        bad = 0
        try:
            for path, text in _select_paths(self._conn, "SELECT path, parsed ", wanted):
                try:
                    out[path] = _parsed_from_json(text)
                except (ValueError, TypeError, KeyError, AttributeError):
                    bad += 1
        except sqlite3.Error as exc:
            logger.warning("code map cache %s unreadable (%s)", self.path, exc)
            return out
        if bad:
            logger.warning("code map cache %s: %d malformed rows ignored", self.path, bad)
        return out

    def write(
        self, changed: Mapping[str, CacheEntry], removed: Iterable[str]
    ) -> ScanWarning | None:
        """Upsert ``changed`` (each with its parse, unless left out) and delete
        ``removed`` in one transaction.

        A row's mtime is stored as -1 when the file was modified within
        :data:`RACY_WINDOW_NS` of now, so the next run hashes it again.

        Returns:
            None, or a warning when the cache cannot be written (the map is still
            valid; the next run parses those files again).
        """
        gone = list(removed)
        if self._conn is None or not (changed or gone):
            return None
        racy_after = time.time_ns() - RACY_WINDOW_NS
        rows = []
        for key, e in changed.items():
            if e.mapped and e.parsed is None:
                raise ValueError(f"{key}: an entry written to the cache needs its parse")
            rows.append(
                (
                    key,
                    e.sha256,
                    e.size,
                    e.mtime_ns if e.mtime_ns < racy_after else -1,
                    e.language,
                    e.skip,
                    json.dumps(list(e.problems), ensure_ascii=False),
                    _parsed_to_json(e.parsed) if e.parsed is not None else None,
                )
            )
        try:
            with self._conn:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.executemany(
                    "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows
                )
                self._conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in gone])
        except sqlite3.Error as exc:
            logger.warning("cannot write code map cache %s: %s", self.path, exc)
            return ScanWarning(self._name(), _not_written(exc))
        return None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _name(self) -> str:
        return self.path.name if self.path is not None else "code map cache"


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # the user's alone, like pickles
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(_SCHEMA)
        version = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        wanted = {"format": str(CACHE_FORMAT), "parser": str(PARSER_VERSION)}
        if version != wanted:
            if version:
                logger.info("code map cache %s is from another version; rebuilding", path)
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("DELETE FROM files")
                conn.execute("DELETE FROM meta")
                conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(wanted.items()))
    except BaseException:
        conn.close()
        raise
    return conn


_COLUMNS = "SELECT path, sha256, size, mtime_ns, language, skip, problems, parsed IS NOT NULL "


def _rows(conn: sqlite3.Connection, only: Collection[str] | None = None) -> list[tuple[Any, ...]]:
    if only is None:
        return conn.execute(_COLUMNS + "FROM files").fetchall()
    return list(_select_paths(conn, _COLUMNS, sorted(set(only))))


def _select_paths(
    conn: sqlite3.Connection, select: str, paths: list[str]
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``select`` (columns, ending in a space) from ``files`` for
    ``paths``, asked 500 paths at a time (SQLite's limit on bound parameters)."""
    for start in range(0, len(paths), 500):
        chunk = paths[start : start + 500]
        marks = ",".join("?" * len(chunk))
        yield from conn.execute(f"{select}FROM files WHERE path IN ({marks})", chunk)


def open_cache(path: Path | None, only: Collection[str] | None = None) -> ParseCache:
    """Open (or create) the cache at ``path`` and read every row's stat columns (or
    only the rows of the paths in ``only``: an update of a few known files).

    Args:
        path: the cache file (SQLite); its folder is created if missing. None for no
            cache: nothing is remembered and nothing written.
        only: read just these paths' rows; ``entries`` then holds no other file (and
            :meth:`ParseCache.path_of` finds no other file's parse).

    Returns:
        A :class:`ParseCache`. A file that is not a readable database is removed and
        started afresh, with a warning; malformed rows are left out (their files are
        parsed again and the rows rewritten). A cache that cannot be created at all
        (an unwritable folder) works as no cache, with a warning.
    """
    cache = ParseCache(path, None)
    if path is None:
        return cache
    try:
        try:
            conn = _connect(path)
            rows = _rows(conn, only)
        except sqlite3.OperationalError:
            raise  # cannot open or locked: not a damaged file, never deleted
        except sqlite3.DatabaseError as exc:
            logger.warning("code map cache %s unreadable (%s); rebuilding", path, exc)
            cache.warnings.append(ScanWarning(path.name, _UNREADABLE))
            for stale in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))):
                stale.unlink(missing_ok=True)
            conn = _connect(path)
            rows = []
    except (OSError, sqlite3.Error) as exc:
        logger.warning("cannot open code map cache %s: %s", path, exc)
        cache.warnings.append(ScanWarning(path.name, _not_written(exc)))
        return cache
    cache._conn = conn
    bad = 0
    for row in rows:
        entry = _entry(row)
        if entry is None or not isinstance(row[0], str):
            bad += 1
            continue
        cache.entries[row[0]] = entry
    if bad:
        logger.warning("code map cache %s: %d malformed rows ignored", path, bad)
    return cache
