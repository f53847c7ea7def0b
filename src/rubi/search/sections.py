"""The addressable parts of a file: a note's heading sections, a code file's symbols
and line ranges, and how a passage id's anchor (the part after ``#``) finds one again.

Pure text work (no index, no graph): search cuts hits into these parts
(:mod:`rubi.search.passages`) and ``rubi read`` opens one by its anchor
(:func:`find_section`), from the same functions, so every id a search prints opens.

Anchors (``docs/search.md``, "Passage ids"):

- a heading section is its heading as Obsidian writes it in a link: the characters a
  link cannot hold (``# | ^ : %% [[ ]]``) become spaces (``### 14:05`` →
  ``14 05``), so ``note#Heading`` is also the ``[[note#Heading]]`` link;
- a heading that is not the first of its text is addressed by its chain of parent
  headings, Obsidian's own ``[[note#Parent#Heading]]``, when that chain is unique;
  otherwise by its occurrence, ``Heading~2`` for the second (rubi's own form: a
  captured session has many turns in the same minute);
- the text before the first heading, and any range of lines, is ``L12-30`` (1-based,
  inclusive, lines of the whole file, frontmatter included);
- in a code file a part is its lines, ``L120-168``; a symbol's name (``Flask``,
  ``Context.Abort``) also opens it;
- a heading with nothing a link can hold (``## ::``), or longer than
  :data:`MAX_ANCHOR_CHARS` as a link, is addressed by its lines;
- a captured session's sections are its turns (``### 14:05``): headings inside a
  turn (an answer's ``## Summary``) are the turn's text.

Finding a part again (:func:`find_section`) is lenient the way Obsidian's link
matching is: case, Unicode normalization (NFC) and punctuation do not matter
(``How large can each vault be`` opens ``### How large can each vault be?``), and
``^id`` opens the block carrying that Obsidian block id.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rubi.markdown.headings import HEADING, body_start, headings, unfenced

__all__ = [
    "CLAUDE_MARK",
    "CODE_WINDOW",
    "LINES_ANCHOR",
    "MAX_ANCHOR_CHARS",
    "TURN_HEADING",
    "USER_MARK",
    "Section",
    "code_sections",
    "file_lines",
    "find_section",
    "line_anchor",
    "link_text",
    "note_sections",
    "turn_end",
]

CODE_WINDOW = 60
"""Lines of a code part at most: a longer symbol (a class of 1,400 lines) is cut into
parts of about this many lines, each named after the symbol."""
_WINDOW_SLACK = 15
"""A part of a long symbol ends at a blank line within this many lines of the window's
end, where there is one (functions and paragraphs end there)."""

MAX_ANCHOR_CHARS = 200
"""A heading longer than this as a link is addressed by its lines: an id is printed
with every hit that shows it, and a hostile 5,000-character heading would fill the
budget with one id."""

TURN_HEADING = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
"""A captured session's turn heading: its time (``### 14:05``)."""
USER_MARK = "**User:**"
"""What starts a captured turn's prompt."""
CLAUDE_MARK = "**Claude:**"
"""What starts a captured turn's answer."""

_UNLINKABLE = re.compile(r"%%|\[\[|\]\]|[#|^:]")
LINES_ANCHOR = re.compile(r"^L(\d{1,9})(?:-L?(\d{1,9}))?$", re.IGNORECASE)
"""A lines anchor, ``L12-30`` or ``L12`` (groups: first and last line)."""
_ORDINAL = re.compile(r"^(.*)~(\d{1,6})$")
_NOT_WORD = re.compile(r"[^\w]+")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")
_BLOCK_ID = re.compile(r"^\^([A-Za-z0-9-]{1,100})$")


@dataclass(frozen=True, slots=True)
class Section:
    """One addressable part of a file.

    Attributes:
        anchor: what follows ``#`` in its id (module docstring).
        heading: the heading as written (a code part: its symbol's name; "" for the
            text before the first heading or lines outside every symbol).
        level: the heading's level (1-6); 0 for a part without a heading.
        start, end: its lines, 1-based and inclusive, of the whole file; a heading
            section runs to the line before the next heading of any level.
        tree_end: the line before the next heading of the same or a higher level (the
            section with its subsections, what ``rubi read note#Heading`` prints).
        kind: ``section``, ``lines``, ``symbol`` or ``block`` (an Obsidian ``^id``).
    """

    anchor: str
    heading: str
    level: int
    start: int
    end: int
    tree_end: int
    kind: str = "section"


def file_lines(text: str) -> list[str]:
    """``text``'s lines as an editor numbers them: split at ``\n`` (a ``\r`` before
    it dropped), no empty last line for a final newline."""
    lines = text.split("\n")
    if "\r" in text:
        lines = [line.removesuffix("\r") for line in lines]
    if lines and not lines[-1]:
        lines.pop()
    return lines


def line_anchor(start: int, end: int) -> str:
    """The anchor of lines ``start``-``end``: ``L12-30``, or ``L12`` for one line."""
    return f"L{start}" if start == end else f"L{start}-{end}"


def link_text(heading: str) -> str:
    """``heading`` as an Obsidian link names it: ``# | ^ : %% [[ ]]`` become spaces,
    runs of spaces one (``"Step 2: sync"`` → ``"Step 2 sync"``)."""
    return " ".join(_UNLINKABLE.sub(" ", heading).split())


def _fold(text: str) -> str:
    return link_text(unicodedata.normalize("NFC", text)).casefold()


def _loose(text: str) -> str:
    """``text`` as Obsidian matches a link's heading: letters, digits and ``_`` only
    (NFC, any case), runs of anything else one space."""
    return " ".join(_NOT_WORD.sub(" ", unicodedata.normalize("NFC", text)).casefold().split())


def note_sections(
    text: str, *, session: bool = False, lines: Sequence[str] | None = None
) -> list[Section]:
    """The parts of a markdown file (frontmatter included in ``text``), in file order:
    the text before the first heading (when it holds any, anchor ``L<a>-<b>``) and one
    section per heading, each with a unique anchor (module docstring). In a captured
    ``session`` only its title (a first heading of level 1) and its turns
    (:data:`TURN_HEADING`) are headings. ``lines``: ``text``'s :func:`file_lines`, when
    the caller has them."""
    lines = file_lines(text) if lines is None else lines
    first = body_start(lines)
    heads = headings(lines, first)
    if session:
        heads = [
            h for n, h in enumerate(heads) if TURN_HEADING.match(h[2]) or (n == 0 and h[1] == 1)
        ]
    out: list[Section] = []
    lead_end = heads[0][0] if heads else len(lines)
    if any(line.strip() for line in lines[first:lead_end]):
        lead = line_anchor(first + 1, lead_end)
        out.append(Section(lead, "", 0, first + 1, lead_end, lead_end, "lines"))
    chains: list[list[str]] = []
    stack: list[tuple[int, str]] = []  # open headings: level, link text
    tree_ends = _tree_ends(heads, len(lines))
    for n, (i, level, heading) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        link = link_text(heading)
        chains.append([*(t for _, t in stack if t), link])
        stack.append((level, link))
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        out.append(Section("", heading, level, i + 1, end, tree_ends[n]))
    return _with_anchors(out, chains)


def _tree_ends(heads: Sequence[tuple[int, int, str]], total: int) -> list[int]:
    """Each heading's ``tree_end``: the line index of the next heading of the same or a
    higher level (``total`` when none), found in one pass with a stack of the headings
    still open."""
    ends = [total] * len(heads)
    open_: list[tuple[int, int]] = []  # (level, number) of headings whose end is unknown
    for n, (i, level, _) in enumerate(heads):
        while open_ and open_[-1][0] >= level:
            ends[open_.pop()[1]] = i
        open_.append((level, n))
    return ends


def _with_anchors(parts: list[Section], chains: list[list[str]]) -> list[Section]:
    """``parts`` with each heading section's unique anchor: its heading, else its chain
    of parents, else ``heading~n``; an anchor already given is never given again."""
    folded = [tuple(c.casefold() for c in chain) for chain in chains]
    whole = Counter(folded)
    tails: dict[int, Counter[tuple[str, ...]]] = {}
    taken = {p.anchor.casefold() for p in parts if p.anchor}
    seen: Counter[str] = Counter()
    out: list[Section] = []
    k = 0
    for part in parts:
        if part.anchor:
            out.append(part)
            continue
        name = chains[k][-1]
        k += 1
        if not name or len(name) > MAX_ANCHOR_CHARS:
            anchor = line_anchor(part.start, part.end)
            taken.add(anchor.casefold())
            out.append(_replace_anchor(part, anchor))
            continue
        seen[name.casefold()] += 1
        nth = seen[name.casefold()]
        options: list[str] = [name] if nth == 1 else []
        if nth > 1 and whole[folded[k - 1]] == 1:
            options += _chain_anchor(chains[k - 1], folded, folded[k - 1], tails)
        anchor = next(
            (o for o in options if o.casefold() not in taken),
            None,
        ) or next(
            f"{name}~{i}"
            for i in itertools.count(max(nth, 2))
            if f"{name}~{i}".casefold() not in taken
        )
        taken.add(anchor.casefold())
        out.append(_replace_anchor(part, anchor))
    return out


def _chain_anchor(
    chain: Sequence[str],
    folded: Sequence[tuple[str, ...]],
    mine: tuple[str, ...],
    tails: dict[int, Counter[tuple[str, ...]]],
) -> list[str]:
    """The shortest tail of a heading's ``chain`` of parents no other heading's chain
    ends with (``Windows#Install``, not ``Setup#Windows#Install``); [] when none is.
    ``tails`` keeps each length's count of tails (filled on first use)."""
    for size in range(2, len(chain) + 1):
        if size not in tails:
            tails[size] = Counter(f[-size:] for f in folded if len(f) >= size)
        if tails[size][mine[-size:]] == 1:
            return ["#".join(chain[-size:])]
    return []


def _replace_anchor(part: Section, anchor: str) -> Section:
    return Section(anchor, part.heading, part.level, part.start, part.end, part.tree_end, part.kind)


def code_sections(lines: Sequence[str], symbols: Sequence[tuple[str, int]]) -> list[Section]:
    """The parts of a code file (its ``lines``) with top-level ``symbols``
    (``(name, 1-based line)``, any order): the lines before the first symbol, then each
    symbol to the line before the next, symbols longer than :data:`CODE_WINDOW` lines
    cut into parts of about that many (at a blank line where there is one); a file
    without symbols is cut the same way. Anchors are the lines, ``L<a>-<b>``;
    ``heading`` is the symbol's name."""
    total = len(lines)
    spans: list[tuple[str, int, int]] = []
    marks = sorted({(line, name) for name, line in symbols if 1 <= line <= total})
    if not marks or marks[0][0] > 1:
        spans.append(("", 1, (marks[0][0] - 1) if marks else total))
    for n, (line, name) in enumerate(marks):
        end = marks[n + 1][0] - 1 if n + 1 < len(marks) else total
        spans.append((name, line, max(line, end)))
    return [
        Section(line_anchor(a, b), name, 0, a, b, b, "symbol" if name else "lines")
        for name, start, end in spans
        if end >= start
        for a, b in _windows(lines, start, end)
    ]


def _windows(lines: Sequence[str], start: int, end: int) -> list[tuple[int, int]]:
    """Lines ``start``-``end`` cut into runs of at most :data:`CODE_WINDOW` lines, each
    ending at a blank line near its end where there is one."""
    out: list[tuple[int, int]] = []
    a = start
    while end - a + 1 > CODE_WINDOW + _WINDOW_SLACK:
        cut = a + CODE_WINDOW - 1
        for b in range(cut, cut - _WINDOW_SLACK, -1):
            if not lines[b - 1].strip():
                cut = b
                break
        out.append((a, cut))
        a = cut + 1
    out.append((a, end))
    return out


def find_section(
    sections: Sequence[Section],
    anchor: str,
    total_lines: int,
    lines: Sequence[str] = (),
) -> Section | None:
    """The part ``anchor`` names, or None. Tried in turn: an anchor as given, the same
    ignoring case, Unicode normalization and the characters a link cannot hold, an
    Obsidian heading chain (``Parent#Heading``: the heading under those parents, in
    order, levels skipped allowed), ``Heading~n`` (its n-th occurrence), a line range
    ``L12-30`` / ``L12`` (any lines of the file), an Obsidian block id ``^id`` (in
    ``lines``, the file's), a code symbol's name (``Abort`` also finds
    ``Context.Abort``), then a heading equal ignoring punctuation (Obsidian's link
    matching: ``Can I sync`` finds ``Can I sync?``)."""
    key = anchor.strip()
    if not key:
        return None
    for s in sections:
        if s.anchor == key:
            return s
    folded = _fold(key)
    for s in sections:
        if s.kind == "section" and folded in (_fold(s.anchor), _fold(s.heading)):
            return s
    found = _by_chain(sections, key) or _by_ordinal(sections, key)
    if found is not None:
        return found
    m = LINES_ANCHOR.match(key)
    if m:
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if 1 <= a <= b and a <= total_lines:
            b = min(b, total_lines)
            return Section(line_anchor(a, b), "", 0, a, b, b, "lines")
        return None
    block = _BLOCK_ID.match(key)
    if block:
        return _by_block(lines, block.group(1))
    found = _by_symbol(sections, key)
    if found is not None:
        return found
    loose = _loose(key)
    if not loose:
        return None
    same = (s for s in sections if s.kind == "section" and _loose(s.heading) == loose)
    return next(same, None) or _by_chain(sections, key, _loose)


def _by_block(lines: Sequence[str], block_id: str) -> Section | None:
    """The block carrying Obsidian's block id ``^block_id``: the paragraph or item
    whose last line ends with it, or, when the id stands on its own line (after a
    table, a quote or a list), the block above it. Lines in fenced code never carry one."""
    mark = "^" + block_id.casefold()
    first = body_start(lines)
    for i, line in unfenced(lines, first):
        words = line.split()
        if not words or words[-1].casefold() != mark:
            continue
        if _LIST_ITEM.match(line):
            return Section("^" + block_id, "", 0, i + 1, i + 1, i + 1, "block")
        last = i
        if len(words) == 1:  # the id on its own line names the block above it
            last = i - 1
            while last >= first and not lines[last].strip():
                last -= 1
            if last < first:
                return Section("^" + block_id, "", 0, i + 1, i + 1, i + 1, "block")
        start = last
        while start > first and lines[start - 1].strip() and not HEADING.match(lines[start - 1]):
            start -= 1
        return Section("^" + block_id, "", 0, start + 1, i + 1, i + 1, "block")
    return None


def turn_end(lines: Sequence[str], parts: Sequence[Section], section: Section) -> int:
    """Where a captured turn's passage ends: its own last line, or, when it holds a
    prompt (``**User:**``) and no answer, the next part's (the reply came as the next
    turn). Blank lines at the end are left out."""
    end = section.end
    own = "\n".join(lines[section.start - 1 : end])
    if USER_MARK in own and CLAUDE_MARK not in own:
        later = [p for p in parts if p.start > section.start]
        if later:
            end = later[0].end
    while end > section.start and not lines[end - 1].strip():
        end -= 1
    return end


def _by_chain(
    sections: Sequence[Section], key: str, fold: Callable[[str], str] = _fold
) -> Section | None:
    parts = [fold(p) for p in key.split("#") if p.strip()]
    if len(parts) < 2:
        return None
    stack: list[tuple[int, str]] = []
    for s in sections:
        if s.kind != "section":
            continue
        while stack and stack[-1][0] >= s.level:
            stack.pop()
        if fold(s.heading) == parts[-1] and _subsequence(parts[:-1], [h for _, h in stack]):
            return s
        stack.append((s.level, fold(s.heading)))
    return None


def _subsequence(wanted: Sequence[str], chain: Sequence[str]) -> bool:
    it = iter(chain)
    return all(any(w == c for c in it) for w in wanted)


def _by_ordinal(sections: Sequence[Section], key: str) -> Section | None:
    m = _ORDINAL.match(key)
    if not m:
        return None
    name, nth = _fold(m.group(1)), int(m.group(2))
    same = [s for s in sections if s.kind == "section" and _fold(s.heading) == name]
    return same[nth - 1] if 1 <= nth <= len(same) else None


def _by_symbol(sections: Sequence[Section], key: str) -> Section | None:
    named = [s for s in sections if s.kind == "symbol"]
    folded = key.casefold()
    tests: list[Callable[[str], bool]] = [
        lambda h: h == key,
        lambda h: h.casefold() == folded,
        lambda h: h.rsplit(".", 1)[-1].casefold() == folded,
    ]
    for test in tests:
        hits = [s for s in named if test(s.heading)]
        if hits:
            # A long symbol is cut into parts: its name opens all of them.
            name = hits[0].heading
            first, last = hits[0], [s for s in hits if s.heading == name][-1]
            anchor = line_anchor(first.start, last.end)
            return Section(anchor, name, 0, first.start, last.end, last.end, "symbol")
    return None
