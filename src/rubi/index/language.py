"""Guess whether a note is Portuguese, so it is also indexed with Portuguese stemming.

A stop-word vote (after Cavnar & Trenkle's observation that function words identify
a language best): cheap, no model, good enough for whole notes.
"""

from __future__ import annotations

import re

__all__ = ["is_portuguese"]

_PT = frozenset(
    [
        "de",
        "que",
        "não",
        "uma",
        "para",
        "com",
        "os",
        "as",
        "é",
        "em",
        "do",
        "da",
        "dos",
        "das",
        "no",
        "na",
        "nos",
        "nas",
        "um",
        "ao",
        "à",
        "pelo",
        "pela",
        "também",
        "são",
        "está",
        "você",
        "mais",
        "como",
        "mas",
        "foi",
    ]
)
_EN = frozenset(
    [
        "the",
        "and",
        "is",
        "to",
        "of",
        "in",
        "that",
        "it",
        "for",
        "with",
        "on",
        "are",
        "this",
        "be",
        "as",
        "you",
        "was",
        "by",
    ]
)
_EN_ONLY = _EN - _PT
"""English stop words that are not Portuguese ones too (``as`` votes Portuguese)."""
_WORD_RE = re.compile(r"[^\W\d_]+")
MIN_VOTES = 5
"""Portuguese stop words needed before a note counts as Portuguese at all."""


def is_portuguese(text: str, sample_chars: int = 20_000) -> bool:
    """True when Portuguese stop words outnumber English ones in the first
    ``sample_chars`` characters and there are at least :data:`MIN_VOTES` of them."""
    words = _WORD_RE.findall(text[:sample_chars].lower())
    pt = sum(map(_PT.__contains__, words))  # counted in C, not a Python loop
    if pt < MIN_VOTES:
        return False
    return pt > sum(map(_EN_ONLY.__contains__, words))
