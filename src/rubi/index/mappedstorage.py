"""Whoosh's segment files read through a memory map, without a copy.

A Whoosh ``whoosh3`` segment is one compound file (``*.seg``) holding the segment's
sub-files (term table, postings, stored fields, length columns). Opened from a plain
:class:`~whoosh.filedb.filestore.FileStorage`, each read of a sub-file goes through
three Python layers and two system calls (``StructFile.read`` → ``SubFile`` →
``BufferedReader.seek`` and ``read``): a cold recall at 6,334 notes made about 4,600
of them to read the 105 posting lists of one prompt (term look-ups in the hashed term
table, block headers, the blocks). Whoosh's own memory-mapped path is worse for a
process that searches once: its ``BufferFile`` hands each sub-file to ``io.BytesIO``,
which copies it whole (67 MB for the Obsidian Help vault) on open.

:class:`MappedStorage` opens each ``*.seg`` file as one read-only ``mmap`` and gives
Whoosh :class:`MappedFile` windows over it: a read is a slice of the map (one copy of
the bytes asked for, in C), a seek moves an integer. Nothing else changes: the same
bytes reach the same Whoosh decoders, so the postings, the stored fields and every
score are the ones a plain file gives. The table of contents and the other small
files are opened as before. A file that cannot be mapped (empty, or a platform
without ``mmap``) is read as a plain file.

A map stays valid after a merge deletes its segment file (POSIX keeps the pages of an
unlinked file while it is mapped); the map is closed with the segment's compound
storage, when the reader that opened it closes. Used by a process that searches once
(:mod:`rubi.core.segmentreads`): at 6,334 notes the first recall's term look-ups and
postings reads went from 9.8 to 7.9 ms of CPU.
"""

from __future__ import annotations

import mmap
import pickle
from pathlib import Path

from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import StructFile

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MappedFile", "MappedStorage", "storage_for"]

COMPOUND_SUFFIX = ".seg"
"""Whoosh's compound segment files (``W3Segment.COMPOUND_EXT``), the files mapped."""


class _Window:
    """A read-only file object over ``length`` bytes of ``source`` from ``start``
    (what :meth:`StructFile.__iter__` and ``pickle`` read through)."""

    __slots__ = ("_end", "_pos", "_source", "_start", "closed", "name")

    def __init__(self, source: mmap.mmap, start: int, length: int, name: str | None) -> None:
        self._source = source
        self._start = start
        self._end = start + length
        self._pos = start
        self.closed = False
        self.name = name

    def read(self, size: int | None = -1) -> bytes:
        pos = self._pos
        end = self._end if size is None or size < 0 else min(pos + size, self._end)
        if end <= pos:
            return b""
        self._pos = end
        return self._source[pos:end]

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(memoryview(buffer)))
        memoryview(buffer).cast("B")[: len(data)] = data
        return len(data)

    def readline(self, size: int | None = -1) -> bytes:
        pos = self._pos
        limit = self._end if size is None or size < 0 else min(pos + size, self._end)
        found = self._source.find(b"\n", pos, limit)
        end = limit if found < 0 else found + 1
        self._pos = max(pos, end)
        return self._source[pos:end] if end > pos else b""

    def __iter__(self) -> Any:
        while line := self.readline():
            yield line

    def seek(self, where: int, whence: int = 0) -> int:
        if whence == 1:
            where += self._pos - self._start
        elif whence == 2:
            where += self._end - self._start
        self._pos = self._start + max(0, where)
        return self._pos - self._start

    def tell(self) -> int:
        return self._pos - self._start

    def close(self) -> None:
        self.closed = True


class MappedFile(StructFile):  # type: ignore[misc]
    """A Whoosh ``StructFile`` reading ``length`` bytes of a memory map from
    ``start``; :meth:`subset` gives a window of it (what Whoosh's compound storage
    asks for each sub-file). ``owner``: the window that closes the map on
    :meth:`close` (the whole file's)."""

    def __init__(
        self,
        source: mmap.mmap,
        start: int,
        length: int,
        name: str | None = None,
        *,
        owner: bool = False,
    ) -> None:
        window = _Window(source, start, length, name)
        super().__init__(window, name=name)
        self.is_real = False  # no fileno: Whoosh reads arrays through read()
        self.is_closed: bool = False
        self._window = window
        self._source = source
        self._start = start
        self._length = length
        self._owner = owner
        # The hot reads, bound once (Whoosh calls them per posting block).
        self.read = window.read
        self.seek = window.seek
        self.tell = window.tell
        self.readline = window.readline

    def get(self, position: int, length: int) -> bytes:
        """``length`` bytes from ``position`` (fewer at the end), the position kept."""
        start = self._start + max(0, position)
        return self._source[start : min(start + length, self._start + self._length)]

    def read_pickle(self) -> Any:
        return pickle.load(self._window)

    def subset(self, position: int, length: int, name: str | None = None) -> MappedFile:
        return MappedFile(self._source, self._start + position, length, name or self._name)

    def close(self) -> None:
        if self.is_closed:
            raise ValueError("This file is already closed")
        self.is_closed = True
        self._window.close()
        if self.onclose:
            self.onclose(self)
        if self._owner:
            self._source.close()


class MappedStorage(FileStorage):  # type: ignore[misc]
    """A :class:`FileStorage` whose compound segment files are read memory-mapped
    (:class:`MappedFile`); other files, and every write, are Whoosh's.
    ``supports_mmap`` stays False, so Whoosh's compound storage takes the windows
    this storage gives it instead of copying the segment."""

    def __init__(self, path: str) -> None:
        super().__init__(path, supports_mmap=False)

    def open_file(self, name: str, **kwargs: Any) -> Any:
        if not name.endswith(COMPOUND_SUFFIX) or kwargs:
            return super().open_file(name, **kwargs)
        with open(self._fpath(name), "rb") as fh:
            try:
                source = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except (ValueError, OSError):  # empty, or cannot be mapped: a plain file
                return super().open_file(name)
        return MappedFile(source, 0, len(source), name, owner=True)


def storage_for(directory: Path) -> FileStorage:
    """The Whoosh storage an index at ``directory`` is read through: its segments
    memory-mapped (:class:`MappedStorage`) in a process that searches once
    (:mod:`rubi.core.segmentreads`), else plain reads. Never Whoosh's own mmap path,
    which copies each segment whole into memory on open (67 MB for Obsidian Help)."""
    from rubi.core.segmentreads import segments_mapped

    if segments_mapped():
        return MappedStorage(str(directory))
    return FileStorage(str(directory), supports_mmap=False)
