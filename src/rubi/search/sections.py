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
  ``Context.Abort``) also opens it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "CODE_WINDOW",
    "Section",
    "code_sections",
    "file_lines",
    "find_section",
    "line_anchor",
    "link_text",
    "note_sections",
]

CODE_WINDOW = 60
"""Lines of a code part at most: a longer symbol (a class of 1,400 lines) is cut into
parts of about this many lines, each named after the symbol."""
_WINDOW_SLACK = 15
"""A part of a long symbol ends at a blank line within this many lines of the window's
end, where there is one (functions and paragraphs end there)."""

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_UNLINKABLE = re.compile(r"%%|\[\[|\]\]|[#|^:]")
_LINES = re.compile(r"^L(\d{1,9})(?:-L?(\d{1,9}))?$", re.IGNORECASE)
_ORDINAL = re.compile(r"^(.*)~(\d{1,6})$")


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
        kind: ``section``, ``lines`` or ``symbol``.
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
    lines = [line.removesuffix("\r") for line in text.split("\n")]
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
    return link_text(text).casefold()


def _body_start(lines: Sequence[str]) -> int:
    """The index of the first body line: after a ``---`` frontmatter block, if any."""
    if lines and lines[0].rstrip() == "---":
        for i in range(1, len(lines)):
            if lines[i].rstrip() in ("---", "..."):
                return i + 1
    return 0


def _headings(lines: Sequence[str], first: int) -> list[tuple[int, int, str]]:
    """``(line index, level, heading)`` of each ATX heading from ``first`` on; lines
    inside fenced code (```` ``` ```` or ``~~~``) are text, whatever they start with."""
    found: list[tuple[int, int, str]] = []
    fence = ""
    for i in range(first, len(lines)):
        line = lines[i]
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if not fence:
                fence = mark[0] * len(mark)
            elif mark.startswith(fence) and not line.strip()[len(mark) :].strip():
                fence = ""
            continue
        if fence:
            continue
        h = _HEADING.match(line)
        if h and h.group(2).strip():
            found.append((i, len(h.group(1)), h.group(2).strip()))
    return found


def note_sections(text: str) -> list[Section]:
    """The parts of a markdown file (frontmatter included in ``text``), in file order:
    the text before the first heading (when it holds any, anchor ``L<a>-<b>``) and one
    section per heading, each with a unique anchor (module docstring)."""
    lines = file_lines(text)
    first = _body_start(lines)
    heads = _headings(lines, first)
    out: list[Section] = []
    lead_end = heads[0][0] if heads else len(lines)
    if any(line.strip() for line in lines[first:lead_end]):
        lead = line_anchor(first + 1, lead_end)
        out.append(Section(lead, "", 0, first + 1, lead_end, lead_end, "lines"))
    chains: list[list[str]] = []
    stack: list[tuple[int, str]] = []
    for n, (i, level, heading) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        chains.append([link_text(h) for _, h in stack] + [link_text(heading)])
        stack.append((level, heading))
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        tree_end = next((j for j, lv, _ in heads[n + 1 :] if lv <= level), len(lines))
        out.append(Section("", heading, level, i + 1, end, tree_end))
    return _with_anchors(out, chains)


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
        seen[name.casefold()] += 1
        nth = seen[name.casefold()]
        options: list[str] = [name] if nth == 1 else []
        if nth > 1 and whole[folded[k]] == 1:
            options += _chain_anchor(chains[k], folded, folded[k], tails)
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
        k += 1
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


def find_section(sections: Sequence[Section], anchor: str, total_lines: int) -> Section | None:
    """The part ``anchor`` names, or None. Tried in turn: an anchor as given, the same
    ignoring case and the characters a link cannot hold, an Obsidian heading chain
    (``Parent#Heading``: the heading under those parents, in order, levels skipped
    allowed), ``Heading~n`` (its n-th occurrence), a line range ``L12-30`` / ``L12``
    (any lines of the file), then a code symbol's name (``Abort`` also finds
    ``Context.Abort``)."""
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
    m = _LINES.match(key)
    if m:
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        if 1 <= a <= b and a <= max(total_lines, 1):
            b = min(b, max(total_lines, 1))
            return Section(line_anchor(a, b), "", 0, a, b, b, "lines")
        return None
    return _by_symbol(sections, key)


def _by_chain(sections: Sequence[Section], key: str) -> Section | None:
    parts = [_fold(p) for p in key.split("#") if p.strip()]
    if len(parts) < 2:
        return None
    stack: list[tuple[int, str]] = []
    for s in sections:
        if s.kind != "section":
            continue
        while stack and stack[-1][0] >= s.level:
            stack.pop()
        if _fold(s.heading) == parts[-1] and _subsequence(parts[:-1], [h for _, h in stack]):
            return s
        stack.append((s.level, _fold(s.heading)))
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
