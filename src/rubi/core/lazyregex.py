"""A regular expression compiled on first use.

Compiling a pattern costs its process once, at import when the module compiles it
there: a character class of non-Latin ranges (CJK, Cyrillic) costs 0.5–3 ms of CPU, as
``re`` builds a table over every code point of the range. A cold hook or ``rubi
search`` imports many modules and, for an ASCII prompt, uses few of their patterns;
:class:`Rx` compiles a pattern the first time it is used, with the same flags, so the
matches are those of ``re.compile(source, flags)``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator

__all__ = ["Rx"]


class Rx:
    """``re.compile(source, flags)``, compiled on first use (thread-safe: a race
    compiles the same pattern twice). The methods are the compiled pattern's."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        """The compiled pattern."""
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        """The source, as ``re.Pattern.pattern`` (not compiled for this)."""
        return self._source

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

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[str]:
        return self.rx.findall(text, pos, endpos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.rx.match(text, pos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.rx.search(text, pos, endpos)

    def split(self, text: str) -> list[str]:
        return self.rx.split(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.rx.sub(repl, text, count)
