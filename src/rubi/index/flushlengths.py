"""Field lengths read once per field when a Whoosh writer flushes its segment.

The codec writes each posting with its document's length in the posting's field
(for the block's length bounds), and asks the new segment's per-document reader for
it posting by posting: a column lookup through four Python calls, about a tenth of a
full build's flush. :func:`cache_flush_lengths` gives the flush a reader that looks
each document's length up once per field and answers from a list after that: the
same values (the reader's own answers, ``None`` for a zero length byte included).
"""

from __future__ import annotations

from typing import Any

__all__ = ["CachedLengths", "cache_flush_lengths"]


class CachedLengths:
    """A per-document reader whose ``doc_field_length`` answers from one list per
    field, filled from ``reader`` on the field's first question. Everything else is
    ``reader``'s.

    Args:
        reader: the new segment's per-document reader (Whoosh ``PerDocumentReader``).
        doc_count: documents in the segment.
    """

    def __init__(self, reader: Any, doc_count: int) -> None:
        self._reader = reader
        self._doc_count = doc_count
        self._fields: dict[str, list[Any]] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> Any:
        """The reader's ``doc_field_length(docnum, fieldname, default)``."""
        if default != 0 or not 0 <= docnum < self._doc_count:
            return self._reader.doc_field_length(docnum, fieldname, default)
        lengths = self._fields.get(fieldname)
        if lengths is None:
            ask = self._reader.doc_field_length
            lengths = [ask(d, fieldname, 0) for d in range(self._doc_count)]
            self._fields[fieldname] = lengths
        return lengths[docnum]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)


def cache_flush_lengths(writer: Any) -> None:
    """Make a Whoosh ``SegmentWriter`` flush with :class:`CachedLengths` (set before
    its commit)."""
    make_reader = writer.per_document_reader

    def per_document_reader() -> CachedLengths:
        reader = make_reader()
        return CachedLengths(reader, int(reader.doc_count_all()))

    writer.per_document_reader = per_document_reader
