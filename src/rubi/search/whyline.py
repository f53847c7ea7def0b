"""A hit's reasons as a reader sees them (``why`` lines): kept apart from
:mod:`rubi.search.render` (which re-exports them), so that a search, which writes each
hit's lines, does not import the renderer a cold recall never runs (its classes and
module: 0.3 ms of a cold hook)."""

from __future__ import annotations

from rubi.search.hits import Why

__all__ = ["TITLE_CHARS", "WHY_FORMATS", "capped", "why_line"]

TITLE_CHARS = 160
"""Characters of a title (or a reason's detail) shown at most: a note whose first
heading is a whole paragraph must not spend the budget on its header."""

WHY_FORMATS = {
    "named": 'named: "{}"',
    "text": "text match: {}",
    "linked": 'linked to "{}"',
    "semantic": 'close in meaning: "{}"',
    "variant_of": "variant of {}",
    "imported_by": "imported by {}",
    "also": "also: {}",
}
"""How each kind of :class:`~rubi.search.hits.Why` reads (``{}`` is its text)."""


def why_line(why: Why) -> str:
    """One reason as shown: ``named: "Router"``, ``text match: router (title)``,
    ``linked to "Embed files"``, ``variant of gin/binding.go``, ``imported by 12``;
    the evidence its list voted on, if any, follows in parentheses
    (``named: "Random note" (rare: in 3 documents, 80% of the question)``).

    Raises:
        KeyError: a kind not in :data:`WHY_FORMATS`.
    """
    line = WHY_FORMATS[why.kind].format(capped(why.text))
    return f"{line} ({why.evidence})" if why.evidence else line


def capped(text: str, limit: int = TITLE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
