"""Every private Whoosh attribute rubi touches, in one place.

``rubi.index`` uses Whoosh (``whoosh-reloaded``, pinned below 2.8 in
``pyproject.toml``) for what it does well: the schema, analysis, the on-disk segment
format (codec ``whoosh3``), writers, merges and the table of contents. rubi's own are
the scorer (:mod:`rubi.index.termscore`: term-at-a-time BM25F over whole posting
lists), the posting pool's run files (:mod:`rubi.index.pool`), the field-length
statistics kept exact across deletions (:mod:`rubi.index.deletions`) and the build
split across two processes (:mod:`rubi.index.twoprocess`). Those reach into Whoosh
objects below its public API; each such reach is a function here, and
``tests/index/test_whoosh_internals.py`` checks each one against the installed
Whoosh (that the attribute exists and has the shape used), so an upgrade that
changes one fails one named test instead of a ranking far away.

The methods of Whoosh's ``PostingPool`` that :class:`rubi.index.pool.RunPool`
overrides are named in :data:`POOL_HOOKS`.
"""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "POOL_HOOKS",
    "block_ids",
    "block_postings",
    "column_bytes",
    "commit_segments",
    "field_length_totals",
    "finalize_segment",
    "finish_writer",
    "has_blocks",
    "lengths_column",
    "next_block",
    "segment_and_docnum",
    "segment_field_lengths",
    "temp_storage",
]

POOL_HOOKS = ("_write_run", "_read_run", "_merge_runs")
"""``whoosh.writing.PostingPool``'s methods that write a sorted run to a file, read one
back and merge runs: :class:`rubi.index.pool.RunPool` replaces all three (its own run
format), keeping Whoosh's signatures ``(self, f, items)``, ``(self, path)``,
``(self, paths)``."""

_BLOCK_MEMBERS = ("_read_ids", "_read_weights", "_next_block", "_atend")


# -- writers (whoosh.writing.SegmentWriter) ----------------------------------------------
def temp_storage(writer: Any) -> Any:
    """The writer's temporary storage, where its posting pool writes run files
    (``SegmentWriter._tempstorage``)."""
    return writer._tempstorage


def finalize_segment(writer: Any) -> Any:
    """Flush the writer's documents into its new segment and return that segment,
    without committing (``SegmentWriter._finalize_segment``)."""
    return writer._finalize_segment()


def commit_segments(writer: Any, segments: Sequence[Any]) -> None:
    """Write the index's table of contents listing exactly ``segments``
    (``SegmentWriter._commit_toc``); :func:`finish_writer` must follow."""
    writer._commit_toc(list(segments))


def finish_writer(writer: Any) -> None:
    """Close the writer and release its lock, committing nothing more
    (``SegmentWriter._finish``)."""
    writer._finish()


def segment_and_docnum(writer: Any, docnum: int) -> tuple[Any, int]:
    """The segment holding the index-wide document ``docnum`` and its number inside
    that segment (``SegmentWriter._segment_and_docnum``)."""
    segment, segdocnum = writer._segment_and_docnum(docnum)
    return segment, int(segdocnum)


def field_length_totals(perdoc_writer: Any) -> dict[str, int]:
    """The per-field totals of document lengths a per-document writer saves with its
    segment (``W3PerDocWriter._fieldlengths``, a ``defaultdict(int)``), changed in
    place."""
    totals: dict[str, int] = perdoc_writer._fieldlengths
    return totals


def segment_field_lengths(segment: Any) -> dict[str, int] | None:
    """A segment's saved per-field length totals (``W3Segment._fieldlengths``), changed
    in place; None for a segment of another codec."""
    lengths: dict[str, int] | None = getattr(segment, "_fieldlengths", None)
    return lengths


# -- readers (whoosh.codec.whoosh3) ----------------------------------------------------
def lengths_column(leaf: Any, field: str) -> Any | None:
    """The column of ``field``'s stored lengths in one segment reader (one byte per
    document), None when no document has the field (``W3PerDocReader._cached_reader``
    of ``_<field>_len``).

    Raises:
        AttributeError: a reader of another codec (ask document by document instead).
    """
    from whoosh.codec.whoosh3 import LENGTHS_COLUMN

    return leaf._perdoc._cached_reader(f"_{field}_len", LENGTHS_COLUMN)


def column_bytes(column: Any) -> bytes:
    """A fixed-width byte column's bytes, read whole (its file ``_dbfile`` from
    ``_basepos``, ``_count`` bytes)."""
    raw: bytes = column._dbfile.get(column._basepos, column._count)
    return raw


def has_blocks(matcher: Any) -> bool:
    """Whether ``matcher`` reads its postings a block (≤ 128) at a time from disk
    (``W3LeafMatcher``), so :func:`block_postings` and :func:`next_block` apply."""
    return all(hasattr(matcher, a) for a in _BLOCK_MEMBERS)


def block_postings(matcher: Any) -> tuple[Sequence[int], Sequence[float]]:
    """The document numbers (ascending) and weights of the matcher's current block,
    decoded (``_read_ids``, ``_read_weights``, then ``_ids``, ``_weights``)."""
    matcher._read_ids()
    matcher._read_weights()
    return matcher._ids, matcher._weights


def block_ids(matcher: Any) -> Sequence[int]:
    """The document numbers of the current block, once decoded (``block_min_id()``
    decodes them): ``W3LeafMatcher._ids``."""
    ids: Sequence[int] = matcher._ids
    return ids


def next_block(matcher: Any) -> None:
    """Move the matcher to its next block (``W3LeafMatcher._next_block``)."""
    matcher._next_block()
