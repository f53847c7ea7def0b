"""The Whoosh field type of rubi's text fields: Whoosh's ``TEXT`` indexed through
:meth:`rubi.index.analysis.TermAnalyzer.term_counts`.

Whoosh indexes a ``TEXT`` field by pulling one Token object per word through every
filter and counting the texts that come out; this field asks its analyzer for the
counts directly (each distinct word analysed once per index run, not per occurrence),
then hands Whoosh the same postings: one ``(term, frequency, weight, value)`` per
distinct term, with weight = frequency × field boost, as Whoosh's ``Frequency`` format
computes them. Searching is Whoosh's own.

A prose field's value may name the document's language (:class:`LanguageText`): it is
then analysed by that language's chain instead of the field's own, so one field holds
the notes of every language, each stemmed as its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from whoosh.fields import TEXT
from whoosh.formats import Frequency
from whoosh.system import pack_uint

from rubi.index.analysis import TermAnalyzer, text_analyzer

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["LanguageText", "TermText"]


class LanguageText(str):
    """A field's text together with the analysis chain it is to get (one of
    :data:`rubi.index.analysis.LANGUAGES`): Whoosh hands a field only its value."""

    lang: str

    def __new__(cls, text: str, lang: str) -> LanguageText:
        made = super().__new__(cls, text)
        made.lang = lang
        return made

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return LanguageText, (str(self), self.lang)


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
        frequency)`` per distinct term, in order of first appearance; analysed in
        ``value.lang`` when it is a :class:`LanguageText`."""
        analyzer = self.analyzer
        if (
            not isinstance(value, str)
            or not isinstance(analyzer, TermAnalyzer)
            or type(self.format) is not Frequency
        ):
            yield from super().index(value, **kwargs)
            return
        lang = getattr(value, "lang", None)
        if lang is not None and lang != analyzer.lang:
            analyzer = text_analyzer(lang)
        boost = float(self.format.field_boost)
        for term, freq in analyzer.term_counts(value).items():
            yield term.encode("utf-8"), freq, freq * boost, _packed(freq)
