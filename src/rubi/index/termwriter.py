"""A Whoosh field writer that takes a term's postings at once.

At a flush, Whoosh's ``FieldWriter.add_postings`` walks the sorted postings one at a
time: two order checks, a field-length lookup through the per-document reader and a
call chain down to ``W3PostingsWriter.add_posting`` (four type assertions, a block
check, the block's statistics) for every posting; at 5,000 notes that is 660,000
postings and about a fifth of a full build's Python calls. :func:`bulk_postings`
gives a writer's field writer an ``add_postings`` that groups the postings by
``(field, term)`` and appends each term's postings to the posting writer's block
buffers a block at a time, with the statistics Whoosh keeps per posting taken per
block slice (max weight, min and max non-zero length): the same calls to
``start_field``, ``start_term``, ``finish_term`` and ``finish_field``, the same blocks
written at the same points, so the same segment files to the byte
(``tests/index/test_term_writer.py``). Whoosh's own loop stays for any other codec or
posting writer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import groupby
from operator import itemgetter
from types import MethodType
from typing import Any

from whoosh.codec.base import OutOfOrderError
from whoosh.codec.whoosh3 import W3FieldWriter, W3PostingsWriter
from whoosh.writing import SegmentWriter

__all__ = ["bulk_postings"]

_TERM = itemgetter(0, 1)

Lengths = Callable[[Sequence[int], str], list[Any]]
"""``(docnums, field) -> lengths``: each document's length in the field (what the
per-document reader's ``doc_field_length(docnum, field)`` answers)."""


def bulk_postings(writer: SegmentWriter) -> None:
    """Make ``writer``'s flush write each term's postings at once (see the module
    docstring); a writer whose field writer is not Whoosh 3's is left as it is."""
    fieldwriter = writer.fieldwriter
    if type(fieldwriter) is W3FieldWriter:
        fieldwriter.add_postings = MethodType(_add_postings, fieldwriter)


def _lengths_of(lengths: Any) -> Lengths:
    if not lengths:
        return lambda docnums, fieldname: [0] * len(docnums)
    many = getattr(lengths, "field_lengths", None)
    if many is not None:
        many_lengths: Lengths = many
        return many_lengths
    one = lengths.doc_field_length
    return lambda docnums, fieldname: [one(d, fieldname) for d in docnums]


def _add_postings(fw: W3FieldWriter, schema: Any, lengths: Any, items: Iterable[Any]) -> None:
    """Whoosh's ``FieldWriter.add_postings`` (the same order checks and calls), a term
    at a time."""
    field_lengths = _lengths_of(lengths)
    lastfn: str | None = None
    lasttext: bytes | None = None
    for (fieldname, btext), group in groupby(items, _TERM):
        _check_order(lastfn, lasttext, fieldname, btext)
        if fieldname != lastfn:
            if lasttext is not None:
                fw.finish_term()
            if lastfn is not None:
                fw.finish_field()
            fw.start_field(fieldname, schema[fieldname])
            lastfn, lasttext = fieldname, None
        # docnum -1: a word for the spelling graph, which Whoosh's loop skips too
        postings = [p for p in group if p[2] != -1]
        if not postings:
            continue
        if btext != lasttext:
            if lasttext is not None:
                fw.finish_term()
            fw.start_term(btext)
            lasttext = btext
        docnums = [p[2] for p in postings]
        weights = [p[3] for p in postings]
        values = [b"" if p[4] is None else p[4] for p in postings]
        _add_term(fw, docnums, weights, values, field_lengths(docnums, fieldname))
    if lasttext is not None:
        fw.finish_term()
    if lastfn is not None:
        fw.finish_field()


def _check_order(lastfn: str | None, lasttext: bytes | None, fieldname: str, btext: bytes) -> None:
    """Whoosh's checks that the postings come sorted by field, then term.

    Raises:
        OutOfOrderError: they do not.
    """
    if lastfn is not None and fieldname < lastfn:
        raise OutOfOrderError(f"Field {lastfn!r} .. {fieldname!r}")
    if fieldname == lastfn and lasttext and btext < lasttext:
        raise OutOfOrderError(f"Term {lastfn}:{lasttext!r} .. {fieldname}:{btext!r}")


def _add_term(
    fw: W3FieldWriter,
    docnums: list[int],
    weights: list[Any],
    values: list[bytes],
    lengths: list[Any],
) -> None:
    """Add one term's postings to ``fw``'s posting writer: what its ``add_posting``
    does for each (a full block is written before the next posting is added), a block
    slice at a time."""
    pw = fw._postwriter
    if type(pw) is not W3PostingsWriter or pw._byteids:
        for posting in zip(docnums, weights, values, lengths, strict=True):
            fw.add(*posting)
        return
    limit = pw._blocklimit
    start, count = 0, len(docnums)
    while start < count:
        if len(pw._ids) >= limit:
            pw._write_block()
        end = min(count, start + limit - len(pw._ids))
        block_weights = weights[start:end]
        pw._ids.extend(docnums[start:end])
        pw._weights.extend(block_weights)
        top = max(block_weights)
        if top > pw._maxweight:
            pw._maxweight = top
        pw._values.extend([v for v in values[start:end] if v])
        sized = [n for n in lengths[start:end] if n]
        if sized:
            low, high = min(sized), max(sized)
            if pw._minlength is None or low < pw._minlength:
                pw._minlength = low
            if high > pw._maxlength:
                pw._maxlength = high
        start = end
