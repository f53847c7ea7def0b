"""Git conflict markers left in a note: a merge someone did not finish.

A conflicted note still parses (the markers are text), so nothing else notices it;
``rubi doctor`` lists each one with the line of its first marker.
"""

from __future__ import annotations

__all__ = ["conflict_line"]

_FENCES = ("```", "~~~")


def conflict_line(text: str) -> int | None:
    """The 1-based line of the first ``<<<<<<<`` marker that a ``=======`` line and a
    ``>>>>>>>`` marker follow, outside fenced code blocks (a note may show a conflict
    as an example); None when there is none."""
    fence: str | None = None
    start: int | None = None
    middle = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        opener = next((f for f in _FENCES if stripped.startswith(f)), None)
        if opener is not None:
            fence = opener
            continue
        if line.startswith("<<<<<<<") and line[7:8] in ("", " "):
            start, middle = number, False
        elif start is not None and line.rstrip() == "=======":
            middle = True
        elif start is not None and middle and line.startswith(">>>>>>>"):
            return start
    return None
