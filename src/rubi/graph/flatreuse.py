"""The name tables of the flat graph a write replaces, taken again when their content
is the same.

An edit that moves code edges (an import added) changes every file's rank, so the
whole flat graph is written again (:mod:`rubi.graph.flatwrite`); its name tables
(on spring-framework 60,609 ``names`` keys, 0.12 s of the write's 0.3 s to sort and
encode) are mostly what they were. The writer records a digest of each table's
content in the ``tables`` section (:func:`table_digest`: the keys in the order they
are written and each key's value); the next write computes the digest of the table it
holds and, when the file it replaces has a table of that digest and passes its checks
(owner and mode, header, section table, the CRC of every section a search reads),
copies that table's four sections byte for byte instead of encoding them again. The
file written is the same bytes as one encoded afresh (the sections hold no position
of their own). Judged by content, not by who changed what: a code path that changes
a table changes its digest.

That digest needs the table sorted first (0.03 s for the three tables on
spring-framework, and 0.09 s to digest them). A second digest, of the table in its
own order (:func:`held_digest`: ``marshal`` of the dict, 0.04 s for the three), is
recorded beside it and tried first: the same bytes mean the same keys and values, so
the same sections, and the replaced file's sorted digest is written again for them.
A table of the same content in another order (a graph built another way) misses it
and is found by the sorted digest as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import mmap
import zlib
from collections.abc import Mapping
from itertools import islice
from pathlib import Path
from typing import Any

from rubi.graph.flatlayout import BODY, HEADER, LAZY_FROM, TABLE

__all__ = ["Previous", "held_digest", "previous_tables", "table_digest"]

_MARSHAL_VERSION = 2
"""``marshal`` without back-references (version 3 and later write an object seen twice
as a reference, so equal tables of other object sharing would differ)."""


_CHUNK = 4096
"""Keys digested at a time (their ``marshal`` bytes are all the digest holds)."""


def table_digest(order: list[str], table: Mapping[str, Any]) -> str:
    """A digest of ``table``'s content as written: its keys in ``order`` (sorted) and
    each key's value (lists of strings), :data:`_CHUNK` keys at a time, each part after
    its length. Equal digests mean equal sections; a value ``marshal`` cannot write
    has none ("")."""
    h = hashlib.blake2b(digest_size=20)
    for start in range(0, len(order), _CHUNK):
        keys = order[start : start + _CHUNK]
        try:
            parts = (
                marshal.dumps(keys, _MARSHAL_VERSION),
                marshal.dumps(list(map(table.__getitem__, keys)), _MARSHAL_VERSION),
            )
        except ValueError:
            return ""
        for part in parts:
            h.update(len(part).to_bytes(8, "little"))
            h.update(part)
    return h.hexdigest()


def held_digest(table: dict[str, Any]) -> str:
    """A digest of ``table`` in its own order: its ``marshal`` bytes (keys and values as
    the dict iterates them, :data:`_CHUNK` items at a time, each part after its
    length, so the bytes held at once stay small: 11 MB for spring-framework's
    ``names`` whole), so equal digests mean equal keys and values in one order, and a
    table of the same content in another order differs. "" when ``marshal`` cannot
    write a value (then only :func:`table_digest` is tried, and finds none)."""
    h = hashlib.blake2b(digest_size=20)
    items = iter(table.items())
    while part := dict(islice(items, _CHUNK)):
        try:
            data = marshal.dumps(part, _MARSHAL_VERSION)
        except ValueError:
            return ""
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


class Previous:
    """The flat file a write replaces, checked, and the digests of its name tables
    (sorted: :func:`table_digest`; as held: :func:`held_digest`)."""

    def __init__(
        self,
        data: Any,
        spans: dict[str, tuple[int, int]],
        digests: dict[str, str],
        held: dict[str, str] | None = None,
        tables: dict[str, Any] | None = None,
    ):
        self._data = data
        self._spans = spans
        self._digests = digests
        self._held = held or {}
        self.tables: dict[str, Any] = tables or {}
        """The replaced file's ``tables`` section (JSON), as read."""

    def section(self, name: str) -> memoryview:
        """The bytes of section ``name`` of the replaced file (checked by its CRC)."""
        start, size = self._spans[name]
        return memoryview(self._data)[start : start + size]

    def table(self, name: str, digest: str) -> list[memoryview] | None:
        """The four sections (:data:`~rubi.graph.flatlayout.TABLE`) of table ``name``
        when the replaced file holds it with ``digest``; else None."""
        if not digest or self._digests.get(name) != digest:
            return None
        view = memoryview(self._data)
        return [view[start : start + size] for start, size in self._spans_of(name)]

    def held(self, name: str, held: str) -> tuple[list[memoryview], str] | None:
        """Table ``name``'s four sections and its sorted digest when the replaced file
        holds it with the held digest ``held`` (the same content in the same order);
        else None."""
        digest = self._digests.get(name, "")
        if not held or not digest or self._held.get(name) != held:
            return None
        sections = self.table(name, digest)
        return None if sections is None else (sections, digest)

    def _spans_of(self, name: str) -> list[tuple[int, int]]:
        return [self._spans[f"{name}_{part}"] for part in TABLE]

    def close(self) -> None:
        """Unmap the replaced file (after the write that copied from it)."""
        close = getattr(self._data, "close", None)
        if close is not None:
            with contextlib.suppress(BufferError):  # a view still held: unmapped when collected
                close()


def previous_tables(path: Path) -> Previous | None:
    """The flat file at ``path`` (trusted, of this format and byte order, the sections
    a search reads unchanged since written) and its tables' digests; None when it is
    missing, refused, damaged or records no digests. The link problems, checked only
    when read, are never taken from it."""
    from rubi.graph.flat import _blob, _Damaged, _header, _mapped, _pad, _spans

    try:
        data = _mapped(path)[0]
    except Exception:  # missing, unreadable, untrusted, truncated: written afresh
        return None
    try:
        _header(data)
        spans = _spans(data)
        lazy_from = spans[LAZY_FROM][0] - _pad(spans)
        if zlib.crc32(memoryview(data)[BODY:lazy_from]) != HEADER.unpack_from(data)[7]:
            raise _Damaged("checksum")
        tables = json.loads(_blob(data, spans["tables"]))
        digests, held = tables.get("digests"), tables.get("held")
        if not isinstance(digests, dict):
            raise _Damaged("no digests")
    except (_Damaged, ValueError, TypeError, AttributeError):
        data.close()
        return None
    with contextlib.suppress(AttributeError, OSError, ValueError):
        # the pages the check read leave this process's memory (a peak RSS the size of
        # the file, beside the new one's); a table copied is read again from the cache
        data.madvise(mmap.MADV_DONTNEED)
    return Previous(data, spans, _strings(digests), _strings(held), tables)


def _strings(digests: object) -> dict[str, str]:
    """The string values of a recorded dict of digests (none when not a dict)."""
    if not isinstance(digests, dict):
        return {}
    return {k: v for k, v in digests.items() if isinstance(v, str)}
