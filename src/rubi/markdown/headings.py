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
_MARKS = "#`~"
"""What a heading or a fence line starts with after its indent: :func:`headings` looks
at no other line (most lines of a note)."""


def body_start(lines: Sequence[str]) -> int:
    """The index of the first body line: after a ``---`` frontmatter block, if any."""
    if lines and lines[0].rstrip() == "---":
        for i in range(1, len(lines)):
            if lines[i].rstrip() in ("---", "..."):
                return i + 1
    return 0


def unfenced(lines: Sequence[str], first: int = 0) -> Iterator[tuple[int, str]]:
    """``(index, line)`` of each line from ``first`` on outside fenced code (```` ``` ````
    or ``~~~``; the fence lines themselves left out). A fence closes on a run of its
    own mark at least as long with nothing after it (CommonMark)."""
    fence = ""
    for i in range(first, len(lines)):
        line = lines[i]
        m = _FENCE.match(line)
        if m:
            fence = _after_fence(fence, line, m.group(1))
            continue
        if not fence:
            yield i, line


def _after_fence(fence: str, line: str, run: str) -> str:
    """The fence open after the fence line ``line`` (its run of marks ``run``), given
    the one open before it (``fence``, "" for none): opened, closed or unchanged. A
    fence closes on a run of its own mark at least as long with nothing after it."""
    if not fence:
        return run[0] * len(run)
    if run.startswith(fence) and not line.strip()[len(run) :].strip():
        return ""
    return fence


def headings(lines: Sequence[str], first: int = 0) -> list[tuple[int, int, str]]:
    """``(line index, level, heading)`` of each ATX heading from ``first`` on; lines
    inside fenced code (```` ``` ```` or ``~~~``) are text, whatever they start with."""
    found: list[tuple[int, int, str]] = []
    fence = ""
    for i in range(first, len(lines)):
        line = lines[i]
        mark = line.lstrip(" ")[:1]
        if not mark or mark not in _MARKS:
            continue  # neither a heading nor a fence: text, fenced or not
        m = _FENCE.match(line)
        if m:  # as unfenced() does
            fence = _after_fence(fence, line, m.group(1))
            continue
        if fence:
            continue
        h = HEADING.match(line)
        if h and h.group(2).strip():
            found.append((i, len(h.group(1)), h.group(2).strip()))
    return found
