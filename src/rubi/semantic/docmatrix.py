"""The documents' rows of a vectors file as one flat file a cold reader opens in one
read: ``semantic.docs`` beside ``semantic.sqlite``.

A process that searches once (a cold recall hook) needs every document's id, gen,
number of passages and whole-document vector, and nothing else before it scores
(:func:`rubi.semantic.dense.load_on_demand`). Read as SQLite rows that is one Python
object per value, 28 ms CPU at 6,334 notes; read from this file it is one
``read`` and four ``numpy.frombuffer`` views.

Layout (little-endian): :data:`HEADER` — magic, :data:`DOCS_FORMAT`, dims, the
vectors file's gen, the number of documents ``n``, the vectors file's token (16
random bytes made when that file was made or emptied, so a file built anew at the same
gen is told apart), the CRC-32 of everything after the header, and padding — then
``gens`` int64 ``(n,)``, ``passages`` int32 ``(n,)``, ``docs`` float16 ``(n, dims)``,
and the ids, UTF-8, each followed by a NUL (no document id holds one: ids are paths).

Derived data like the rest: written by a reader that found it missing or stale (the
next cold reader then opens it in a few ms), replaced whole (a temp file renamed over
it), never trusted: :func:`rubi.core.picklefiles.check_trusted`, then the magic, the
format, the sizes, the checksum, the token and gen of the vectors file it must match.
Anything else makes :func:`read_docs` say why in one line; the caller reads the SQLite
rows and writes the file again. No pickle.
"""

from __future__ import annotations

import logging
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rubi.core.picklefiles import open_trusted

__all__ = [
    "DOCS_FILE",
    "DOCS_FORMAT",
    "HEADER",
    "DocRows",
    "StaleDocs",
    "docs_file",
    "document_rows",
    "read_docs",
    "write_docs",
]

log = logging.getLogger(__name__)

DOCS_FILE = "semantic.docs"
"""The file's name, beside the vectors file."""

DOCS_FORMAT = 1
"""Bump when the layout changes; a file of another format is written again."""

MAGIC = b"RUBIDOCS"
HEADER = struct.Struct("<8sIIQQ16sII")
"""magic, format, dims, gen, n, token, crc32, padding (56 bytes: the arrays after it
start 8-byte aligned)."""


class StaleDocs(Exception):
    """The file cannot serve this read; the message says why in one line.

    Attributes:
        expected: the file is only missing or behind the vectors file (after a
            save: nothing to warn about), not refused, damaged or of another format.
    """

    def __init__(self, message: str, *, expected: bool = False) -> None:
        super().__init__(message)
        self.expected = expected


@dataclass(frozen=True, slots=True)
class DocRows:
    """Every document of a vectors file without its passages.

    Attributes:
        ids: document ids, in the order of the vectors file's scan (by gen, then rowid).
        gens: int64 ``(n,)``, the write that stored each.
        passages: int32 ``(n,)``, each one's number of passage vectors.
        docs: float16 ``(n, dims)``, each one's whole-document vector (read-only view).
    """

    ids: list[str]
    gens: Any
    passages: Any
    docs: Any


def docs_file(vectors_path: Path) -> Path:
    """The flat file beside the vectors file ``vectors_path``."""
    return vectors_path.with_name(DOCS_FILE)


class RowSource(Protocol):
    """What :func:`document_rows` asks of a :class:`rubi.semantic.vectors.VectorStore`
    (named by its methods: that module imports this one)."""

    def token(self) -> str | None: ...

    def documents(self) -> tuple[int, DocRows] | None: ...


def document_rows(
    store: RowSource, vectors_path: Path, gen: int, dims: int
) -> tuple[int, DocRows] | None:
    """The documents of ``store`` (the vectors file ``vectors_path``, at ``gen`` when
    its meta was read) and the gen they are of: from the flat file beside it when
    that was written for the file's token and gen, else from its SQLite rows
    (``VectorStore.documents``), and the flat file is then written again for the
    next reader. A refused or damaged flat file is named in one warning line; a
    missing or stale one (after a save) in a debug line. None when the rows are not
    whole ``dims``-value vectors or an id repeats."""
    token = store.token()
    flat = docs_file(vectors_path)
    if token and dims > 0:
        try:
            return gen, read_docs(flat, token=token, gen=gen, dims=dims)
        except StaleDocs as exc:
            (log.debug if exc.expected else log.warning)("semantic documents: %s", exc)
    found = store.documents()
    if found is None or found[1].docs.shape[1] != dims:
        return None
    if token:
        write_docs(flat, found[1], token=token, gen=found[0], dims=dims)
    return found


def read_docs(path: Path, *, token: str, gen: int, dims: int) -> DocRows:
    """The rows in ``path`` if it was written for the vectors file whose ``token``
    (hex), ``gen`` and ``dims`` are given.

    Raises:
        StaleDocs: the file is missing, refused (:class:`UntrustedCacheError`'s text),
            damaged (magic, sizes or checksum), of another format, or of another
            vectors file or gen; the message is one line naming the cause.
    """
    import numpy as np

    from rubi.core.picklefiles import UntrustedCacheError

    try:
        with open_trusted(path) as fh:
            data = fh.read()
    except FileNotFoundError:
        raise StaleDocs(f"{path.name}: not written yet", expected=True) from None
    except (OSError, UntrustedCacheError) as exc:
        raise StaleDocs(str(exc)) from None
    if len(data) < HEADER.size:
        raise StaleDocs(f"{path}: damaged (shorter than its header); written again")
    magic, fmt, fdims, fgen, n, ftoken, crc, _ = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise StaleDocs(f"{path}: not a rubi documents file; written again")
    if fmt != DOCS_FORMAT:
        raise StaleDocs(f"{path.name}: format {fmt}, not {DOCS_FORMAT}; written again")
    if ftoken.hex() != token or fgen != gen or fdims != dims:
        raise StaleDocs(
            f"{path.name}: of another write of the vectors; written again", expected=True
        )
    at = HEADER.size
    arrays = n * (8 + 4 + 2 * dims)
    if len(data) < at + arrays or zlib.crc32(memoryview(data)[at:]) != crc:
        raise StaleDocs(f"{path}: damaged (sizes or checksum); written again")
    gens = np.frombuffer(data, dtype="<i8", count=n, offset=at)
    passages = np.frombuffer(data, dtype="<i4", count=n, offset=at + 8 * n)
    docs = np.frombuffer(data, dtype="<f2", count=n * dims, offset=at + 12 * n)
    try:
        ids = data[at + arrays :].decode("utf-8").split("\0")
    except UnicodeDecodeError:
        raise StaleDocs(f"{path}: damaged (ids); written again") from None
    if len(ids) != n + 1 or ids[-1] != "" or (passages < 0).any():
        raise StaleDocs(f"{path}: damaged (ids or counts); written again")
    return DocRows(ids[:-1], gens, passages, docs.reshape(n, dims))


def write_docs(path: Path, rows: DocRows, *, token: str, gen: int, dims: int) -> bool:
    """Replace ``path`` with ``rows`` as written for the vectors file of ``token``,
    ``gen`` and ``dims``: a temp file beside it (mode 0600) renamed over it, so a
    reader sees the old file or the new one. Not synced to disk: a file cut short by a
    crash fails its checksum and is written again.

    Returns:
        False, with nothing written, when an id holds a NUL (the separator) or the
        folder is not writable.
    """
    import numpy as np

    if any("\0" in i for i in rows.ids):
        return False
    n = len(rows.ids)
    body = b"".join(
        (
            np.ascontiguousarray(rows.gens, dtype="<i8").tobytes(),
            np.ascontiguousarray(rows.passages, dtype="<i4").tobytes(),
            np.ascontiguousarray(rows.docs, dtype="<f2").tobytes(),
            "".join(i + "\0" for i in rows.ids).encode("utf-8"),
        )
    )
    head = HEADER.pack(MAGIC, DOCS_FORMAT, dims, gen, n, bytes.fromhex(token), zlib.crc32(body), 0)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(head)
            fh.write(body)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        return False
    return True
