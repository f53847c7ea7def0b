"""The writer's posting pool: Whoosh's external sort with cheaper runs.

A Whoosh writer collects every posting ``(field, term bytes, docnum, weight, value
bytes)`` in a pool, sorts it and hands it to the codec at commit. Past
:data:`rubi.index.writing.WRITER_LIMIT_MB` the pool sorts what it holds into a run on
disk, and the commit merges the runs. Whoosh's pool pickles each posting into its run
one call at a time, reads them back one at a time, writes the postings still in memory
into one more run before merging, and merges posting by posting: at 5,000 notes the
spills cost about a fifth of a full build.

:class:`RunPool` gives the codec the same postings in the same order and keeps the
same memory bound, but

- writes a run as ``marshal`` blocks of :data:`BLOCK` postings, each after its length,
  and reads a block at a time;
- merges the postings still in memory with the runs without writing them out;
- merges by term: the postings of one ``(field, term)`` are a group, and a term's
  groups are taken in run order. A writer adds documents with growing numbers, so a
  term's postings in an earlier run all come before those in a later one, and joining
  them in run order is their sorted order; where that does not hold (checked at each
  join) the term's postings are sorted, which is what a merge posting by posting gives.

Runs live in the writer's temporary storage inside the index folder, are written and
read by the same writer and deleted as they are read.
"""

from __future__ import annotations

import heapq
import marshal
import struct
from collections.abc import Iterable, Iterator
from itertools import chain, groupby, pairwise
from operator import itemgetter
from typing import IO, Any

from whoosh.writing import PostingPool

__all__ = ["BLOCK", "Posting", "RunPool"]

Posting = tuple[str, bytes, int, Any, bytes | None]
"""One posting as Whoosh pools it: field name, term bytes, document number, weight,
value bytes (or None)."""

BLOCK = 8192
"""Postings per ``marshal`` block of a run (about 1 MB of a run's file; one block per
run is in memory while the runs are merged)."""

_POSTING_BYTES = 150
"""Whoosh's estimate of a posting's size in memory, less its strings' lengths (a
tuple, a field name, a term, a document number, a weight and a value)."""

_TERM = itemgetter(0, 1)
_HEADER = struct.Struct("<Q")
"""A block's length in bytes, before it (``marshal.load`` from a file reads it a
few bytes at a time through Python calls: 15 times slower than ``loads``)."""


class RunPool(PostingPool):  # type: ignore[misc]
    """Whoosh's :class:`~whoosh.writing.PostingPool` with cheaper runs (see the module
    docstring). Same constructor; set as a new writer's ``pool`` before its first
    document."""

    current: list[Posting]
    runs: list[str]
    currentsize: int
    limit: int

    def add(self, item: Posting) -> None:
        """Pool one posting; sort the pool into a run past the limit (Whoosh's size
        estimate per posting, in one expression)."""
        self.currentsize += _POSTING_BYTES + len(item[0]) + 2 * len(item[1]) + len(item[4] or b"")
        if self.currentsize > self.limit:
            self.save()
        self.current.append(item)

    def _write_run(self, f: IO[bytes], items: Iterable[Posting]) -> None:
        try:
            if isinstance(items, list):
                for start in range(0, len(items), BLOCK):
                    _write_block(f, items[start : start + BLOCK])
            else:
                block: list[Posting] = []
                for item in items:
                    block.append(item)
                    if len(block) >= BLOCK:
                        _write_block(f, block)
                        block = []
                if block:
                    _write_block(f, block)
        finally:
            f.close()

    def _read_run(self, path: str) -> Iterator[Posting]:
        f = self._open_run(path)
        try:
            while header := f.read(_HEADER.size):
                (size,) = _HEADER.unpack(header)
                data = f.read(size)
                if len(header) != _HEADER.size or len(data) != size:
                    raise OSError(f"{path}: a run of the index writer ends early")
                yield from marshal.loads(data)
        finally:
            f.close()
            self._remove_run(path)

    def _merge_runs(self, paths: list[str]) -> Iterator[Posting]:
        return _merge_sorted([self._read_run(path) for path in paths])

    def items(self, maxfiles: int = 128) -> Iterable[Posting]:
        """Every posting, sorted: the pool itself when nothing was spilled, else the
        runs merged with what is still in memory."""
        if maxfiles < 2:
            raise ValueError(f"maxfiles={maxfiles} must be >= 2")
        current = self.current
        if not self.runs:
            return sorted(current)
        if maxfiles <= len(self.runs):
            self.save()  # few enough open files: merge runs into runs first
            self.reduce_to(maxfiles, maxfiles)
            current = []
        current.sort()
        self.current = []
        runs, self.runs = self.runs, []
        return _merge_sorted([*(self._read_run(path) for path in runs), iter(current)])


def _write_block(f: IO[bytes], block: list[Posting]) -> None:
    data = marshal.dumps(block)
    f.write(_HEADER.pack(len(data)))
    f.write(data)


def _merge_sorted(sources: list[Iterator[Posting]]) -> Iterator[Posting]:
    """The postings of sorted ``sources`` in sorted order, as ``heapq.merge`` gives
    them (a tie goes to the earlier source), merged a term at a time."""
    groups = [
        ((key, i, list(postings)) for key, postings in groupby(source, _TERM))
        for i, source in enumerate(sources)
    ]
    same: list[list[Posting]] = []
    last: tuple[str, bytes] | None = None
    for key, _, postings in heapq.merge(*groups):
        if key != last:
            if same:
                yield from _joined(same)
            same, last = [postings], key
        else:
            same.append(postings)
    if same:
        yield from _joined(same)


def _joined(groups: list[list[Posting]]) -> Iterable[Posting]:
    """One term's postings from each source (in source order), in sorted order."""
    if len(groups) == 1:
        return groups[0]
    for before, after in pairwise(groups):
        if before[-1] > after[0]:
            return sorted(chain.from_iterable(groups))  # stable: ties keep source order
    return chain.from_iterable(groups)
