"""What a search returns: hits, their structured reasons and their lazily read snippets.

Kept apart from :mod:`rubi.search.engine` so that :mod:`rubi.search.render` can turn
reasons into text without importing the engine (which uses the renderer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["WHY_KINDS", "Hit", "SearchResult", "Snippet", "Why"]

WHY_KINDS = ("named", "text", "linked", "semantic", "variant_of", "imported_by")
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
            files import it).
        text: the detail, without the kind's wording
            (:func:`rubi.search.render.why_line` adds it).
    """

    kind: str
    text: str


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

    @property
    def snippet(self) -> str:
        """The passage that best matches the query (read from the file on first use)."""
        return self.source.text

    @property
    def date(self) -> str:
        """Its day, ``YYYY-MM-DD`` ("" when unknown): a note's ``updated`` or
        ``created`` frontmatter, a code file's last commit, else the file's
        modification time (:mod:`rubi.search.dates`; found on first use)."""
        return self.day.text


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits (best first, at most ``top_k``) and how many candidates there were."""

    query: str
    terms: tuple[str, ...]
    hits: list[Hit]
    candidates: int
