"""A segment's term look-ups and postings read by ``os.pread``, for a long-lived process.

A long-lived process (``rubi serve``, ``rubi watch``) reads the index through Whoosh,
whose term look-up and posting matcher cost a term about 30–40 µs of Python: each read
of the compound file goes through three Python layers and two system calls, and a term
a segment lacks costs a look-up and an exception. A project's index has several
segments (a first build of a large project writes two, :mod:`rubi.index.twoprocess`;
edits add more), and every term of a question is looked up in each: at 6,832 notes
and 870 code files, three segments, 150 look-ups a question, seven in ten of them for
a term the segment lacks, 6.5 ms of a search's CPU.

:class:`SegmentTerms` reads the same bytes as :mod:`rubi.index.segmentfiles` (a
one-shot process's reader), with one ``pread`` for a run of hash slots, one for a
term's key and info, and one or a few for its posting blocks, decoded by
:func:`rubi.index.segmentfiles.decode_blocks`: the same document numbers and weights
Whoosh's matcher gives, in a quarter of the time. No memory map: the pages a map
touches over hours count in the resident memory of the process
(:mod:`rubi.core.segmentreads`); a ``pread`` keeps only the bytes it returns. The
file's directory and term table's header are read once, when the segment is opened.
Unix only (``os.pread``); elsewhere :func:`open_terms` gives None and Whoosh reads.
"""

from __future__ import annotations

import mmap
import os
import pickle
import struct
from contextlib import suppress
from pathlib import Path

from rubi.core.picklefiles import open_trusted
from rubi.index.segmentfiles import (
    _INT,
    _LENGTHS,
    _LONG,
    _POINTER,
    _TERM_INFO,
    _UINT,
    _USHORT,
    compound_directory,
    decode_blocks,
    term_table,
)
from rubi.index.segmentpickles import SegmentFormatError, plain_loads

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.index.segmentfiles import TermTable

__all__ = ["SLOT_RUN", "SegmentTerms", "open_terms"]

SLOT_RUN = 8
"""Hash slots read at once (12 bytes each): a look-up mostly ends within the first."""
VALUE_BYTES = 64
"""Bytes read past a term's key with it: its info (23 bytes) and a posting list's
position, or a short inlined list; a longer value is read again whole."""
_UNPICKLED = (pickle.UnpicklingError, EOFError, TypeError, IndexError, KeyError, AttributeError)
"""What unpickling damaged bytes raises besides ``ValueError`` and ``struct.error``
(the caller reads through Whoosh on :class:`SegmentFormatError`)."""
BLOCK_BYTES = 4096
"""Bytes of a posting list read first; a longer one is read on in larger steps."""


class SegmentTerms:
    """One compound ``whoosh3`` segment file's term table and postings, read by
    ``os.pread`` on a file kept open (:meth:`close` closes it)."""

    __slots__ = ("_fd", "_postings", "_postings_end", "_table", "_table_end")

    def __init__(
        self, fd: int, table: TermTable, postings: int, *, table_end: int, postings_end: int
    ) -> None:
        """``table`` read from the term table's sub-file, which ends at ``table_end``;
        the postings' sub-file from ``postings`` to ``postings_end`` (positions in the
        file ``fd``). Every read stays within its sub-file, as Whoosh's do: a position
        or length past it is a :class:`SegmentFormatError`, not another part's bytes."""
        self._fd = fd
        self._table = table
        self._table_end = table_end
        self._postings = postings
        self._postings_end = postings_end

    @classmethod
    def open(cls, path: Path, name: str) -> SegmentTerms:
        """The segment ``name`` (``MAIN_<segid>``) in its compound file ``path``; its
        directory and term table's header read through a map closed before this
        returns.

        Raises:
            SegmentFormatError: a file of another format, or damaged.
            OSError: no such file (a merge removed it), or it could not be read.
            UntrustedCacheError: a file outside the rubi cache or not the user's own.
        """
        with open_trusted(path) as fh:  # a FIFO would block
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
                try:
                    files = compound_directory(data)
                except (*_UNPICKLED, struct.error) as exc:  # a damaged or foreign file
                    raise SegmentFormatError(f"no segment's directory ({exc!r})") from exc
                try:
                    table_at, table_len = files[f"{name}.trm"]
                    postings, postings_len = files[f"{name}.pst"]
                except KeyError as exc:
                    raise SegmentFormatError(f"no {exc} in the segment") from exc
                size = len(data)
                if not (0 <= table_at <= table_at + table_len <= size) or not (
                    0 <= postings <= postings + postings_len <= size
                ):
                    raise SegmentFormatError("a sub-file past the segment's end")
                try:
                    table = term_table(data, table_at, table_len)
                except (*_UNPICKLED, struct.error) as exc:
                    raise SegmentFormatError(f"a damaged term table ({exc!r})") from exc
            fd = os.dup(fh.fileno())
        return cls(
            fd,
            table,
            postings,
            table_end=table_at + table_len,
            postings_end=postings + postings_len,
        )

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:
        with suppress(OSError, TypeError, AttributeError):  # at interpreter exit: none
            self.close()

    def _read(self, at: int, size: int, end: int) -> bytes:
        """At most ``size`` bytes from ``at``, none past ``end`` (a sub-file's end).

        Raises:
            SegmentFormatError: ``at`` outside ``[0, end)`` (a damaged position).
        """
        if not 0 <= at < end:
            raise SegmentFormatError("a position outside its part of the segment")
        return os.pread(self._fd, min(size, end - at), at)

    def _value(self, field: str, text: str) -> bytes | None:
        """The term's value in the table (its ``W3TermInfo`` and what follows), or None
        when the segment does not hold it: Whoosh's ``HashReader`` probing."""
        t = self._table
        key = _USHORT.pack(t.fieldmap.get(field, 65535)) + text.encode("utf-8")
        keyhash = t.hash(key)
        table, slots = t.tables[keyhash & 255]
        if not slots:
            return None
        slot = (keyhash >> 8) % slots
        probed = 0
        while probed < slots:
            run = min(SLOT_RUN, slots - slot, slots - probed)
            at = t.start + table + slot * _POINTER.size
            chunk = self._read(at, run * _POINTER.size, self._table_end)
            if len(chunk) < run * _POINTER.size:
                raise SegmentFormatError("a term table cut short")
            for i in range(run):
                slothash, item = _POINTER.unpack_from(chunk, i * _POINTER.size)
                if not item:
                    return None
                if slothash == keyhash and (found := self._item(t.start + item, key)) is not None:
                    return found
            probed += run
            slot = (slot + run) % slots
        return None

    def _item(self, at: int, key: bytes) -> bytes | None:
        """The value of the table's item at ``at`` when its key is ``key``, else None."""
        head = _LENGTHS.size
        got = self._read(at, head + len(key) + VALUE_BYTES, self._table_end)
        if len(got) < head:
            raise SegmentFormatError("a term table cut short")
        keylen, datalen = _LENGTHS.unpack_from(got, 0)
        if datalen < 0:
            raise SegmentFormatError("a term's value of a negative length")
        if keylen != len(key) or got[head : head + keylen] != key:
            return None
        value = got[head + keylen : head + keylen + datalen]
        if len(value) < datalen:
            value = self._read(at + head + keylen, datalen, self._table_end)
            if len(value) < datalen:  # a length past the table: no read past it
                raise SegmentFormatError("a term table cut short")
        return value

    def doc_frequency(self, field: str, text: str) -> int:
        """How many documents hold the term (deleted ones included), 0 when none."""
        value = self._value(field, text)
        return 0 if value is None else int(_UINT.unpack_from(value, 5)[0])

    def term_postings(self, field: str, text: str) -> tuple[list[int], Any]:
        """The term's document numbers (ascending, deleted ones included) and weights,
        as :meth:`rubi.index.segmentfiles.ColdSegment.term_postings` gives them; empty
        when the segment does not hold it.

        Raises:
            SegmentFormatError: bytes of another format, a damaged pickle, or a
                position or length past its sub-file (the caller reads through Whoosh
                then); ``zlib.error``, ``struct.error``: a damaged list.
        """
        value = self._value(field, text)
        if value is None:
            return [], []
        info = _TERM_INFO.unpack_from(value, 0)
        rest = _TERM_INFO.size
        try:
            if info[0]:  # inlined: (ids, weights, values)
                ids, weights, _ = plain_loads(value[rest:])
                return list(ids), list(weights) if weights else [1.0] * len(ids)
            offset = _LONG.unpack_from(value, rest)[0]
            return decode_blocks(self._blocks(self._postings + offset), 0)
        except _UNPICKLED as exc:  # damaged bytes where a pickle was written
            raise SegmentFormatError(f"a damaged posting list ({exc!r})") from exc

    def _blocks(self, at: int) -> bytes:
        """The bytes of the posting list at ``at``: its magic and every block, each
        an ``!i`` length (negative for the last) and that many bytes."""
        data = self._read(at, BLOCK_BYTES, self._postings_end)
        pos = 4
        while True:
            if pos + _INT.size > len(data):
                data = self._more(at, data, pos + _INT.size)
            length = _INT.unpack_from(data, pos)[0]
            end = pos + _INT.size + abs(length)
            if end > len(data):
                data = self._more(at, data, end)
            if length < 0:
                return data[:end]
            pos = end

    def _more(self, at: int, data: bytes, wanted: int) -> bytes:
        """``data`` (read from ``at``) read on to at least ``wanted`` bytes."""
        if at + wanted > self._postings_end:  # a declared length past the postings
            raise SegmentFormatError("a posting list cut short")
        more = self._read(at + len(data), max(wanted - len(data), len(data)), self._postings_end)
        if len(data) + len(more) < wanted:
            raise SegmentFormatError("a posting list cut short")
        return data + more


def open_terms(directory: Path | str, leaf: Any) -> SegmentTerms | None:
    """The :class:`SegmentTerms` of a Whoosh segment reader's segment in the index
    folder ``directory``, or None where it cannot be read so (no ``os.pread``, a
    segment that is not one compound file, a file of another format or gone): read
    through Whoosh then."""
    from rubi.core.picklefiles import UntrustedCacheError

    if not hasattr(os, "pread"):
        return None
    segment = leaf.segment() if callable(getattr(leaf, "segment", None)) else None
    if segment is None or not segment.is_compound():
        return None
    try:
        name = str(segment.segment_id())
        return SegmentTerms.open(Path(directory, f"{name}.seg"), name)
    except (OSError, SegmentFormatError, UntrustedCacheError, ValueError):
        return None
