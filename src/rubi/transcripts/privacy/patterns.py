"""The pieces every detector of :mod:`rubi.transcripts.privacy` is built from: the span
type, the placeholder, and lazily compiled patterns that start with a literal."""

from __future__ import annotations

import re

from rubi.core.lazyregex import Rx

__all__ = ["CUT_MARGIN", "IGNORE_CASE", "REDACTED", "WORD", "Rx", "Span", "TokenRule", "token_rule"]

REDACTED = "[REDACTED:{kind}]"

CUT_MARGIN = 16_384
"""Characters past a cut that :func:`redact_cut` still reads. A secret that starts
before the cut and ends past this margin would be longer than 16 KB; the only such
ones (PEM keys) are recognised without their end, and an open ``<private>`` span is
closed at the cut."""

Span = tuple[int, int, str]
"""``(start, end, kind)`` of a secret in a text (character offsets)."""


IGNORE_CASE = int(re.IGNORECASE)
"""``re.I`` as a plain int: ``flags & re.I`` on an int is ``RegexFlag.__rand__``, Python
code that makes a flag of the result (about 7k instructions a test; this module tests
each of its ~90 rules' flags at import)."""

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
        gates = (literal.lower() if int(flags) & IGNORE_CASE else literal,)
    if bounded and not most:
        # not inside a word, checked right after the literal: a position in the middle
        # of a long run fails at once (linear time on adversarial text)
        guard = f"(?<![A-Za-z0-9_]{re.escape(literal)})" if literal else "(?<![A-Za-z0-9_])"
        pattern = literal + guard + pattern[len(literal) :]
    return kind, Rx(pattern, flags), gates, bounded, back, most
