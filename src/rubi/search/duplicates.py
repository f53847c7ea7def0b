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
(:func:`rubi.search.nodeweights.variant_of`) and a captured session is never a copy.

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

from rubi.core.recentmemo import RecentMemo
from rubi.search.printstore import stored
from rubi.search.textkey import text_key

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "SHINGLE_WORDS",
    "STUB_WORDS",
    "Body",
    "Fingerprint",
    "Slot",
    "body_of",
    "clean_body",
    "collapse",
    "forget_bodies",
    "make_body",
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

MEMO_BODIES = 1024
"""Notes whose :class:`Fingerprint` :func:`body_of` keeps (their word sets: about 100
distinct words a note on obsidian-hub's candidates, some 10 KB each; neither the file's
text nor its cleaned body is kept)."""

_WORD = re.compile(r"\w+")
_NOT_WORD_ASCII = str.maketrans(
    {i: " " for i in range(128) if not (chr(i).isalnum() or chr(i) == "_")}
)
"""Every ASCII character ``\\w`` does not match, to a space (for :func:`words_of`)."""
_HEADING = re.compile(r"^\s{0,3}#{1,6}(?:\s.*)?$", re.MULTILINE)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n.*?^(?:---|\.\.\.)[ \t]*$", re.DOTALL | re.MULTILINE)


class Fingerprint:
    """What a note is compared by whatever the search: the title as compared (case and
    spacing aside), whether it is a stub, its count of shingle places (``size``) and
    its set of words (``vocabulary``)."""

    __slots__ = ("size", "stub", "title", "vocabulary")

    def __init__(self, title: str, words: Sequence[str]) -> None:
        self.title = " ".join(title.casefold().split())
        self.stub = len(words) < STUB_WORDS
        self.size = max(len(words) - SHINGLE_WORDS + 1, 0)
        self.vocabulary = frozenset(words)

    @classmethod
    def stored(cls, title: str, words: int, vocabulary: frozenset[str]) -> Fingerprint:
        """The fingerprint of a text of ``words`` words whose distinct words are
        ``vocabulary`` (:mod:`rubi.search.printstore`): the same as made from the text."""
        made = cls.__new__(cls)
        made.title = " ".join(title.casefold().split())
        made.stub = words < STUB_WORDS
        made.size = max(words - SHINGLE_WORDS + 1, 0)
        made.vocabulary = vocabulary
        return made


class Body:
    """What two notes are compared by in one search: a note's :class:`Fingerprint`
    (``title``, ``stub``, ``size``, ``vocabulary``) and the text it was made from,
    whose shingles (runs of :data:`SHINGLE_WORDS` lower-case words) are made the first
    time a comparison needs them: only for two bodies that share most of their words
    (:data:`VOCABULARY_JACCARD`).

    ``source`` is the file's text (``cleaned`` False: :func:`clean_body` makes the
    body of it when the shingles are asked for) or the cleaned body itself. The
    shingles live with the body, for the search: kept in the memo they took more
    memory than the word sets of all its notes (13 of 28 MiB over 300 searches of
    obsidian-hub, where three notes in four were shingled) for 0.4 ms a search."""

    __slots__ = ("_cleaned", "_shingles", "_source", "print")

    def __init__(self, made: Fingerprint, source: str, *, cleaned: bool) -> None:
        self.print = made
        self._source = source
        self._cleaned = cleaned
        self._shingles: frozenset[str] | None = None

    @property
    def title(self) -> str:
        return self.print.title

    @property
    def stub(self) -> bool:
        return self.print.stub

    @property
    def size(self) -> int:
        return self.print.size

    @property
    def vocabulary(self) -> frozenset[str]:
        return self.print.vocabulary

    @property
    def shingles(self) -> frozenset[str]:
        """The body's distinct shingles, each its words joined by a space (no word holds
        one: the same sets as tuples of words, compared faster, since a string keeps its
        hash and a tuple computes it again at every set operation)."""
        if self._shingles is None:
            body = self._source if self._cleaned else clean_body(self._source)
            w = words_of(body)
            # each run of SHINGLE_WORDS words, zipped from shifted lists and joined in C
            runs = zip(*(w[i:] for i in range(SHINGLE_WORDS)), strict=False)  # shorter tails
            self._shingles = frozenset(map(" ".join, runs))
        return self._shingles


@dataclass(frozen=True, slots=True)
class Slot:
    """One place in the result: the candidate shown (``lead``) and the candidates
    collapsed into it, best-ranked first; ``first`` is the rank (0-based, in the
    candidates given) of the group's best-ranked member, whose place it takes."""

    lead: str
    also: tuple[str, ...]
    first: int


def clean_body(text: str) -> str:
    """A note's file text as its words are found in: frontmatter, headings and link
    targets removed, lower-cased."""
    body = _FRONTMATTER.sub("", text, count=1) if text.startswith("---") else text
    if "#" in body:  # no heading without one
        body = _HEADING.sub("", body)
    if "](" in body:  # nor a link target
        body = _LINK_TARGET.sub("]", body)
    return body.lower()


def make_body(title: str, text: str) -> Body:
    """The :class:`Body` of a note titled ``title`` whose file reads ``text``
    (frontmatter included or not), made anew."""
    body = clean_body(text)
    return Body(Fingerprint(title, words_of(body)), body, cleaned=True)


class _Fingerprints:
    """The last :data:`MEMO_BODIES` fingerprints made, by title and a BLAKE2b digest
    of the text (a note that changed is a new key: nothing here is ever stale); the
    least recently used dropped first; safe across threads."""

    def __init__(self, most: int) -> None:
        self._kept = RecentMemo(most)  # (title, text digest) -> Fingerprint

    def body(self, title: str, text: str, digest: bytes | None = None) -> Body:
        key = (title, text_key(text) if digest is None else digest)
        found: Fingerprint | None = self._kept.get(key)
        if found is not None:
            return Body(found, text, cleaned=False)
        kept = stored(key[1])  # written at index time, for a process that searches once
        if kept is not None:
            made = Body(Fingerprint.stored(title, *kept), text, cleaned=False)
        else:
            made = make_body(title, text)
        self._kept.put(key, made.print)
        return made

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


_FINGERPRINTS = _Fingerprints(MEMO_BODIES)


def body_of(title: str, text: str, digest: bytes | None = None) -> Body:
    """The :class:`Body` of a note titled ``title`` whose file reads ``text``
    (frontmatter included or not). Its :class:`Fingerprint` is kept for the last
    :data:`MEMO_BODIES` notes asked (a process that searches one vault again and
    again, the engine or the MCP server, meets the same candidates: their words are
    found once), keyed by a digest of the text (:func:`rubi.search.textkey.text_key`;
    ``digest``, when the caller has it already), so the memo holds no text."""
    return _FINGERPRINTS.body(title, text, digest)


def forget_bodies() -> None:
    """Empty :func:`body_of`'s memo."""
    _FINGERPRINTS.clear()


def words_of(text: str) -> list[str]:
    """The ``\\w+`` runs of ``text``, in order: for an ASCII text (most notes) its
    other characters made spaces and the rest split on them, a third of the regex's
    time, the same list (``\\w`` is ``str.isalnum`` or ``_``)."""
    if text.isascii():
        return text.translate(_NOT_WORD_ASCII).split()
    return _WORD.findall(text)


def same_note(a: Body, b: Body) -> bool:
    """Whether ``a`` and ``b`` are one note to the reader (module docstring)."""
    pa, pb = a.print, b.print
    if pa.title == pb.title and (pa.stub or pb.stub):
        return True
    if not pa.size or not pb.size:  # fewer words than one shingle
        return False
    if not _alike(pa.vocabulary, pb.vocabulary, VOCABULARY_JACCARD):
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
