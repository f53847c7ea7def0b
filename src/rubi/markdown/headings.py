"""ATX headings and fenced code of markdown lines, by line: the one scanner that cuts a
note into heading sections, for search, ``read`` and the dense channel alike.

Pure text work, standard library only (markdown-it is not needed to find headings).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

__all__ = ["HEADING", "body_start", "headings", "unfenced"]

HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
"""An ATX heading line: group 1 its ``#`` marks, group 2 its text (a closing run of
``#`` after white space left out, CommonMark's rule)."""
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FENCE_MARKS = "`~"
"""What a fence line starts with after its indent."""


def body_start(lines: Sequence[str]) -> int:
    """The index of the first body line: after a ``---`` frontmatter block, if any."""
    if lines and lines[0].rstrip() == "---":
        for i in range(1, len(lines)):
            if lines[i].rstrip() in ("---", "..."):
                return i + 1
    return 0


def unfenced(
    lines: Sequence[str], first: int = 0, *, starting: str | None = None
) -> Iterator[tuple[int, str]]:
    """``(index, line)`` of each line from ``first`` on outside fenced code (```` ``` ````
    or ``~~~``; the fence lines themselves left out). A fence closes on a run of its
    own mark at least as long with nothing after it (CommonMark). ``starting``: only
    the lines whose first character after their indent is one of these (the others
    are not looked at, most lines of a note: a fence line starts with a fence mark)."""
    fence = ""
    for i in range(first, len(lines)):
        line = lines[i]
        lead = ""
        if starting is not None:
            lead = line.lstrip(" ")[:1]
            if not lead or (lead not in starting and lead not in _FENCE_MARKS):
                continue
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if not fence:
                fence = mark[0] * len(mark)
            elif mark.startswith(fence) and not line.strip()[len(mark) :].strip():
                fence = ""
            continue
        if not fence and (starting is None or lead in starting):
            yield i, line


def headings(lines: Sequence[str], first: int = 0) -> list[tuple[int, int, str]]:
    """``(line index, level, heading)`` of each ATX heading from ``first`` on; lines
    inside fenced code (```` ``` ```` or ``~~~``) are text, whatever they start with."""
    found: list[tuple[int, int, str]] = []
    for i, line in unfenced(lines, first, starting="#"):
        h = HEADING.match(line)
        if h and h.group(2).strip():
            found.append((i, len(h.group(1)), h.group(2).strip()))
    return found
