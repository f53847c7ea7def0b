"""Writes the near-duplicate fingerprints' store (:mod:`rubi.search.printstore`) at
index time: the rows of the notes a run read, or every note's in a new file."""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import suppress
from pathlib import Path

from rubi.core.atomic import sweep_temp_files, temp_path
from rubi.core.lazylog import get_logger
from rubi.core.picklefiles import UntrustedCacheError, check_trusted
from rubi.search.duplicates import clean_body, words_of
from rubi.search.hittext import FileText
from rubi.search.printstore import PRINTS_FILE, PRINTS_FORMAT, journal_of, read_only_uri
from rubi.search.textkey import text_key

__all__ = ["print_row", "record_prints"]

log = get_logger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS prints (
    path TEXT PRIMARY KEY, digest BLOB NOT NULL, words INTEGER NOT NULL,
    vocabulary TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS prints_digest ON prints (digest);
"""


def print_row(text: str) -> tuple[bytes, int, str]:
    """``text``'s row: its digest, the count of its cleaned body's words and its
    distinct words joined by a space (in a set's order)."""
    words = words_of(clean_body(text))
    return text_key(text), len(words), " ".join(set(words))


def record_prints(
    index_dir: Path,
    vault_root: Path,
    project_root: Path | None,
    changed: Collection[str],
    gone: Collection[str],
    everything: Callable[[], Iterable[str]],
    *,
    full: bool,
) -> None:
    """Record the fingerprints of the note files ``changed`` (vault-relative paths, read
    as a search reads them) and drop those of ``gone``, in one transaction. A full
    build, or a store that is missing, damaged or of another format, makes the store
    anew from ``everything`` (every note file's path) in a new file that replaces the
    old one (a reader sees one or the other). A failure is logged and removes the
    store (a search then reads the text; the next run makes it anew)."""
    path = index_dir / PRINTS_FILE
    try:
        if not full and _usable(path):
            try:
                _update(path, _rows(vault_root, project_root, changed), gone)
                return
            except sqlite3.DatabaseError as exc:
                log.warning("near-duplicate fingerprints made anew: %s", exc)
        _write_anew(path, _rows(vault_root, project_root, everything()))
    except (sqlite3.Error, OSError) as exc:
        log.warning("near-duplicate fingerprints not recorded: %s", exc)
        with suppress(OSError):
            path.unlink()


def _rows(
    vault_root: Path, project_root: Path | None, rels: Iterable[str]
) -> Iterator[tuple[str, bytes, int, str]]:
    allowed = project_root or vault_root
    for rel in rels:  # the text as a search reads a note: its comments blanked
        yield (rel, *print_row(FileText(allowed, vault_root / rel, markdown=True).text))


def _update(path: Path, rows: Iterable[tuple[str, bytes, int, str]], gone: Iterable[str]) -> None:
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("DELETE FROM prints WHERE path = ?", [(p,) for p in gone])
        conn.executemany("INSERT OR REPLACE INTO prints VALUES (?, ?, ?, ?)", rows)
        conn.execute("COMMIT")
    finally:
        conn.close()


def _write_anew(path: Path, rows: Iterable[tuple[str, bytes, int, str]]) -> None:
    """A new store at ``path`` from ``rows``: written under a temp name (named as every
    temp file, so one a killed run left is swept: :func:`rubi.core.atomic.temp_path`),
    without a journal of its own, then renamed onto ``path``. The old file's rollback
    journal goes first: one a killed update left would be taken as the new file's and
    make every reader refuse it (or roll the old file's pages into it). A folder in the
    place of either is refused before any note is read (no rename could replace it:
    each run read every note for nothing)."""
    for target in (path, journal_of(path)):  # never renamed onto: no note read for it
        if os.path.isdir(target) and not os.path.islink(target):
            raise IsADirectoryError(errno.EISDIR, "a folder in the store's place", str(target))
    sweep_temp_files(path.parent)
    temp = temp_path(path)
    try:
        conn = sqlite3.connect(temp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=OFF")  # a new file, discarded on failure
            conn.executescript(_SCHEMA)
            conn.execute("BEGIN")
            conn.executemany("INSERT OR REPLACE INTO prints VALUES (?, ?, ?, ?)", rows)
            conn.execute("INSERT INTO meta VALUES ('format', ?)", (str(PRINTS_FORMAT),))
            conn.execute("COMMIT")
        finally:
            conn.close()
        os.chmod(temp, 0o600)  # the user's alone, whatever the umask (check_trusted)
        with suppress(FileNotFoundError):
            journal_of(path).unlink()  # a directory there: OSError, no store written
        os.replace(temp, path)
    finally:
        with suppress(OSError):
            temp.unlink()


def _usable(path: Path) -> bool:
    """Whether ``path`` is a store of this format (not whether every row is sound)."""
    try:
        check_trusted(path)
        with suppress(FileNotFoundError):  # none: no update was under way
            check_trusted(journal_of(path))  # a FIFO would block the open below
    except (OSError, UntrustedCacheError):
        return False
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=30)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            conn.execute("SELECT path, digest, words, vocabulary FROM prints LIMIT 1").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return row is not None and row[0] == str(PRINTS_FORMAT)
