"""What changed in a file since a note was written: which definitions it touched and how
much of the file is new, so that a stale flag means "this note may be wrong now".

A file's definitions are read from its text at the note's commit:

- the code map's top-level symbols (:func:`rubi.codemap.lang.parse_source`), each
  spanning from its line to the line before the next symbol (the last one to the end);
- any line defining a name with a keyword (``def``, ``class``, ``fn``, ``func``,
  ``function``, ``struct``, ``enum``, ``interface``, ``trait``, ``type``, ``module``;
  nested ones too, such as methods), spanning until the next non-blank line indented
  no deeper (Python's block, or a brace language's closing brace).

The old and new texts are compared line by line (:class:`difflib.SequenceMatcher`,
Ratcliff–Obershelp; trailing whitespace ignored). A definition is *touched* when a
line of its span was replaced or deleted, lines were inserted inside it, or its name
is no longer defined in the new text (removed or renamed). The *distance* is
``1 - 2 * kept / (old lines + new lines)`` (the Dice distance of the two line lists): 0
for the same text, 0.5 when half the file was rewritten or the file tripled in size,
1 when no line was kept.
"""

from __future__ import annotations

import difflib
import logging
import re
from dataclasses import dataclass

from rubi.codemap.files import decode_source
from rubi.codemap.lang import parse_source
from rubi.codemap.languages import language_of

__all__ = ["MAX_DIFF_LINES", "FileChange", "definitions", "file_change"]

log = logging.getLogger(__name__)

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


def definitions(path: str, text: str) -> dict[str, list[tuple[int, int]]]:
    """The names ``text`` (the file ``path``'s content) defines, each with its spans as
    0-based ``[start, end)`` line ranges (a name defined twice has two)."""
    lines = text.splitlines()
    spans: dict[str, list[tuple[int, int]]] = {}

    def add(name: str, start: int, end: int) -> None:
        for part in {name, name.rpartition(".")[2]}:
            if part:
                spans.setdefault(part, []).append((start, end))

    language = language_of(path)
    if language is not None:
        try:
            symbols = parse_source(language, text).symbols
        except Exception:  # a parser bug on one odd file leaves the keyword definitions
            log.debug("%s: not parsed for the stale check", path, exc_info=True)
            symbols = ()
        starts = sorted({s.line - 1 for s in symbols if 0 < s.line <= len(lines)})
        nexts = dict(zip(starts, [*starts[1:], len(lines)], strict=True))
        for s in symbols:
            if s.line - 1 in nexts:
                add(s.name, s.line - 1, min(nexts[s.line - 1], _block_end(lines, s.line - 1)))
    for i, line in enumerate(lines):
        m = _KEYWORD_DEF.match(line)
        if m is not None:
            add(m.group("name"), i, _block_end(lines, i))
    return spans


def _indent(line: str) -> int:
    return len(line.expandtabs()) - len(line.expandtabs().lstrip())


def _block_end(lines: list[str], start: int) -> int:
    """The line after the block opened at ``start``: the next non-blank line indented
    no deeper that does not close a bracket (a Python signature's ``) -> T:``)."""
    depth = _indent(lines[start])
    end = start + 1
    while end < len(lines):
        nxt = lines[end]
        stripped = nxt.strip()
        if stripped and _indent(nxt) <= depth and stripped[0] not in ")]":
            break
        end += 1
    return end


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
    before = definitions(path, old_text)
    if a == b:
        return FileChange(frozenset(before), frozenset(), 0.0)
    after = definitions(path, new_text)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    edits = [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]
    touched = set(before.keys() - after.keys())
    for name, spans in before.items():
        if name in touched:
            continue
        for start, end in spans:
            if any(
                (start < i1 < end) if i1 == i2 else (i1 < end and i2 > start) for i1, i2 in edits
            ):
                touched.add(name)
                break
    kept = sum(block.size for block in matcher.get_matching_blocks())
    distance = 1.0 - 2.0 * kept / (len(a) + len(b)) if a or b else 0.0
    return FileChange(frozenset(before), frozenset(touched), distance)
