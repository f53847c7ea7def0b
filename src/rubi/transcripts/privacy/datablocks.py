"""Where a text holds configuration data rather than code or prose: YAML frontmatter,
fenced blocks of a data language (YAML, TOML, INI, properties, dotenv) and INI/TOML
sections (a ``[section]`` line and the ``key = value`` lines under it).

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


def _frontmatter_end(text: str) -> int:
    """Where YAML frontmatter at the start of ``text`` ends (0: none)."""
    if not text.startswith("---"):
        return 0
    first = text.find("\n")
    if first < 0 or text[3:first].strip():
        return 0
    for closing in ("\n---", "\n..."):
        end = text.find(closing, first)
        if end >= 0:
            return end + 1
    return 0


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
        ranges: list[tuple[int, int]] = []
        text = self._text
        end = _frontmatter_end(text)
        if end:
            ranges.append((0, end))
        fence: tuple[str, int, bool] | None = None  # (marker, start, data)
        section = -1  # where an open INI section's lines start
        pos = 0
        for line in text.splitlines(keepends=True):
            stripped = line.rstrip("\r\n")
            m = _FENCE.match(stripped)
            if fence is not None:
                if m and m.group(1)[0] == fence[0][0] and len(m.group(1)) >= len(fence[0]):
                    if fence[2]:
                        ranges.append((fence[1], pos))
                    fence = None
            elif m:
                fence = (m.group(1), pos + len(line), m.group(2).lower() in DATA_LANGUAGES)
                if section >= 0:
                    ranges.append((section, pos))
                    section = -1
            elif _SECTION.match(stripped):
                if section >= 0:
                    ranges.append((section, pos))
                section = pos + len(line)
            elif section >= 0 and not _ENTRY.match(stripped):
                ranges.append((section, pos))
                section = -1
            pos += len(line)
        if section >= 0:
            ranges.append((section, pos))
        if fence is not None and fence[2]:
            ranges.append((fence[1], pos))  # a block never closed runs to the end
        ranges.sort()
        self._starts = [r[0] for r in ranges]
        self._ends = [r[1] for r in ranges]
        return self._starts

    def __contains__(self, pos: object) -> bool:
        """Whether character offset ``pos`` is inside data."""
        if not isinstance(pos, int):
            return False
        starts = self._starts if self._starts is not None else self._find()
        i = bisect.bisect_right(starts, pos) - 1
        return i >= 0 and pos < self._ends[i]
