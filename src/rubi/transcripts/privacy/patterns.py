"""The pieces every detector of :mod:`rubi.transcripts.privacy` is built from: the span
type, the placeholder, and lazily compiled patterns that start with a literal."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

__all__ = ["CUT_MARGIN", "REDACTED", "WORD", "Rx", "Span", "TokenRule", "token_rule"]

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


TokenRule = tuple[str, Rx, tuple[str, ...], bool, str, int]
"""``(kind, pattern, gates, bounded, back_chars, back_max)``: the pattern runs only
when one of ``gates`` occurs in the text (in its lower-case copy for a
case-insensitive pattern); a match must not follow a word character when
``bounded``; the span reaches back over up to ``back_max`` characters of
``back_chars`` (for formats whose literal part is in the middle)."""

_META = frozenset("\\[](){}.?*+|^$")


def token_rule(
    kind: str,
    pattern: str,
    *,
    gates: tuple[str, ...] = (),
    bounded: bool = True,
    back: str = "",
    most: int = 0,
    flags: int = 0,
) -> TokenRule:
    """A token rule for :func:`rubi.transcripts.privacy.shapes.token_spans`.

    Args:
        kind: the kind written in the mark (``[REDACTED:<kind>]``).
        pattern: the token's regular expression, best starting with a literal.
        gates: substrings of which one must occur in the text for the rule to run
            (default: the pattern's leading literal, lower-cased when ``flags`` has
            ``re.I``): the keyword prefilter.
        bounded: a match must not follow a word character.
        back: characters the span reaches back over (a format whose literal part is
            in the middle); ``most``: at most this many.
        flags: ``re`` flags.

    Returns:
        ``(kind, pattern, gates, bounded, back, most)``, compiled on first use.
    """
    literal = ""  # the literal the pattern starts with
    for c in pattern:
        if c in _META:
            break
        literal += c
    if not gates and literal:
        gates = (literal.lower() if flags & re.I else literal,)
    if bounded and not most:
        # not inside a word, checked right after the literal: a position in the middle
        # of a long run fails at once (linear time on adversarial text)
        guard = f"(?<![A-Za-z0-9_]{re.escape(literal)})" if literal else "(?<![A-Za-z0-9_])"
        pattern = literal + guard + pattern[len(literal) :]
    return kind, Rx(pattern, flags), gates, bounded, back, most
