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
only inside :func:`reading_prints` (a context variable: other threads never see
it). A missing file is no fingerprint (the text is read as before); a damaged or
untrusted one (:func:`rubi.core.picklefiles.check_trusted`, as for every derived file; not
SQLite, another format, a row of the wrong shape) warns once per process and is not
read again by the search.
"""

from __future__ import annotations

import os
import sqlite3
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
    "journal_of",
    "read_only_uri",
    "reading_prints",
    "stored",
]

log = get_logger(__name__)

PRINTS_FILE = "fingerprints.sqlite"
"""The store's name in the index folder."""
PRINTS_FORMAT = 1
"""Bump when a row changes meaning; a store of another format is not read (and is
rebuilt by the next index run that changes a note)."""

_BUSY_SECONDS = 0.05
"""How long a search waits for an index run's commit before it reads the text instead."""

_READING: ContextVar[PrintStore | None] = ContextVar("rubi_reading_prints", default=None)
_WARNED = False


class PrintStore:
    """One reader of a vault's fingerprint store, opened on first use."""

    __slots__ = ("_conn", "_done", "_path")

    def __init__(self, index_dir: Path) -> None:
        self._path = index_dir / PRINTS_FILE
        self._conn: sqlite3.Connection | None = None
        self._done = False  # missing, damaged or closed: nothing more is read

    def get(self, digest: bytes) -> tuple[int, frozenset[str]] | None:
        """The word count and the vocabulary of the text whose digest is ``digest``,
        or None when the store has no such text (or cannot be read)."""
        if self._done:
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
        conn = sqlite3.connect(read_only_uri(self._path), uri=True, timeout=_BUSY_SECONDS)
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
