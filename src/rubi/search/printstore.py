"""The near-duplicate fingerprints of a vault's notes, written at index time, so that a
process that searches once (a cold recall hook, a cold ``rubi search``) does not make
them from its candidates' text (:func:`rubi.search.duplicates.make_body`: 1.5–5.3 ms of
a recall at 6k notes, its 20 candidates cleaned and split into words).

One SQLite file beside the index (``fingerprints.sqlite``), derived and rebuildable,
no pickle: a row per note file, ``(path, digest, words, vocabulary)``, where
``digest`` is :func:`rubi.search.textkey.text_key` of the text a search reads
(:class:`rubi.search.hittext.FileText`), ``words`` the count of the cleaned body's
words and ``vocabulary`` its distinct words joined by a space (no word holds one).
What :class:`~rubi.search.duplicates.Fingerprint` holds besides the title (which the
search takes from the graph, as before) follows from those two: a row is looked up by
the digest of the text the search has read, so a note edited after indexing is a
digest the file does not hold, and its fingerprint is made from its text as before.
The decision of the check is the same either way.

Written by each index run after its rows (:mod:`rubi.search.printwriter`). Read
only inside :func:`reading_prints` or :func:`reading_kept_prints` (a context variable:
other threads never see it). A one-shot process opens the store for its search; a
long-lived one (the MCP server, the engine) keeps one reader per index folder open
across its searches (:func:`kept_store`), opened anew when the file is replaced: its
in-memory memo keeps the fingerprints it met, and a candidate met for the first time
is one indexed row away instead of its text cleaned and split (0.8 ms of a distinct
question's search on obsidian-hub). A missing file is no fingerprint (the text is
read as before); a damaged or untrusted one
(:func:`rubi.core.picklefiles.check_trusted`, as for every derived file; not SQLite,
another format, a row of the wrong shape) warns once per process and is not read again
by the search (a kept reader: until the file is replaced).
"""

from __future__ import annotations

import _thread  # threading's Lock, without its import
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.core.picklefiles import UntrustedCacheError, check_trusted

__all__ = [
    "PRINTS_FILE",
    "PRINTS_FORMAT",
    "PrintStore",
    "close_kept_store",
    "forget_kept_stores",
    "journal_of",
    "kept_store",
    "read_only_uri",
    "reading_kept_prints",
    "reading_prints",
    "stored",
]

log = get_logger(__name__)

PRINTS_FILE = "fingerprints.sqlite"
"""The store's name in the index folder."""
PRINTS_FORMAT = 2
"""Bump when a row changes meaning; a store of another format is not read (and is
rebuilt by the next index run that changes a note). 2: the digest and words of a
note's text with its comments blanked, as a search reads it (format 1 took the file's
raw text, so every note holding a comment was a digest no search asked for)."""

_BUSY_SECONDS = 0.05
"""How long a search waits for an index run's commit before it reads the text instead."""

_READING: ContextVar[PrintStore | None] = ContextVar("rubi_reading_prints", default=None)
_WARNED = False
_KEPT: dict[Path, tuple[tuple[int, ...] | None, PrintStore]] = {}
""":func:`kept_store`'s readers: per index folder, the store file's stamp when opened
(:func:`_stamp`; None: missing) and its reader."""
_KEPT_GUARD = _thread.allocate_lock()


class PrintStore:
    """One reader of a vault's fingerprint store, opened on first use; safe across
    threads (one query at a time)."""

    __slots__ = ("_busy", "_conn", "_done", "_guard", "_path")

    def __init__(self, index_dir: Path) -> None:
        self._path = index_dir / PRINTS_FILE
        self._conn: sqlite3.Connection | None = None
        self._done = False  # missing, damaged or closed: nothing more is read
        self._busy = False  # closed because an index run was committing
        self._guard = _thread.allocate_lock()

    def get(self, digest: bytes) -> tuple[int, frozenset[str]] | None:
        """The word count and the vocabulary of the text whose digest is ``digest``,
        or None when the store has no such text (or cannot be read)."""
        if self._done:
            return None
        with self._guard:
            return self._get(digest)

    def _get(self, digest: bytes) -> tuple[int, frozenset[str]] | None:
        if self._done:  # closed by another thread meanwhile
            return None
        try:
            conn = self._conn if self._conn is not None else self._open()
            if conn is None:
                return None
            row = conn.execute(
                "SELECT words, vocabulary FROM prints WHERE digest = ? LIMIT 1", (digest,)
            ).fetchone()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                self.close()  # an index run commits: the text is read, as before
                self._busy = True  # a kept reader is opened anew by the next search
                return None
            self._damaged(str(exc))
            return None
        except (sqlite3.Error, ValueError) as exc:
            self._damaged(str(exc))
            return None
        except UntrustedCacheError as exc:
            self._damaged(exc.reason)
            return None
        if row is None:
            return None
        words, vocabulary = row
        if type(words) is not int or type(vocabulary) is not str or words < 0:
            self._damaged("a row of the wrong type")
            return None
        found = frozenset(vocabulary.split(" ")) if vocabulary else frozenset()
        if len(found) > words or "" in found or (words and not found):
            self._damaged("a row whose words do not add up")
            return None
        return words, found

    def _open(self) -> sqlite3.Connection | None:
        try:  # like every derived file: the user's own, a regular file, in the cache
            check_trusted(self._path)
        except FileNotFoundError:
            self._done = True  # an index written before the store: the text is read
            return None
        with suppress(FileNotFoundError):  # none: no update under way
            check_trusted(journal_of(self._path))  # SQLite opens it too: a FIFO would block
        conn = sqlite3.connect(
            read_only_uri(self._path),
            uri=True,
            timeout=_BUSY_SECONDS,
            check_same_thread=False,  # a kept reader serves each search's thread (guarded)
        )
        self._conn = conn
        row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is None or row[0] != str(PRINTS_FORMAT):
            self.close()
            return None  # another format: read as if missing
        return conn

    def _damaged(self, why: str) -> None:
        global _WARNED
        self.close()
        if not _WARNED:
            _WARNED = True
            log.warning("near-duplicate fingerprints not read (%s): %s", why, self._path)

    def close(self) -> None:
        self._done = True
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()


def kept_store(index_dir: Path) -> PrintStore:
    """This process's reader of ``index_dir``'s store, kept across searches: opened
    anew when the file was replaced since (an index run that writes the store anew
    renames a new file over it: a reader of the old one would never see the new rows),
    removed or made, and after an index run's commit made it give up (busy). Rows an
    index run updates in place are seen by the kept reader (SQLite reads the file's
    change counter at every query). A store whose owner or mode changed, or beside
    which a journal that is not a regular file appeared, is opened anew too, so
    checked again (:meth:`PrintStore._open`) as a one-shot reader checks it."""
    stamp = _stamp(index_dir / PRINTS_FILE)
    with _KEPT_GUARD:
        kept = _KEPT.get(index_dir)
        if kept is not None and kept[0] == stamp and not kept[1]._busy:
            return kept[1]
        if kept is not None:
            kept[1].close()
        store = PrintStore(index_dir)
        _KEPT[index_dir] = (stamp, store)
        return store


def _stamp(path: Path) -> tuple[int, ...] | None:
    """What a kept reader of the store ``path`` is kept by: the file's device, inode,
    owner and mode, and the type of its journal when that is not a regular file (0
    for none or a regular one); None for no file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    try:
        journal = stat.S_IFMT(os.lstat(journal_of(path)).st_mode)
    except OSError:
        journal = 0
    odd = 0 if journal in (0, stat.S_IFREG) else journal
    return (st.st_dev, st.st_ino, st.st_uid, st.st_mode, odd)


def close_kept_store(index_dir: Path) -> None:
    """Close the reader :func:`kept_store` keeps of ``index_dir``'s store, if any (the
    next search opens one again)."""
    with _KEPT_GUARD:
        kept = _KEPT.pop(index_dir, None)
    if kept is not None:
        kept[1].close()


def forget_kept_stores() -> None:
    """Close every reader :func:`kept_store` keeps."""
    with _KEPT_GUARD:
        for _, store in _KEPT.values():
            store.close()
        _KEPT.clear()


@contextmanager
def reading_kept_prints(index_dir: Path) -> Iterator[None]:
    """As :func:`reading_prints`, with this process's kept reader of the store
    (:func:`kept_store`), left open at the block's end: for a long-lived process."""
    token = _READING.set(kept_store(index_dir))
    try:
        yield
    finally:
        _READING.reset(token)


@contextmanager
def reading_prints(index_dir: Path) -> Iterator[None]:
    """Within the block, this thread's near-duplicate checks take a note's fingerprint
    from ``index_dir``'s store when it holds the note's text (:func:`stored`)."""
    store = PrintStore(index_dir)
    token = _READING.set(store)
    try:
        yield
    finally:
        _READING.reset(token)
        store.close()


def stored(digest: bytes) -> tuple[int, frozenset[str]] | None:
    """The stored word count and vocabulary of the text whose digest is ``digest``, in
    a :func:`reading_prints` block (None outside one, or when not stored)."""
    store = _READING.get()
    return None if store is None else store.get(digest)


def journal_of(path: Path) -> Path:
    """The rollback journal SQLite keeps beside the store ``path`` while a run updates
    it (a killed run leaves it, and the next open of the file reads it)."""
    return path.with_name(path.name + "-journal")


def read_only_uri(path: Path) -> str:
    """A read-only SQLite URI of ``path``, every byte of its name but letters, digits
    and ``/._-`` percent-encoded (``Path.as_uri`` imports ``urllib.parse`` and
    ``ipaddress``: 2–5 ms of a cold hook)."""
    keep = b"/._-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    name = "".join(chr(b) if b in keep else f"%{b:02X}" for b in os.fsencode(path))
    return f"file:{name}?mode=ro"
