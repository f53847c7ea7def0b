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
(:func:`rubi.search.reweighting.variant_of`) and a captured session is never a copy.

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
from functools import lru_cache
from typing import Any

__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "SHINGLE_WORDS",
    "STUB_WORDS",
    "Body",
    "Slot",
    "body_of",
    "collapse",
    "same_note",
    "words_of",
]

SHINGLE_WORDS = 5
"""Words in one shingle."""
NEAR_DUPLICATE_JACCARD = 0.8
"""Jaccard similarity of two bodies' shingle sets from which they are one note."""
VOCABULARY_JACCARD = 0.6
"""Jaccard similarity of two bodies' sets of words below which their shingles are not
compared: a cheap first test, far below what near-duplicates share (on the
handbook, the 39 pairs at a shingle Jaccard of 0.8 or more share at least 0.9 of
their words); computing every candidate's shingles doubled a recall's CPU."""
STUB_WORDS = 5
"""A body with fewer words than this (headings, frontmatter and link targets aside)
is a stub."""

MEMO_BODIES = 256
"""Bodies kept by :func:`body_of` (a few KB each)."""

_WORD = re.compile(r"\w+")
_NOT_WORD_ASCII = str.maketrans(
    {i: " " for i in range(128) if not (chr(i).isalnum() or chr(i) == "_")}
)
"""Every ASCII character ``\\w`` does not match, to a space (for :func:`words_of`)."""
_HEADING = re.compile(r"^\s{0,3}#{1,6}(?:\s.*)?$", re.MULTILINE)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n.*?^(?:---|\.\.\.)[ \t]*$", re.DOTALL | re.MULTILINE)


class Body:
    """What two notes are compared by: the title as compared (case and spacing
    aside), whether the note is a stub, and its body's words, whose shingles (runs of
    :data:`SHINGLE_WORDS` lower-case words) are made the first time a comparison
    needs them: only for two bodies that share most of their words
    (:data:`VOCABULARY_JACCARD`).

    Until then a body keeps its words as the text they were found in (``source``: its
    ``\\w+`` runs are ``words``; the words joined by spaces when not given), found
    again for the shingles: a list of the words, one string object each, took several
    times the text's memory in every body the memo keeps, and most bodies are never
    shingled."""

    __slots__ = ("_shingles", "_source", "size", "stub", "title", "vocabulary")

    def __init__(self, title: str, words: Sequence[str], source: str | None = None) -> None:
        self.title = " ".join(title.casefold().split())
        self.stub = len(words) < STUB_WORDS
        self.size = max(len(words) - SHINGLE_WORDS + 1, 0)
        self.vocabulary = frozenset(words)
        self._source: str | None = " ".join(words) if source is None else source
        self._shingles: frozenset[str] = frozenset()

    @property
    def shingles(self) -> frozenset[str]:
        """The body's distinct shingles, each its words joined by a space (no word holds
        one: the same sets as tuples of words, compared faster, since a string keeps its
        hash and a tuple computes it again at every set operation)."""
        if self._source is not None:
            w, self._source = words_of(self._source), None
            self._shingles = frozenset(
                [" ".join(w[i : i + SHINGLE_WORDS]) for i in range(len(w) - SHINGLE_WORDS + 1)]
            )
        return self._shingles


@dataclass(frozen=True, slots=True)
class Slot:
    """One place in the result: the candidate shown (``lead``) and the candidates
    collapsed into it, best-ranked first; ``first`` is the rank (0-based, in the
    candidates given) of the group's best-ranked member, whose place it takes."""

    lead: str
    also: tuple[str, ...]
    first: int


@lru_cache(maxsize=MEMO_BODIES)
def body_of(title: str, text: str) -> Body:
    """The :class:`Body` of a note titled ``title`` whose file reads ``text``
    (frontmatter included or not); the last :data:`MEMO_BODIES` are kept (a process
    that searches one vault again and again, the engine or the MCP server, meets the
    same candidates: their words are found once)."""
    body = _FRONTMATTER.sub("", text, count=1) if text.startswith("---") else text
    if "#" in body:  # no heading without one
        body = _HEADING.sub("", body)
    if "](" in body:  # nor a link target
        body = _LINK_TARGET.sub("]", body)
    body = body.lower()
    return Body(title, words_of(body), body)


def words_of(text: str) -> list[str]:
    """The ``\\w+`` runs of ``text``, in order: for an ASCII text (most notes) its
    other characters made spaces and the rest split on them, a third of the regex's
    time, the same list (``\\w`` is ``str.isalnum`` or ``_``)."""
    if text.isascii():
        return text.translate(_NOT_WORD_ASCII).split()
    return _WORD.findall(text)


def same_note(a: Body, b: Body) -> bool:
    """Whether ``a`` and ``b`` are one note to the reader (module docstring)."""
    if a.title == b.title and (a.stub or b.stub):
        return True
    if not a.size or not b.size:  # fewer words than one shingle
        return False
    if not _alike(a.vocabulary, b.vocabulary, VOCABULARY_JACCARD):
        return False  # a cheap bound first: copies share nearly every word
    return _alike(a.shingles, b.shingles, NEAR_DUPLICATE_JACCARD)


def _alike(a: frozenset[Any], b: frozenset[Any], least: float) -> bool:
    """Whether the Jaccard similarity of ``a`` and ``b`` is at least ``least`` (at
    most the ratio of their sizes, compared first)."""
    if min(len(a), len(b)) < least * max(len(a), len(b)):
        return False
    shared = len(a & b)
    return shared >= least * (len(a) + len(b) - shared)


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
