"""A file's layout for cutting it into passages (:mod:`rubi.search.passages`): what
does not depend on the query (its lines, the parts that hold text, the lower-cased
copy, line offsets), and a memo of the layouts of the files a process cut most
recently, keyed by their text.

Pure text work over :mod:`rubi.search.sections`; the memo is safe across threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from rubi.search.sections import Section, code_sections, file_lines, note_sections
from rubi.search.snippet import aligned_lower
from rubi.search.textkey import text_key

__all__ = [
    "LAYOUT_MEMO_CHARS",
    "LINE_CHARS",
    "PART_CHARS",
    "Layout",
    "Layouts",
    "charge",
    "layout",
    "layout_of",
    "text_key",
]


@dataclass(frozen=True, slots=True)
class Layout:
    """What :func:`rubi.search.passages.choose` needs of a file whatever the query:
    its lines, its parts that hold text, the text lower-cased
    (:func:`~rubi.search.snippet.aligned_lower`), each line's start offset in the text
    (``starts[i]``: line ``i + 1``; a CRLF counted), each line's part
    (``part_of_line[ln]``, -1 for none; 1-based lines) and each part's size in
    characters of its lines. ``found``: where the scorer found each word stem in it,
    kept by :func:`rubi.search.passages.choose` (bounded there by stems and by places
    per line of the file, counted in ``found_units``; it is what the text holds, so
    never stale)."""

    lines: list[str]
    parts: list[Section]
    lowered: str
    starts: list[int]
    part_of_line: list[int]
    sizes: list[int]
    average_size: float
    found: dict[str, tuple[tuple[int, int, tuple[int, ...], bool], ...]] = field(
        default_factory=dict, compare=False
    )
    found_units: list[int] = field(default_factory=lambda: [0], compare=False)


def layout(text: str, kind: str, symbols: tuple[tuple[str, int], ...]) -> Layout:
    """The :class:`Layout` of ``text`` (a file as read) cut as ``kind`` says: ``note``
    or ``session`` by heading sections (:func:`~rubi.search.sections.note_sections`;
    parts with no line besides their heading left out), ``code`` by ``symbols``
    (``(name, 1-based line)``, :func:`~rubi.search.sections.code_sections`)."""
    lines = file_lines(text)
    if kind == "code":
        parts = code_sections(lines, symbols)
    else:
        sections = note_sections(text, session=kind == "session", lines=lines)
        parts = [s for s in sections if _has_text(lines, s)]
    ends = list(accumulate((len(line) + 1 for line in lines), initial=0))
    # offsets in ``text`` itself: a CRLF line is one character longer than its line
    starts = (
        list(accumulate((len(raw) + 1 for raw in text.split("\n")), initial=0))
        if "\r" in text
        else ends
    )
    part_of_line = [-1] * (len(lines) + 2)
    for n, s in enumerate(parts):
        last = min(s.end, len(lines))
        part_of_line[s.start : last + 1] = [n] * (last + 1 - s.start)
    sizes = [max(1, ends[min(s.end, len(lines))] - ends[s.start - 1]) for s in parts]
    average = sum(sizes) / len(sizes) if sizes else 1.0
    return Layout(lines, parts, aligned_lower(text), starts, part_of_line, sizes, average)


class Layouts:
    """The layouts of the files cut most recently, by a digest of their text
    (:func:`text_key`) and how they are cut (a pure memo: a file that changed is a new
    key, so nothing here is ever stale).
    An agent's searches keep showing the same few notes; a layout costs about twice
    the scoring it saves. Kept up to :data:`LAYOUT_MEMO_CHARS` characters, each layout
    charged by :func:`charge` (its lines and parts too: a file of short lines or many
    headings holds many times its text), the least recently used dropped first; safe
    across threads."""

    def __init__(self, budget: int) -> None:
        self._budget = budget
        self._chars = 0
        self._kept: OrderedDict[
            tuple[bytes, str, tuple[tuple[str, int], ...]], tuple[Layout, int]
        ] = OrderedDict()
        self._guard = threading.Lock()

    def holds(self, text: str, kind: str, symbols: tuple[tuple[str, int], ...]) -> bool:
        """Whether the layout of the arguments is kept."""
        return (text_key(text), kind, symbols) in self._kept

    def get(
        self,
        text: str,
        kind: str,
        symbols: tuple[tuple[str, int], ...],
        digest: bytes | None = None,
    ) -> Layout:
        """:func:`layout` of the arguments, kept from an earlier call when there was one
        (``digest``: ``text``'s :func:`text_key`, when the caller has it already)."""
        key = (text_key(text) if digest is None else digest, kind, symbols)
        with self._guard:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found[0]
        made = layout(text, kind, symbols)
        cost = charge(text, made)
        if cost <= self._budget // 8:
            with self._guard:
                if key not in self._kept:
                    self._kept[key] = (made, cost)
                    self._chars += cost
                while self._chars > self._budget:
                    _, (_, gone) = self._kept.popitem(last=False)
                    self._chars -= gone
        return made


LINE_CHARS = 16
"""What :class:`Layouts` charges a layout for each line, in characters of text: a
line's string, offset and part cost about 60 bytes beside its characters."""
PART_CHARS = 72
"""What :class:`Layouts` charges a layout for each part, in characters of text (a
section with its anchor and heading: about 300 bytes)."""


def charge(text: str, made: Layout) -> int:
    """What keeping ``made`` (the layout of ``text``) costs, in characters: about a
    quarter of its bytes."""
    return len(text) + LINE_CHARS * len(made.lines) + PART_CHARS * len(made.parts)


LAYOUT_MEMO_CHARS = 4_000_000
"""Characters (:func:`charge`) whose layouts a process keeps (:class:`Layouts`):
about four times this in bytes, whatever the files' shape; a layout charged over an
eighth of it is never kept."""
_LAYOUTS = Layouts(LAYOUT_MEMO_CHARS)
layout_of = _LAYOUTS.get
"""The layout of a file's text as :func:`layout` makes it, from this process's memo."""


def _has_text(lines: Sequence[str], s: Section) -> bool:
    """Whether a part holds any line besides its heading."""
    first = s.start if s.kind == "section" else s.start - 1
    return any(line.strip() for line in lines[first : s.end])
