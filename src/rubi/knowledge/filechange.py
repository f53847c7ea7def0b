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

The old and new texts are compared line by line (:class:`difflib.SequenceMatcher`,
Ratcliff–Obershelp; trailing whitespace ignored). A definition is *touched* when a
line of its span was replaced or deleted, lines were inserted inside it, or its name
is no longer defined in the new text (removed or renamed); a line belongs to the
innermost definition holding it, so an edit in a method touches the method, not its
class (a note naming the class alone is about its own lines: header, docstring,
attributes). The *distance* is
``1 - 2 * kept / (old lines + new lines)`` (the Dice distance of the two line lists): 0
for the same text, 0.5 when half the file was rewritten or the file tripled in size,
1 when no line was kept.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from rubi.codemap.files import decode_source
from rubi.codemap.languages import language_of

__all__ = ["MAX_DIFF_LINES", "FileChange", "definitions", "file_change"]

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


@dataclass(frozen=True, slots=True)
class FileChange:
    """How a file changed between two texts.

    Attributes:
        defined: names defined in the old text (a dotted symbol also by its last part).
        touched: those of ``defined`` whose definition changed or is gone.
        distance: Dice distance of the two texts' lines, 0.0 (same) to 1.0 (nothing kept).
    """

    defined: frozenset[str]
    touched: frozenset[str]
    distance: float


def definitions(text: str) -> dict[str, list[tuple[int, int]]]:
    """The names ``text`` defines, each with its spans as 0-based ``[start, end)`` line
    ranges (a name defined twice has two)."""
    lines = text.splitlines()
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


def _text(path: str, data: bytes) -> str:
    return decode_source(data, language_of(path) or "").text


def file_change(path: str, old: bytes, new: bytes) -> FileChange | None:
    """How the file ``path`` (a repository path: its language comes from its name)
    changed from ``old`` to ``new`` (its bytes); None when the texts are too long to
    compare (:data:`MAX_DIFF_LINES`)."""
    old_text, new_text = _text(path, old), _text(path, new)
    a = [line.rstrip() for line in old_text.splitlines()]
    b = [line.rstrip() for line in new_text.splitlines()]
    if len(a) + len(b) > MAX_DIFF_LINES:
        return None
    before = definitions(old_text)
    if a == b:
        return FileChange(frozenset(before), frozenset(), 0.0)
    after = definitions(new_text)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    edits = [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]
    touched = set(before.keys() - after.keys())
    touched.update(_owners(before, edits, len(a)))
    kept = sum(block.size for block in matcher.get_matching_blocks())
    distance = 1.0 - 2.0 * kept / (len(a) + len(b)) if a or b else 0.0
    return FileChange(frozenset(before), frozenset(touched), distance)
