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

Trailing whitespace is ignored. A definition is *touched* when its own non-blank lines
differ between the old and new text, or its name is no longer defined in the new one
(removed or renamed); a line belongs to the innermost definition holding it, so an edit
in a method touches the method, not its class (a note naming the class alone is about
its own lines: header, docstring, attributes), and a definition moved unchanged is not
touched. For a note naming none, the *distance* is the Dice distance of the two texts'
lines aligned by :class:`difflib.SequenceMatcher` (Ratcliff–Obershelp),
``1 - 2 * kept / (old lines + new lines)``: 0 for the same lines, 0.5 when half the
file was rewritten or the file tripled in size, 1 when no line was kept.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

__all__ = [
    "LARGE_CHANGE",
    "MAX_ALIGNED_PAIRS",
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

MAX_ALIGNED_PAIRS = 1_000_000
"""Pairs of equal lines (one old, one new, outside the common first and last lines) above
which the lines are not aligned (:func:`changes_what_it_names` returns None: the caller
keeps the file as changed). :class:`difflib.SequenceMatcher` without its junk heuristic
visits each such pair at each level of its recursion: a file of few distinct lines
(blank lines, ``}``, a data file's repeated values) edited every 50 lines cost 312 s of
CPU at 10,000 lines (32 M pairs); at this bound such a file costs about 1.6 s, and a
6,500-line module edited at 0.5-10% of its lines (0.9 M pairs) 0.3-0.4 s."""

_DEF = re.compile(
    r"^(?:[ \t]*"  # a keyword definition, at any depth
    r"(?:(?:export|async|pub(?:\([a-z]+\))?|public|private|protected|internal|static"
    r"|final|abstract|override|default|open|data|sealed|inline|unsafe|extern)[ \t]+)*"
    r"(?:def|class|fn|func|function|struct|enum|interface|trait|type|module|object)[ \t]+"
    r"(?:\([^)\n]*\)[ \t]*)?"  # a Go method's receiver
    r"|(?:export[ \t]+)?(?:(?:const|let|var|val|static|pub)[ \t]+)*"  # a top-level assignment
    r"(?=[A-Za-z_][A-Za-z0-9_]*[ \t]*(?::[^=\n]*)?=(?!=)))"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)",
    re.MULTILINE,
)


def definitions(lines: list[str]) -> dict[str, list[tuple[int, int]]]:
    """The names ``lines`` (a file's) define, each with its spans as 0-based ``[start,
    end)`` line ranges (a name defined twice has two)."""
    text = "\n".join(lines)
    found: list[tuple[str, int]] = []
    line, at = 0, 0
    for m in _DEF.finditer(text):
        line += text.count("\n", at, m.start())
        at = m.start()
        found.append((m.group("name"), line))
    ends = _block_ends(lines, {start for _, start in found})
    spans: dict[str, list[tuple[int, int]]] = {}
    for name, start in found:
        spans.setdefault(name, []).append((start, ends[start]))
    return spans


def _defined(lines: list[str]) -> set[str]:
    """The names ``lines`` define (:func:`definitions` without the spans)."""
    return {m.group("name") for m in _DEF.finditer("\n".join(lines))}


def _block_ends(lines: list[str], starts: Collection[int]) -> dict[int, int]:
    """The line after the block opened at each of ``starts``: the next non-blank line
    indented no deeper that does not close a bracket (a Python signature's ``) -> T:``),
    the blank lines before it left out. Lines have no trailing whitespace
    (:func:`_lines`). One pass with the open blocks on a stack (each indented deeper than
    the one below it): a file nesting blocks n deep costs n lines, not n**2."""
    ends: dict[int, int] = {}
    opened: list[tuple[int, int]] = []  # (start, indentation)
    last_text = -1  # the last non-blank line before this one
    for i, line in enumerate(lines):
        depth = 0
        if line:
            body = line.lstrip()
            depth = len(line) - len(body)
            if body[0] not in ")]":
                while opened and opened[-1][1] >= depth:
                    ends[opened.pop()[0]] = last_text + 1
            last_text = i
        if i in starts:
            opened.append((i, depth))
    for start, _ in opened:
        ends[start] = last_text + 1
    return ends


def _own_lines(lines: list[str], spans: dict[str, list[tuple[int, int]]]) -> dict[str, list[str]]:
    """Each defined name's own non-blank lines: a line belongs to the innermost
    definition holding it (a method's lines are the method's, not its class's). Spans
    nest (:func:`_block_ends`): the innermost is the last opened that has not ended."""
    starting = {start: (end, name) for name, found in spans.items() for start, end in found}
    own: dict[str, list[str]] = {name: [] for name in spans}
    holding: list[tuple[int, str]] = []  # (end, name), innermost last
    for i, line in enumerate(lines):
        while holding and holding[-1][0] <= i:
            holding.pop()
        if i in starting:
            holding.append(starting[i])
        if holding and line:
            own[holding[-1][1]].append(line)
    return own


def _lines(data: bytes) -> list[str]:
    """A file's lines, trailing whitespace dropped (UTF-8, a BOM dropped, a byte that is
    not UTF-8 replaced: only equality matters)."""
    return [line.rstrip() for line in data.decode("utf-8-sig", errors="replace").splitlines()]


def _common_ends(a: list[str], b: list[str]) -> tuple[int, int]:
    """How many first and how many last lines ``a`` and ``b`` share (not overlapping)."""
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


def _aligned_pairs(a: list[str], b: list[str]) -> int:
    """The pairs of equal lines, one of ``a`` and one of ``b``, outside their common first
    and last lines: what aligning them costs (:data:`MAX_ALIGNED_PAIRS`)."""
    head, tail = _common_ends(a, b)
    counts = Counter(b[head : len(b) - tail])
    return sum(n * counts[line] for line, n in Counter(a[head : len(a) - tail]).items())


def _kept(a: list[str], b: list[str]) -> int:
    """How many lines the alignment of ``a`` with ``b`` keeps
    (:class:`difflib.SequenceMatcher`); the common first and last lines are set aside
    first (the same answer, for a fraction of the work on a local edit)."""
    import difflib  # only when needed: a search that judges nothing new never imports it

    head, tail = _common_ends(a, b)
    matcher = difflib.SequenceMatcher(
        None, a[head : len(a) - tail], b[head : len(b) - tail], autojunk=False
    )
    return head + tail + sum(block.size for block in matcher.get_matching_blocks())


def _bound(a: list[str], b: list[str]) -> float:
    """The multiset distance of two line lists (lines shared in any order), a lower
    bound of :func:`distance`; 0.0 for two empty lists."""
    if not a and not b:
        return 0.0
    shared = sum((Counter(a) & Counter(b)).values())
    return 1.0 - 2.0 * shared / (len(a) + len(b))


def distance(a: list[str], b: list[str]) -> float:
    """The Dice distance of two line lists: ``1 - 2 * kept / (len(a) + len(b))``, where
    ``kept`` is the lines the alignment keeps (:func:`_kept`); 0.0 for the same
    lines, 1.0 when none is kept. The multiset distance (lines shared in any order) is
    a lower bound: when it already reaches :data:`LARGE_CHANGE`, the lines are not
    aligned."""
    if not a and not b:
        return 0.0
    bound = _bound(a, b)
    if bound >= LARGE_CHANGE:
        return bound
    return 1.0 - 2.0 * _kept(a, b) / (len(a) + len(b))


def touched(
    a: list[str], b: list[str], before: dict[str, list[tuple[int, int]]] | None = None
) -> set[str]:
    """The names defined in the old lines ``a`` (``before``: their
    :func:`definitions`, when known) whose own lines differ in ``b`` (edited, or the
    name no longer defined there: removed or renamed). Compared name by name, without
    aligning the files: a definition moved as it was is not touched."""
    old = _own_lines(a, definitions(a) if before is None else before)
    new = _own_lines(b, definitions(b))
    return {name for name, lines in old.items() if new.get(name) != lines}


def changes_what_it_names(names: Collection[str], old: bytes, new: bytes) -> bool | None:
    """Whether a file's change from ``old`` to ``new`` (its bytes) touches what a note
    naming ``names`` says: a definition it names (defined in ``old``) edited, removed or
    renamed (:func:`touched`); when it names none, a :func:`distance` of at least
    :data:`LARGE_CHANGE`. False for the same lines; None when the texts are too long to
    compare (:data:`MAX_DIFF_LINES`) or, naming none, too costly to align
    (:data:`MAX_ALIGNED_PAIRS`)."""
    a, b = _lines(old), _lines(new)
    if a == b:
        return False
    if len(a) + len(b) > MAX_DIFF_LINES:
        return None
    before = definitions(a)
    named = before.keys() & set(names)
    if not named:
        if _bound(a, b) < LARGE_CHANGE and _aligned_pairs(a, b) > MAX_ALIGNED_PAIRS:
            return None
        return distance(a, b) >= LARGE_CHANGE
    return bool(named & touched(a, b, before))
