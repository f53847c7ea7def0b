"""Where a text holds configuration data rather than code or prose: YAML documents
between ``---`` lines (frontmatter, or one pasted in a message), fenced blocks of a
data language (YAML, TOML, INI, properties, dotenv) and INI/TOML sections (a
``[section]`` line and the ``key = value`` lines under it).

In data a bare word after ``password:`` or ``password =`` is the value itself
(``password: CorrectHorseBatteryStaple``); in code the same shape is a type hint or a
variable (``password: SecretStr``, ``password = new_password``). The name rule of
:mod:`.secretnames` asks here which of the two a line is.
"""

from __future__ import annotations

import bisect

from rubi.transcripts.privacy.patterns import Rx

__all__ = ["DataRanges"]

DATA_LANGUAGES = frozenset(
    [
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "config",
        "properties",
        "env",
        "dotenv",
        "editorconfig",
        "desktop",
        "systemd",
        "gitconfig",
        "npmrc",
        "pypirc",
    ]
)
"""Info strings of fenced blocks whose lines are ``key: value`` or ``key = value``
data (a fence's first word, lower case)."""

_FENCE = Rx(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`{]*)")
_SECTION = Rx(r"^[ \t]*\[{1,2}[A-Za-z0-9_][^\[\]\n]{0,80}\]{1,2}[ \t]*$")
_ENTRY = Rx(r"^[ \t]*(?:[#;].*|[A-Za-z0-9_][\w.\-\"' ]{0,80}[ \t]*[=:].*)$")
"""A line inside an INI/TOML section: a comment or ``key = value``."""


_YAML_LINE = Rx(
    r"^(?:[ \t]*#.*|[ \t]*-(?:[ \t].*)?|[ \t]*[\w.\-\"'/ ]{1,80}:(?:[ \t].*)?|[ \t]+\S.*|[ \t]*)$"
)
"""A line of a YAML document: a comment, a list item, ``key: value``, a continuation."""
_YAML_KEY = Rx(r"^[ \t]*[\w.\-\"'/ ]{1,80}:(?:[ \t]|$)")
YAML_DOCUMENT_LINES = 200
"""Lines a YAML document between ``---`` lines may have (frontmatter is short)."""


def _yaml_document(lines: list[str], i: int) -> int:
    """When ``lines[i]`` is a ``---`` line opening a YAML document (frontmatter, or one
    pasted in a message): the index of its closing ``---`` or ``...`` line; else 0."""
    keys = 0
    for j in range(i + 1, min(len(lines), i + 1 + YAML_DOCUMENT_LINES)):
        line = lines[j].rstrip("\r\n")
        if line.rstrip() in ("---", "..."):
            return j if keys else 0
        if not _YAML_LINE.match(line):
            return 0
        keys += bool(_YAML_KEY.match(line))
    return 0


def _fenced(lines: list[str]) -> tuple[list[tuple[int, int]], list[bool]]:
    """The line ranges ``[first, end)`` inside fenced blocks of a data language, and
    for each line whether it belongs to any fenced block (its fences included)."""
    ranges: list[tuple[int, int]] = []
    inside = [False] * len(lines)
    fence: tuple[str, int, bool] | None = None  # (marker, opening line, data)
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence = (m.group(1), i, m.group(2).lower() in DATA_LANGUAGES)
                inside[i] = True
            continue
        inside[i] = True
        if m and m.group(1)[0] == fence[0][0] and len(m.group(1)) >= len(fence[0]):
            if fence[2]:
                ranges.append((fence[1] + 1, i))
            fence = None
    if fence is not None and fence[2]:
        ranges.append((fence[1] + 1, len(lines)))  # a block never closed runs to the end
    return ranges, inside


def _unfenced(lines: list[str], inside: list[bool]) -> list[tuple[int, int]]:
    """The line ranges of YAML documents and INI/TOML sections outside fenced blocks."""
    ranges: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].rstrip()
        if inside[i]:
            i += 1
        elif stripped == "---" and (closing := _yaml_document(lines, i)):
            ranges.append((i + 1, closing))
            i = closing + 1
        elif _SECTION.match(stripped):
            j = i + 1
            while j < len(lines) and not inside[j] and _ENTRY.match(lines[j].rstrip("\r\n")):
                j += 1
            ranges.append((i + 1, j))
            i = j
        else:
            i += 1
    return ranges


class DataRanges:
    """The data parts of one text, found on first use.

    Args:
        text: a note, a prompt, a turn.
    """

    __slots__ = ("_ends", "_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts: list[int] | None = None
        self._ends: list[int] = []

    def _find(self) -> list[int]:
        lines = self._text.splitlines(keepends=True)
        fenced, inside = _fenced(lines)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        ranges = sorted(fenced + _unfenced(lines, inside))
        self._starts = [offsets[a] for a, _b in ranges]
        self._ends = [offsets[b] for _a, b in ranges]
        return self._starts

    def __contains__(self, pos: object) -> bool:
        """Whether character offset ``pos`` is inside data."""
        if not isinstance(pos, int):
            return False
        starts = self._starts if self._starts is not None else self._find()
        i = bisect.bisect_right(starts, pos) - 1
        return i >= 0 and pos < self._ends[i]
