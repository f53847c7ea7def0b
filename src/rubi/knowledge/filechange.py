"""What changed in a file since a note was written: which definitions it touched and how
much of the file is new, so that a stale flag means "this note may be wrong now".

A file's definitions are read from its text, by two patterns that hold across the
languages the code map reads (a parse would cost ~4 ms a file, 3x the rest):

- a line defining a name with a keyword (``def``, ``class``, ``fn``, ``func``,
  ``function``, ``struct``, ``enum``, ``interface``, ``trait``, ``type``, ``module``,
  ``object``; at any depth, so methods count);
- a top-level assignment (``NAME = ...``, ``NAME: T = ...``, ``const NAME = ...``).

Each spans until the next non-blank line indented no deeper (Python's block, a brace
language's closing brace; a line closing a bracket, as in a multi-line signature's
``) -> T:``, continues it).

Trailing whitespace is ignored. The old and new lines are aligned
(:class:`difflib.SequenceMatcher`, Ratcliff–Obershelp: the one step costing a
millisecond or more a file). A definition is *touched* when a
line of its span was replaced or deleted, lines were inserted inside it, or its name
is no longer defined in the new text (removed or renamed); a line belongs to the
innermost definition holding it, so an edit in a method touches the method, not its
class (a note naming the class alone is about its own lines: header, docstring,
attributes). For a note naming none, the *distance* is the Dice distance of the two
texts' aligned lines, ``1 - 2 * kept / (old lines + new lines)``: 0 for the same
lines, 0.5 when half the file was rewritten or the file tripled in size, 1 when no line
was kept.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

__all__ = [
    "LARGE_CHANGE",
    "MAX_DIFF_LINES",
    "changes_what_it_names",
    "definitions",
    "distance",
    "touched",
]

LARGE_CHANGE = 0.5
""":func:`distance` from which a note naming nothing of a file counts it as changed: half
of the file's lines rewritten, or the file grown to three times its size. Such a note
describes the file as a whole (what it is for, how it is laid out); edits below that
leave most of what it describes in place, and an edit that rewrote a named definition
is caught by name."""

MAX_DIFF_LINES = 20_000
"""Old plus new lines above which the texts are not compared (:func:`file_change`
returns None: the caller keeps the file as changed)."""

_KEYWORD_DEF = re.compile(
    r"^(?P<indent>[ \t]*)"
    r"(?:(?:export|async|pub(?:\([a-z]+\))?|public|private|protected|internal|static"
    r"|final|abstract|override|default|open|data|sealed|inline|unsafe|extern)\s+)*"
    r"(?:def|class|fn|func|function|struct|enum|interface|trait|type|module|object)\s+"
    r"(?:\([^)]*\)\s*)?"  # a Go method's receiver
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
)
_TOP_ASSIGN = re.compile(
    r"(?:export\s+)?(?:(?:const|let|var|val|static|pub)\s+)*"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=(?!=)"
)


def definitions(lines: list[str]) -> dict[str, list[tuple[int, int]]]:
    """The names ``lines`` (a file's) define, each with its spans as 0-based ``[start,
    end)`` line ranges (a name defined twice has two)."""
    indents = [len(x) - len(x.lstrip()) if x.strip() else -1 for x in lines]
    spans: dict[str, list[tuple[int, int]]] = {}
    for i, line in enumerate(lines):
        m = _KEYWORD_DEF.match(line) or (_TOP_ASSIGN.match(line) if indents[i] == 0 else None)
        if m is not None:
            spans.setdefault(m.group("name"), []).append((i, _block_end(lines, indents, i)))
    return spans


def _block_end(lines: list[str], indents: list[int], start: int) -> int:
    """The line after the block opened at ``start``: the next non-blank line indented
    no deeper that does not close a bracket (a Python signature's ``) -> T:``)."""
    depth = indents[start]
    end = start + 1
    while end < len(lines):
        if 0 <= indents[end] <= depth and lines[end].lstrip()[0] not in ")]":
            break
        end += 1
    while end - 1 > start and indents[end - 1] < 0:
        end -= 1  # the blank lines after a block are no one's
    return end


def _owners(
    spans: dict[str, list[tuple[int, int]]], edits: list[tuple[int, int]], size: int
) -> set[str]:
    """The names whose own lines ``edits`` (old-side ``[i1, i2)``; ``i1 == i2``: an
    insertion before line ``i1``) change: a line belongs to the innermost definition
    holding it, so a method's edit is the method's, not its class's."""
    ranked = sorted(
        ((start, end, name) for name, found in spans.items() for start, end in found),
        key=lambda t: (t[0], -t[1]),
    )
    owner: list[str | None] = [None] * size
    for start, end, name in ranked:  # an inner definition starts later: it overwrites
        owner[start:end] = [name] * (end - start)
    hit: set[str] = set()
    for i1, i2 in edits:
        if i1 < i2:
            hit.update(n for n in owner[i1:i2] if n is not None)
        else:  # inserted between two lines: the innermost definition holding both
            inner = [(s, n) for s, e, n in ranked if s < i1 < e]
            if inner:
                hit.add(max(inner)[1])
    return hit


def _lines(data: bytes) -> list[str]:
    """A file's lines, trailing whitespace dropped (UTF-8, a BOM dropped, a byte that is
    not UTF-8 replaced: only equality matters)."""
    return [line.rstrip() for line in data.decode("utf-8-sig", errors="replace").splitlines()]


def distance(a: list[str], b: list[str]) -> float:
    """The Dice distance of two line lists: ``1 - 2 * kept / (len(a) + len(b))``, where
    ``kept`` is the lines :class:`difflib.SequenceMatcher` aligns; 0.0 for the same
    lines, 1.0 when none is kept. The multiset distance (lines shared in any order) is
    a lower bound: when it already reaches :data:`LARGE_CHANGE`, the lines are not
    aligned."""
    if not a and not b:
        return 0.0
    shared = sum((Counter(a) & Counter(b)).values())
    bound = 1.0 - 2.0 * shared / (len(a) + len(b))
    if bound >= LARGE_CHANGE:
        return bound
    import difflib  # only when needed: a search that judges nothing new never imports it

    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    return 1.0 - 2.0 * kept / (len(a) + len(b))


def touched(a: list[str], b: list[str]) -> set[str]:
    """The names defined in the old lines ``a`` whose own lines the change to ``b``
    edits, or that ``b`` no longer defines."""
    import difflib  # only when a note names a definition of a changed file

    before = definitions(a)
    gone = before.keys() - definitions(b).keys()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    edits = [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]
    return set(gone) | _owners(before, edits, len(a))


def changes_what_it_names(names: Collection[str], old: bytes, new: bytes) -> bool | None:
    """Whether a file's change from ``old`` to ``new`` (its bytes) touches what a note
    naming ``names`` says: a definition it names (defined in ``old``) edited, removed or
    renamed (:func:`touched`); when it names none, a :func:`distance` of at least
    :data:`LARGE_CHANGE`. False for the same lines; None when the texts are too long to
    compare (:data:`MAX_DIFF_LINES`)."""
    a, b = _lines(old), _lines(new)
    if a == b:
        return False
    if len(a) + len(b) > MAX_DIFF_LINES:
        return None
    named = definitions(a).keys() & set(names)
    if not named:
        return distance(a, b) >= LARGE_CHANGE
    return bool(named & touched(a, b))
