"""A large first build in two processes, each writing a Whoosh segment of its own.

Analysing text and pooling its postings is single-threaded Python: a first build of a
large repository (spring-framework, 10,000 files and 60 MB of text) spends most of its
time there, with one core idle. Whoosh's own answer is ``MpWriter(multisegment=True)``,
whose workers read the documents back from pickled job files. Here the documents are
already in memory when the build starts, so a forked child (:mod:`rubi.core.forked`)
gets them for free:

- the child writes the first part of the documents (half of the text by size) as one
  segment and sends that segment's description back;
- this process writes and flushes the rest as its own segment meanwhile;
- the table of contents then lists the child's segment first, so every document keeps
  the number a one-process build gives it, and nothing is merged.

A multi-segment index answers as a one-segment one (Whoosh sums the statistics over
segments; rubi's scorer does the same), and later edits add segments anyway.

Only where :func:`rubi.core.forked.available` and for builds of at least
:data:`MIN_TEXT_BYTES`: a small build is over before a second process pays. If the
child fails, its part is written here after all (as slow as one process, never lost).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from rubi.core import forked
from rubi.index.whooshinternals import commit_segments, finalize_segment, finish_writer

__all__ = ["MIN_TEXT_BYTES", "split_at", "wanted", "write_in_two"]

log = logging.getLogger(__name__)

MIN_TEXT_BYTES = 8_000_000
"""Text (characters) below which a build stays in one process (about 4 s of analysis
here)."""

NewWriter = Callable[[bool], Any]
"""Makes a Whoosh ``SegmentWriter`` set up as rubi writes (``True``: take the index
lock; the child's writer, ``False``, works under its parent's lock)."""
AddDocs = Callable[[Any, Sequence[Any], int | None], int]
"""Adds documents to a writer and returns how many; the third argument is the whole
build's size, for progress reports (None in the child, which reports nothing)."""


def _text_sizes(docs: Sequence[Any]) -> list[int]:
    """Each document's text size: the sequence's own ``text_sizes()`` when it has one
    (documents made only when read, :class:`rubi.sync.codedocs.RunDocuments`)."""
    sizes = getattr(docs, "text_sizes", None)
    if sizes is not None:
        return list(sizes())
    return [sum(len(v) for v in d.fields.values() if isinstance(v, str)) for d in docs]


def wanted(docs: Sequence[Any]) -> bool:
    """True when ``docs`` (:class:`~rubi.index.indexdoc.IndexDoc`) are worth two processes
    here (see the module docstring)."""
    if len(docs) < 2 or not forked.available():
        return False
    return sum(_text_sizes(docs)) >= MIN_TEXT_BYTES


def split_at(docs: Sequence[Any]) -> int:
    """The index that splits ``docs`` into two parts of about the same text size
    (the first part is ``docs[:k]``, never empty, nor the whole list when two or more)."""
    sizes = [size + 1 for size in _text_sizes(docs)]
    half = sum(sizes) / 2
    seen = 0
    for k, size in enumerate(sizes):
        seen += size
        if seen >= half:
            return max(1, min(k + 1, len(docs) - 1))
    return max(1, len(docs) - 1)


def write_in_two(
    ix: Any, docs: Sequence[Any], new_writer: NewWriter, add_docs: AddDocs, mergetype: Any
) -> int:
    """Write ``docs`` to the empty index ``ix`` in two processes and commit them.

    Args:
        ix: the Whoosh index (just created; this process holds no writer on it).
        docs: the documents, in the order a one-process build adds them (≥ 2).
        new_writer: see :data:`NewWriter`.
        add_docs: see :data:`AddDocs`.
        mergetype: the merge policy the commit takes (``merge_policy``).

    Returns:
        The number of documents written.

    Raises:
        Whatever writing raises in this process (the child is stopped first).
    """
    k = split_at(docs)
    first, rest = docs[:k], docs[k:]

    def child() -> tuple[int, Any]:
        writer = new_writer(False)
        count = add_docs(writer, first, None)
        # its run files are gone; the temporary folder is shared, the parent's to remove
        return count, finalize_segment(writer)

    writer = new_writer(True)

    def here() -> tuple[int, Any]:
        written = add_docs(writer, rest, len(docs))
        return written, finalize_segment(writer)  # flushed while the child still works

    try:
        theirs, (written, mine) = forked.in_two(child, here)
    except BaseException:
        if not writer.is_closed:
            writer.cancel()
        raise
    if isinstance(theirs, forked.ChildFailed):
        log.warning("the second index process failed (%s); writing its part here", theirs.reason)
        finish_writer(writer)  # unlocks; the table of contents never lists its segment
        writer = new_writer(True)
        written = add_docs(writer, docs, len(docs))
        writer.commit(mergetype=mergetype)
        return written
    count, segment = theirs
    # As SegmentWriter.commit ends, with the child's segment first. The index was
    # empty, so there was nothing for ``mergetype`` to merge.
    commit_segments(writer, [*mergetype(writer, list(writer.segments)), segment, mine])
    finish_writer(writer)
    return written + int(count)
