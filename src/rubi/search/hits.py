"""What a search returns: hits, their structured reasons and their lazily read snippets.

Kept apart from :mod:`rubi.search.engine` so that :mod:`rubi.search.render` can turn
reasons into text without importing the engine (which uses the renderer).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["WHY_KINDS", "Hit", "Passage", "Passages", "SearchResult", "Snippet", "Why"]

WHY_KINDS = ("named", "text", "linked", "semantic", "variant_of", "imported_by", "also")
"""The kinds of :class:`Why`, in the order a hit lists them."""


@dataclass(frozen=True, slots=True)
class Why:
    """One reason a hit is in the result, before it is rendered.

    Attributes:
        kind: one of :data:`WHY_KINDS` — ``named`` (the query names it: ``text`` is the
            name as shown), ``text`` (BM25 matched: ``text`` is
            ``word, word (field); word``), ``linked`` (the graph walk reached it from a
            seed: ``text`` is that seed's title), ``semantic`` (the dense list ranks
            it among its first ten: ``text`` is its closest section's heading, or its
            title), ``variant_of`` (a near-duplicate of
            the hit ``text`` ranked above it), ``imported_by`` (``text`` is how many
            files import it), ``also`` (``text`` names the stubs and near-duplicates
            of this note collapsed into its place: :mod:`rubi.search.duplicates`).
        text: the detail, without the kind's wording
            (:func:`rubi.search.render.why_line` adds it).
        evidence: why the list behind this reason had a vote in this search (the rule
            of :mod:`rubi.search.reweighting` and what it measured, ``rare: in 3 documents,
            80% of the question``; a name that did not vote says so: ``not counted:
            common word, in 312 documents``), or "" when the list always votes.
    """

    kind: str
    text: str
    evidence: str = ""


class Snippet:
    """A hit's passage (or its day), read on first use and kept (a search reads only
    the snippets of the hits that are shown). ``Snippet.of(text)`` holds a known
    passage."""

    __slots__ = ("_read", "_text")

    def __init__(self, read: Callable[[], str]) -> None:
        self._read: Callable[[], str] | None = read
        self._text = ""

    @classmethod
    def of(cls, text: str) -> Snippet:
        """A snippet whose text is already known."""
        snippet = cls(str)
        snippet._read, snippet._text = None, text
        return snippet

    @property
    def text(self) -> str:
        """The passage ("" when the file is refused or gone); read once."""
        if self._read is not None:
            self._text, self._read = self._read(), None
        return self._text

    @property
    def is_read(self) -> bool:
        """Whether the passage has been read (or was given)."""
        return self._read is None

    def __repr__(self) -> str:
        return f"Snippet({self._text!r})" if self._read is None else "Snippet(<unread>)"


@dataclass(frozen=True, slots=True)
class Passage:
    """The part of a hit's file that answers the query best (or next best).

    Attributes:
        id: ``<parent>#<anchor>``: ``notes/callouts#Supported types``,
            ``src/flask/app.py#L108-167``, ``.rubi/sessions/2026-05-01-ab12#14 05~2``
            (anchors: :mod:`rubi.search.sections`); ``rubi read`` and the MCP ``read``
            open it.
        parent: the hit's id (the whole file).
        anchor: the part after ``#``.
        heading: the section's heading as written, a code part's symbol name, a
            turn's time; "" for text before the first heading or lines outside symbols.
        kind: ``section`` (a note's heading section), ``turn`` (a captured session's
            turn), ``symbol`` (a code symbol or part of one), ``lines`` (other lines).
        start, end: its lines in the file, 1-based and inclusive (a turn without an
            answer runs on to the end of the turn after it).
        text: its lines as written (at most
            :data:`rubi.search.passages.MAX_PASSAGE_CHARS` characters).
        score: how well it matched (the query's words weighted by their IDF,
            comparable within one hit only); 0 when nothing in the file matched.
        focus: the line (in the file) that matched best; ``start`` when none did.
    """

    id: str
    parent: str
    anchor: str
    heading: str
    kind: str
    start: int
    end: int
    text: str
    score: float = 0.0
    focus: int = 0

    def rebased(self, parent: str) -> Passage:
        """The same passage under another parent id (a ``personal:`` prefix added)."""
        if parent == self.parent:
            return self
        return dataclasses.replace(self, parent=parent, id=f"{parent}#{self.anchor}")


class Passages:
    """A hit's passages, found on first use and kept (only shown hits are cut into
    passages). ``Passages.of(items)`` holds known passages."""

    __slots__ = ("_find", "_items")

    def __init__(self, find: Callable[[], tuple[Passage, ...]]) -> None:
        self._find: Callable[[], tuple[Passage, ...]] | None = find
        self._items: tuple[Passage, ...] = ()

    @classmethod
    def of(cls, items: tuple[Passage, ...] = ()) -> Passages:
        """Passages already known."""
        found = cls(tuple)
        found._find, found._items = None, items
        return found

    @property
    def items(self) -> tuple[Passage, ...]:
        """The passages, best first (() when the file is refused or gone)."""
        if self._find is not None:
            self._items, self._find = self._find(), None
        return self._items

    def __repr__(self) -> str:
        return f"Passages({self._items!r})" if self._find is None else "Passages(<unread>)"


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result.

    Attributes:
        id: note id (vault-relative path without ``.md``) or code file path.
        path: vault-relative path with ``.md`` (or the repository path of a file).
        kind: ``note`` or ``file``.
        score: the RRF score (comparable within one result list only).
        why: the reasons as shown, e.g. ``text match: embed (title)``,
            ``named: "Aliases"``, ``linked to "Embed files"`` (rendered from
            ``reasons`` by :func:`rubi.search.render.why_line`).
        source: the snippet, read when :attr:`snippet` is first asked for.
        superseded_by: the successor's id when this note is superseded.
        stale: files of a note that changed since its commit (or are gone).
        reasons: the structured reasons behind ``why``, in the same order.
        matched: the analysed query terms its text match found (in any field),
            sorted; empty when it is a hit for another reason only.
        day: its day, found when :attr:`date` is first asked for.
        day_from: where its day comes from, found when :attr:`date_source` is asked for.
        parts: its passages, found when :attr:`passages` is first asked for.
        also: ids of the stubs and near-duplicates of this note collapsed into its
            place (:mod:`rubi.search.duplicates`), best-ranked first; each can be
            read by id.
    """

    id: str
    path: str
    title: str
    kind: str
    type: str
    status: str
    score: float
    why: tuple[str, ...]
    source: Snippet = field(compare=False, repr=False)
    superseded_by: str | None = None
    stale: tuple[str, ...] = ()
    reasons: tuple[Why, ...] = ()
    matched: tuple[str, ...] = ()
    day: Snippet = field(default_factory=lambda: Snippet.of(""), compare=False, repr=False)
    day_from: Snippet = field(default_factory=lambda: Snippet.of(""), compare=False, repr=False)
    parts: Passages = field(default_factory=Passages.of, compare=False, repr=False)
    also: tuple[str, ...] = ()

    @property
    def passages(self) -> tuple[Passage, ...]:
        """The parts of the file that match best, best first: the best heading
        section of a note, symbol or lines of a code file, turn of a captured session,
        and the others that match nearly as well (:mod:`rubi.search.passages`); each
        one's ``parent`` is this hit's id. Read from the file on first use."""
        return tuple(p.rebased(self.id) for p in self.parts.items)

    @property
    def snippet(self) -> str:
        """The passage that best matches the query (read from the file on first use)."""
        return self.source.text

    @property
    def date(self) -> str:
        """Its day, ``YYYY-MM-DD`` ("" when unknown): a note's ``updated`` or
        ``created`` frontmatter, a code file's last commit, else the file's
        modification time (:mod:`rubi.dates.hitdays`; found on first use)."""
        return self.day.text

    @property
    def date_source(self) -> str:
        """Where :attr:`date` comes from: ``frontmatter``, ``file name``, ``commit``
        (the last commit that changed the file: an uncommitted edit is newer) or
        ``file time`` (a copied vault's or a fresh clone's files carry the day they
        were written to disk); "" when there is no date
        (:data:`rubi.dates.hitdays.DAY_SOURCES`)."""
        return self.day_from.text


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits (best first, at most ``top_k``) and how many candidates there were.

    ``coverage`` is the largest share of the query's IDF mass one text hit matched
    (:attr:`rubi.index.querymatch.BM25Hit.coverage`; 1.0 when not measured), ``cjk`` the
    share of the query's IDF mass in CJK bigrams, ``significance`` the largest
    co-occurrence significance of one text hit (nats,
    :func:`rubi.index.querymatch.significance`; 0.0 when not measured), ``named``
    how many notes or files the query named (the name list's voting matches).
    ``relevant`` says whether any of it clears the relevance floor
    (:func:`rubi.search.reweighting.relevant`): False labels the hits as weak matches
    (they are still returned) and keeps the recall hook silent.
    """

    query: str
    terms: tuple[str, ...]
    hits: list[Hit]
    candidates: int
    coverage: float = 1.0
    cjk: float = 0.0
    named: int = 0
    relevant: bool = True
    significance: float = 0.0
