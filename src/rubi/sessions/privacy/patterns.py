"""The pieces every detector of :mod:`rubi.sessions.privacy` is built from: the span
type, the placeholder, and lazily compiled patterns that start with a literal."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

__all__ = ["CUT_MARGIN", "REDACTED", "WORD", "Rx", "Span"]

REDACTED = "[REDACTED:{kind}]"

CUT_MARGIN = 16_384
"""Characters past a cut that :func:`redact_cut` still reads. A secret that starts
before the cut and ends past this margin would be longer than 16 KB; the only such
ones (PEM keys) are recognised without their end, and an open ``<private>`` span is
closed at the cut."""

Span = tuple[int, int, str]
"""``(start, end, kind)`` of a secret in a text (character offsets)."""


class Rx:
    """A regular expression compiled on first use: a hook process pays only for the
    patterns its text can match (compiling all of them costs ~10 ms)."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def flags(self) -> int:
        return self._flags

    @property
    def groups(self) -> int:
        return self.rx.groups

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.rx.finditer(text, pos, endpos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.rx.match(text, pos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.rx.search(text, pos, endpos)

    def split(self, text: str) -> list[str]:
        return self.rx.split(text)


WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
