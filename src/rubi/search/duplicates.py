"""One slot per note, however many copies of it a vault holds: stubs and near-duplicates
are collapsed into the hit of the note they copy, and named there.

Two notes among a search's candidates are the same note to the reader when

- they have the same title (case and spacing aside) and one of them is a **stub**: a
  body of fewer than :data:`STUB_WORDS` words besides its frontmatter, headings and
  link targets ("Moved this content [here](…)", a frontmatter-only hub page); or
- their bodies are **near-duplicates**: the Jaccard similarity of their sets of
  :data:`SHINGLE_WORDS`-word shingles (Broder 1997, "On the resemblance and
  containment of documents") is at least :data:`NEAR_DUPLICATE_JACCARD`.

A group takes the slot of its best-ranked member, and its hit is the best-ranked
member with a body (a stub yields to the note it stands for); the others are listed
with it (``Hit.also``, the why-line's ``also: …``, ``also`` in JSON), never dropped.
Notes with the same title and different bodies (each team's "Onboarding") keep their
own slots. Only notes are compared: code files have their own variant rule
(:func:`rubi.search.rules.variant_of`) and a captured session is never a copy.

Thresholds measured on the bodies of three vaults (every pair sharing a 5-word
shingle): copies of a page under two paths score 0.97–0.98 (a handbook's
mental-health page, a research-compensation page), a page and its edited copy 0.87;
pages written from one template for different services 0.61–0.67, the importer pages
of the Obsidian help 0.31 at most, a personal wiki 0.19 at most.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "SHINGLE_WORDS",
    "STUB_WORDS",
    "Body",
    "Slot",
    "body_of",
    "collapse",
    "same_note",
]

SHINGLE_WORDS = 5
"""Words in one shingle."""
NEAR_DUPLICATE_JACCARD = 0.8
"""Jaccard similarity of two bodies' shingle sets from which they are one note."""
STUB_WORDS = 5
"""A body with fewer words than this (headings, frontmatter and link targets aside)
is a stub."""

_WORD = re.compile(r"\w+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(?:\s.*)?$", re.MULTILINE)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n.*?^(?:---|\.\.\.)[ \t]*$", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Body:
    """What two notes are compared by: the title as compared, whether the note is a
    stub, and its body's shingles (hashes of :data:`SHINGLE_WORDS` lower-case words)."""

    title: str
    stub: bool
    shingles: frozenset[int]


@dataclass(frozen=True, slots=True)
class Slot:
    """One place in the result: the candidate shown (``lead``) and the candidates
    collapsed into it, best-ranked first; ``first`` is the rank (0-based, in the
    candidates given) of the group's best-ranked member, whose place it takes."""

    lead: str
    also: tuple[str, ...]
    first: int


def body_of(title: str, text: str) -> Body:
    """The :class:`Body` of a note titled ``title`` whose file reads ``text``
    (frontmatter included or not)."""
    body = _FRONTMATTER.sub("", text, count=1)
    body = _LINK_TARGET.sub("]", _HEADING.sub("", body))
    words = _WORD.findall(body.lower())
    stub = len(words) < STUB_WORDS
    n = SHINGLE_WORDS
    shingles = frozenset(hash(tuple(words[i : i + n])) for i in range(len(words) - n + 1))
    return Body(" ".join(title.casefold().split()), stub, shingles)


def same_note(a: Body, b: Body) -> bool:
    """Whether ``a`` and ``b`` are one note to the reader (module docstring)."""
    if a.title == b.title and (a.stub or b.stub):
        return True
    if not a.shingles or not b.shingles:
        return False
    shared = len(a.shingles & b.shingles)
    return shared >= NEAR_DUPLICATE_JACCARD * (len(a.shingles) + len(b.shingles) - shared)


def collapse(
    ranked: Sequence[str], body: Callable[[str], Body | None], slots: int, window: int
) -> list[Slot]:
    """The first ``slots`` places of ``ranked`` (candidate ids, best first) with each
    group of the same note in one place.

    Args:
        ranked: candidate ids, best first.
        body: a candidate's :class:`Body`, or None for one never collapsed (a code
            file, a session, a file that cannot be read); asked at most once each.
        slots: places wanted (``top_k``).
        window: candidates examined at most; the ones after it are not read, and
            fill places one each if ``window`` ran out first.

    Returns:
        At most ``slots`` places, in rank order.
    """
    out: list[tuple[str, list[str], int, Body | None]] = []  # lead, also, first, lead body
    bodies: dict[str, Body | None] = {}
    for at, node in enumerate(ranked):
        if len(out) >= slots:
            break
        if at >= window:
            out.append((node, [], at, None))
            continue
        mine = bodies[node] = body(node)
        group = None if mine is None else _group_of(mine, out, bodies)
        if group is None:
            out.append((node, [], at, mine))
            continue
        lead, also, first, lead_body = out[group]
        if lead_body is not None and lead_body.stub and not mine.stub:  # type: ignore[union-attr]
            out[group] = (node, [lead, *also], first, mine)  # a stub yields to its note
        else:
            also.append(node)
    return [Slot(lead, tuple(also), first) for lead, also, first, _ in out]


def _group_of(
    mine: Body,
    out: Sequence[tuple[str, list[str], int, Body | None]],
    bodies: dict[str, Body | None],
) -> int | None:
    """The index in ``out`` of the place whose lead or members are the same note as
    ``mine``, or None."""
    for i, (lead, also, _, _) in enumerate(out):
        for member in (lead, *also):
            other = bodies.get(member)
            if other is not None and same_note(mine, other):
                return i
    return None
