"""The Whoosh field type of rubi's text fields: Whoosh's ``TEXT`` indexed through
:meth:`rubi.index.analysis.TermAnalyzer.term_counts`.

Whoosh indexes a ``TEXT`` field by pulling one Token object per word through every
filter and counting the texts that come out; this field asks its analyzer for the
counts directly (each distinct word analysed once per index run, not per occurrence),
then hands Whoosh the same postings: one ``(term, frequency, weight, value)`` per
distinct term, with weight = frequency × field boost, as Whoosh's ``Frequency`` format
computes them. Searching is Whoosh's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whoosh.fields import TEXT
from whoosh.formats import Frequency
from whoosh.system import pack_uint

from rubi.index.analysis import TermAnalyzer

__all__ = ["TermText"]

_PACKED: tuple[bytes, ...] = tuple(pack_uint(i) for i in range(256))
"""Encoded frequencies below 256, shared: a full build's posting pool holds one value
per posting, and a fresh 5-byte ``bytes`` each is about a sixth of the pool."""


def _packed(freq: int) -> bytes:
    return _PACKED[freq] if freq < 256 else bytes(pack_uint(freq))


class TermText(TEXT):  # type: ignore[misc]
    """A ``TEXT`` field (frequencies, no positions) whose analyzer is a
    :class:`~rubi.index.analysis.TermAnalyzer`.

    Args:
        analyzer: the field's analyzer.
        stored: keep the value in the stored fields.
    """

    def __init__(self, analyzer: TermAnalyzer, *, stored: bool = False) -> None:
        super().__init__(analyzer=analyzer, phrase=False, stored=stored)

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        """Postings of ``value``: ``(term as UTF-8, frequency, weight, encoded
        frequency)`` per distinct term, in order of first appearance."""
        analyzer = self.analyzer
        if (
            not isinstance(value, str)
            or not isinstance(analyzer, TermAnalyzer)
            or type(self.format) is not Frequency
        ):
            yield from super().index(value, **kwargs)
            return
        boost = float(self.format.field_boost)
        for term, freq in analyzer.term_counts(value).items():
            yield term.encode("utf-8"), freq, freq * boost, _packed(freq)
