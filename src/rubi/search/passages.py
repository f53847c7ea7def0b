"""Choose a hit's passages: the parts of its file (:mod:`rubi.search.sections`) where
the query's words are, weighted by how rare the index says they are.

Each part is scored as a small BM25 document: for each query word (a group of terms:
a word and its abbreviations count once), its IDF in the index times the saturated
count of its occurrences in the part, the part's length against the file's average
part; a word in a section's heading counts :data:`HEADING_WEIGHT` more. The dense
channel's closest section, when there is one, gains :data:`DENSE_SHARE` of the best
score. The best part is the hit's passage; others within :data:`EXTRA_SHARE` of it are
added (at most :data:`MAX_PASSAGES`): a captured session often holds the topic in one
turn and the answer in another. A turn whose words matched in its prompt, with no
answer in it, runs on to the end of the next turn (the reply).

Only shown hits are cut (the engine calls :func:`choose` lazily); occurrences are
found with ``str.find`` from the rarest word on, as the snippet finder does. What does
not depend on the query (the file's lines and parts) is its layout, kept in a memo
(:mod:`rubi.search.layout`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rubi.search.hits import Passage
from rubi.search.layout import Layout, layout_of
from rubi.search.sections import (
    CLAUDE_MARK,
    TURN_HEADING,
    Section,
    line_anchor,
    turn_end,
)
from rubi.search.snippet import _core, _find_word

__all__ = [
    "DENSE_SHARE",
    "EXTRA_SHARE",
    "HEADING_WEIGHT",
    "MAX_PASSAGES",
    "MAX_PASSAGE_CHARS",
    "choose",
    "excerpt",
    "in_context",
]

MAX_PASSAGES = 3
"""Passages one hit carries at most."""
EXTRA_SHARE = 0.6
"""A part scoring at least this share of the best part is a passage too."""
HEADING_WEIGHT = 2.0
"""A query word in a section's heading adds this times its IDF (the index weighs the
headings field twice the body). On the notes-QA set's labelled answer sections
(``bench/notes_qa.py``), 2.0 against 1.0: passage@3 24 against 23 of 26, @1 equal."""
DENSE_SHARE = 0.25
"""The dense channel's closest section gains this share of the best part's score (a
whole IDF when nothing matched by word). On the notes-QA labels, passage@1 of 26:
0 → 19, 0.25 → 19, 0.5 → 18, 1.0 → 18 (with :data:`HEADING_WEIGHT` 2): the dense
channel's section is a passage of several merged short sections, so a tie-break, not
a vote."""
MAX_PASSAGE_CHARS = 8_000
"""Characters of a passage's text kept (a renderer shows less)."""
MAX_OCCURRENCES = 2_000
"""Occurrences of one term counted at most (the head of a huge file is enough)."""
MAX_FOUND_CORES = 256
"""Word stems whose places a kept layout holds (:func:`_found`); all are forgotten
when more are asked for."""
FOUND_UNITS_PER_LINE = 1
"""What a layout's kept places may hold, per line of its file (each stem one unit,
each part it is in one, each line holding it one; about 40 bytes a unit), beside 64;
all are forgotten past it. A line of a kept layout costs about as much."""
K1 = 1.2
"""BM25 term-frequency saturation."""
B = 0.75
"""BM25 length normalization."""


@dataclass(slots=True)
class _Scored:
    """A section and how well it matches, with its best line."""

    section: Section
    score: float
    focus: int
    words: dict[str, float] = field(default_factory=dict)
    """What each query word (group) added to ``score``."""


def choose(
    parent: str,
    text: str,
    groups: Mapping[str, str],
    idf: Mapping[str, float],
    *,
    kind: str = "note",
    symbols: Sequence[tuple[str, int]] = (),
    dense_heading: str = "",
    most: int = MAX_PASSAGES,
    share: float = EXTRA_SHARE,
    digest: bytes | None = None,
    context: float = 0.0,
) -> tuple[Passage, ...]:
    """The passages of the file ``parent`` (its full ``text``), best first.

    Args:
        parent: the hit's id (each passage's id is ``parent#anchor``).
        text: the file as read (a note with its frontmatter).
        groups: analysed query term → the query word it stands for (a group counts once).
        idf: term → its IDF in the index (1.0 for a term not given).
        kind: ``note``, ``session`` (a captured session: heading sections are turns)
            or ``code`` (parts from ``symbols``).
        symbols: a code file's top-level symbols, ``(name, 1-based line)``.
        dense_heading: the heading of the section the dense channel found closest
            ("" when none).
        most: passages at most (:data:`MAX_PASSAGES`).
        share: a part after the best is a passage when it scores above 0 and at
            least this share of the best (:data:`EXTRA_SHARE`; 0: every part that
            matched, as :mod:`rubi.search.turnranking` ranks a session's turns).
        digest: ``text``'s :func:`rubi.search.textkey.text_key`, when the caller has
            it (the layout memo's key; made here otherwise).
        context: a captured session's turn gains this share of what a neighbouring
            turn scores on the words it lacks (:func:`in_context`; 0: each turn
            alone, as every other part is scored).

    Returns:
        At most ``most`` passages; one (the first part) when no word matched; () for
        an empty file.
    """
    layout = layout_of(text, kind, tuple(symbols), digest)
    lines, parts = layout.lines, layout.parts
    if not parts:
        return ()
    scored = _score(layout, text, groups, idf, kind == "code")
    if context > 0 and kind == "session":
        in_context(scored, context)
    best = max((s.score for s in scored), default=0.0)
    if dense_heading and kind != "code":
        closest = next((s for s in scored if s.section.heading == dense_heading), None)
        if closest is not None:
            closest.score += DENSE_SHARE * best if best > 0 else 1.0
            best = max(best, closest.score)
    order = sorted(range(len(scored)), key=lambda i: (-scored[i].score, i))
    chosen = [scored[order[0]]]
    for i in order[1:most]:
        if best > 0 and scored[i].score > 0 and scored[i].score >= share * best:
            chosen.append(scored[i])
    return tuple(_passage(parent, lines, parts, s, kind) for s in chosen)


def in_context(scored: Sequence[_Scored], share: float) -> None:
    """Add to each turn of a captured session ``share`` of what the turn just before or
    after it (the better of the two) scores on the query words the turn itself lacks,
    in place.

    A conversation says a thing over several turns: the question's topic in one, the
    answer in the next ("Pine Cove, under the stars" after "we went camping, guess
    where"). Scored alone, the answering turn loses to a turn elsewhere that repeats
    the question's words; scored with its neighbours as context, as passage retrieval
    smooths a passage's score with its surroundings (Kaszkiel & Zobel 1997; Bendersky
    & Kurland 2008), it is found. Only the words it lacks count: a run of turns that
    all repeat the same words (a chatty session) gains nothing from one another. Only
    turns (``### HH:MM`` sections) are neighbours; what is added is the neighbours'
    own word scores, never their context.
    """
    words = [dict(s.words) for s in scored]
    is_turn = [
        s.section.kind == "section" and bool(TURN_HEADING.match(s.section.heading)) for s in scored
    ]
    for n, s in enumerate(scored):
        if not is_turn[n]:
            continue
        near = [
            sum(v for g, v in words[m].items() if g not in words[n])
            for m in (n - 1, n + 1)
            if 0 <= m < len(scored) and is_turn[m]
        ]
        s.score += share * max(near, default=0.0)


def _score(
    layout: Layout,
    text: str,
    groups: Mapping[str, str],
    idf: Mapping[str, float],
    code: bool,
) -> list[_Scored]:
    """Each part's score and its best line (module docstring)."""
    parts, sizes, avg = layout.parts, layout.sizes, layout.average_size
    counts: list[dict[str, int]] = [{} for _ in parts]
    in_heading: list[set[str]] = [set() for _ in parts]
    words_at: list[dict[int, set[str]]] = [{} for _ in parts]  # part → line → groups
    weight: dict[str, float] = {}
    terms = sorted((t for t in groups if len(t) >= 2), key=lambda t: (-len(t), t))
    for term in terms:
        core, group = _core(term), groups[term]
        weight[group] = max(weight.get(group, 0.0), idf.get(term, 1.0))
        for n, c, lines, heading in _found(layout, text, core, code):
            at = words_at[n]
            for ln in lines:
                at.setdefault(ln, set()).add(group)
            if heading:
                in_heading[n].add(group)
            counts[n][group] = max(counts[n].get(group, 0), c)
    out: list[_Scored] = []
    for n, s in enumerate(parts):
        if not counts[n]:  # no query word in it (nor, then, in its heading)
            out.append(_Scored(s, 0, s.start))  # 0 as the sums of nothing were
            continue
        norm = K1 * (1 - B + B * sizes[n] / avg)
        words = {g: weight[g] * c * (K1 + 1) / (c + norm) for g, c in counts[n].items()}
        score = sum(words.values())  # summed as first written: the same float
        score += sum(HEADING_WEIGHT * weight[g] for g in in_heading[n])
        for g in in_heading[n]:
            words[g] = words.get(g, 0.0) + HEADING_WEIGHT * weight[g]
        at = words_at[n]
        focus = max(at, key=lambda ln: (sum(weight[g] for g in at[ln]), -ln), default=s.start)
        out.append(_Scored(s, score, focus, words))
    return out


def _found(
    layout: Layout, text: str, core: str, code: bool
) -> tuple[tuple[int, int, tuple[int, ...], bool], ...]:
    """Where ``core`` begins a word of ``text`` (the first :data:`MAX_OCCURRENCES`
    places), by part: per part holding one, in order of the first, the part's number,
    its occurrences, the lines holding one (in order) and whether its heading line does
    (a section's, not in code). A word's places depend on the text alone, so they are
    kept in the layout (:attr:`Layout.found`): a stem met before in a kept layout is not
    searched again (a distinct question meets a shown note's stems again about one time
    in three)."""
    kept = layout.found.get(core)
    if kept is not None:
        return kept
    lowered, starts, part_of_line, parts = (
        layout.lowered,
        layout.starts,
        layout.part_of_line,
        layout.parts,
    )
    per_part: dict[int, tuple[list[int], dict[int, None], list[bool]]] = {}
    if core in lowered:
        pos, taken = _find_word(text, lowered, core), 0
        while pos >= 0 and taken < MAX_OCCURRENCES:
            ln = bisect_right(starts, pos)  # 1-based line of pos
            n = part_of_line[ln] if ln < len(part_of_line) else -1
            if n >= 0:
                entry = per_part.get(n)
                if entry is None:
                    entry = per_part[n] = ([0], {}, [False])
                entry[0][0] += 1
                entry[1][ln] = None
                if not code and ln == parts[n].start and parts[n].kind == "section":
                    entry[2][0] = True
            taken += 1
            pos = _find_word(text, lowered, core, pos + len(core))
    found = tuple((n, c[0], tuple(lines), h[0]) for n, (c, lines, h) in per_part.items())
    units = 1 + sum(1 + len(lines) for _, _, lines, _ in found)
    kept_units = layout.found_units
    if (
        len(layout.found) >= MAX_FOUND_CORES
        or kept_units[0] + units > FOUND_UNITS_PER_LINE * len(layout.lines) + 64
    ):
        layout.found.clear()
        kept_units[0] = 0
    if units <= FOUND_UNITS_PER_LINE * len(layout.lines) + 64:
        layout.found[core] = found
        kept_units[0] += units
    return found


def _passage(
    parent: str, lines: Sequence[str], parts: Sequence[Section], s: _Scored, kind: str
) -> Passage:
    section, end = s.section, s.section.end
    is_turn = kind == "session" and bool(TURN_HEADING.match(section.heading))
    if is_turn:
        end = turn_end(lines, parts, section)  # a prompt's reply may be the next turn
    while end > section.start and not lines[end - 1].strip():
        end -= 1  # blank lines before the next heading are no part of it
    passage_kind = "turn" if is_turn else section.kind
    body = "\n".join(lines[section.start - 1 : end])[:MAX_PASSAGE_CHARS]
    anchor = section.anchor
    if section.kind != "section":  # lines: the anchor names the lines shown
        anchor = line_anchor(section.start, end)
    return Passage(
        id=f"{parent}#{anchor}",
        parent=parent,
        anchor=anchor,
        heading=section.heading,
        kind=passage_kind,
        start=section.start,
        end=end,
        text=body,
        score=round(s.score, 4),
        focus=s.focus,
    )


def excerpt(passage: Passage, chars: int) -> str:
    """At most ``chars`` characters of ``passage.text``: all of it when it fits, else
    its heading line, then the lines from the one before its best line on, cut with
    ``…``. A turn keeps room for the start of its answer (half of ``chars``) when the
    best line is in the prompt."""
    text = passage.text
    if len(text) <= chars:
        return text
    lines = text.split("\n")
    titled = passage.kind in ("section", "turn") and lines[0].lstrip().startswith("#")
    head = lines[0] if titled else ""
    at = max(1 if head else 0, passage.focus - passage.start - 1)
    answer = next((i for i, line in enumerate(lines) if line.startswith(CLAUDE_MARK)), -1)
    reply = ""
    if passage.kind == "turn" and answer > at:
        reply = _cut("\n".join(lines[answer:]), chars // 2)
    room = chars - len(head) - len(reply) - 2
    middle = _cut("\n".join(lines[at : answer if reply else None]), max(room, 0))
    return "\n".join(p for p in (head, middle, reply) if p)


def _cut(text: str, chars: int) -> str:
    """``text`` within ``chars`` characters, cut at a space where one is near."""
    text = text.strip("\n")
    if len(text) <= chars:
        return text
    if chars <= 1:
        return ""
    cut = text[: chars - 1]
    space = cut.rfind(" ")
    if space > chars * 0.7:
        cut = cut[:space]
    return cut.rstrip() + "…"
