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
_WORD_RE = re.compile(r"[^\W\d_]+")
MIN_VOTES = 5
"""Portuguese stop words needed before a note counts as Portuguese at all."""


def is_portuguese(text: str, sample_chars: int = 20_000) -> bool:
    """True when Portuguese stop words outnumber English ones in the first
    ``sample_chars`` characters and there are at least :data:`MIN_VOTES` of them."""
    pt = en = 0
    for word in _WORD_RE.findall(text[:sample_chars].lower()):
        if word in _PT:
            pt += 1
        elif word in _EN:
            en += 1
    return pt >= MIN_VOTES and pt > en
