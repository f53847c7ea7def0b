"""What a shown hit reads from its file: the file once, its passages
(:mod:`rubi.search.passages`) and its snippet line, taken from its best passage.

Everything here runs on first use, for the hits a renderer shows: a search that
prints ten hits reads ten files and asks the index for its words' IDF once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from pathlib import Path

from rubi.core.errors import NoteParseError
from rubi.core.lazylog import get_logger
from rubi.search.hits import Passage, Passages, Snippet
from rubi.search.snippet import best_snippet
from rubi.search.textkey import text_key

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FileText", "SymbolLines", "TermWeights", "hit_parts", "passage_snippet"]

log = get_logger(__name__)

SymbolLines = Callable[[str], Sequence[tuple[str, int]]]
"""A code file's id → its top-level symbols, ``(name, 1-based line)`` ([] unknown)."""

MAX_TEXT_CHARS = 200_000
"""Characters of a file cut into passages (and searched for a snippet)."""


class FileText:
    """A hit's file, read on first use through :mod:`rubi.core.safeio` (inside
    ``allowed``, a regular file, its first 1 MB) and kept; "" when refused or gone.
    A note's (``markdown``) is read as a reader sees it: the comments of its body
    blanked out (:func:`rubi.markdown.comments.shown_text`, their places kept across
    searches by :mod:`rubi.search.showntext`), so no passage, snippet or note window
    holds text the index does not."""

    __slots__ = ("_allowed", "_digest", "_markdown", "_path", "_text")

    def __init__(self, allowed: Path, path: Path, *, markdown: bool = False) -> None:
        self._allowed, self._path, self._markdown = allowed, path, markdown
        self._text: str | None = None
        self._digest: bytes | None = None

    @property
    def text(self) -> str:
        """The file's text (its first :data:`MAX_TEXT_CHARS` characters)."""
        if self._text is None:
            from rubi.core.safeio import MAX_NOTE_BYTES, UnsafeFileError, read_text

            try:
                read = read_text(self._allowed, self._path, limit=MAX_NOTE_BYTES)
            except (OSError, UnsafeFileError):
                read = ""
            read = read.lstrip("\ufeff")[:MAX_TEXT_CHARS]
            if self._markdown and ("%%" in read or "<!--" in read):  # a comment mark
                from rubi.search.showntext import shown_of

                read, digest = shown_of(read)  # the comments' places kept from before
                if digest is not None and self._digest is None:
                    self._digest = digest
            self._text = read
        return self._text

    @property
    def digest(self) -> bytes:
        """:attr:`text`'s :func:`~rubi.search.textkey.text_key`, made once: the key of
        its near-duplicate fingerprint and of its layout, which one search asks for
        the same file (a digest of a large note is tens of µs)."""
        if self._digest is None:
            self._digest = text_key(self.text)
        return self._digest


class TermWeights:
    """The IDF of a search's words in the index, asked for once, on first use; each
    word weighs 1.0 when the index cannot say."""

    __slots__ = ("_ask", "_found")

    def __init__(self, ask: Callable[[], Mapping[str, float]]) -> None:
        self._ask: Callable[[], Mapping[str, float]] | None = ask
        self._found: Mapping[str, float] = {}

    @property
    def idf(self) -> Mapping[str, float]:
        """Term → IDF."""
        if self._ask is not None:
            ask, self._ask = self._ask, None
            try:
                self._found = ask()
            except (OSError, ValueError, sqlite3.Error) as exc:  # an index gone mid-search
                log.warning("passage weights skipped: %s", exc)
        return self._found

    @classmethod
    def of_index(
        cls, index: object, note_terms: Collection[str], code_terms: Collection[str]
    ) -> TermWeights:
        """Weights from ``index`` (a :class:`~rubi.index.searchindex.SearchIndex`): prose
        terms by their body IDF, code terms by the most of body and symbols."""

        def ask() -> dict[str, float]:
            term_idf = getattr(index, "term_idf", None)
            if term_idf is None:
                return {}
            found = dict(term_idf(code_terms, ("body", "symbols"))) if code_terms else {}
            found.update(term_idf(note_terms, ("body",)) if note_terms else {})
            return found

        return cls(ask)


def hit_parts(
    node: str,
    file: FileText,
    groups: dict[str, str],
    weights: TermWeights,
    *,
    kind: str,
    symbols: SymbolLines | None = None,
    dense_heading: str = "",
    most: int | None = None,
    share: float | None = None,
    context: float = 0.0,
) -> tuple[Passages, Snippet]:
    """A hit's lazy passages and snippet.

    Args:
        node: the hit's id.
        file: its file.
        groups: analysed query term → the query word it stands for.
        weights: the search's term weights.
        kind: ``note``, ``session`` or ``code``.
        symbols: where a code file's symbols come from (None: cut by lines).
        dense_heading: the dense channel's closest section of this note ("" none).
        most, share: how many passages at most, and how close to the best
            (:func:`rubi.search.passages.choose`; None: its defaults).
        context: a session turn's share of its better neighbour's score
            (:func:`rubi.search.passages.in_context`; 0: none).
    """
    limits: dict[str, Any] = {"context": context} if context else {}
    if most is not None:
        limits["most"] = most
    if share is not None:
        limits["share"] = share

    def passages() -> tuple[Passage, ...]:
        # the passage cutter (sections, layouts, headings) loads for the first hit
        # whose passages are asked for: a recall of notes shows none
        from rubi.search.passages import choose

        text = file.text
        if not text:
            return ()
        marks = symbols(node) if symbols is not None and kind == "code" else ()
        return choose(
            node,
            text,
            groups,
            weights.idf,
            kind=kind,
            symbols=marks,
            dense_heading=dense_heading,
            digest=file.digest,
            **limits,
        )

    found = Passages(passages)
    return found, passage_snippet(node, file, found, groups, kind)


def passage_snippet(
    node: str, file: FileText, found: Passages, groups: dict[str, str], kind: str
) -> Snippet:
    """The snippet of the hit ``node`` whose passages are ``found`` (its first, the
    best): the line of it that matches best, read on first use."""
    return Snippet(partial(_snippet, node, file, found, groups, kind))


def _snippet(node: str, file: FileText, found: Passages, groups: dict[str, str], kind: str) -> str:
    """The line of ``found``'s best passage that matches ``groups`` best (of the whole
    file, frontmatter aside, when no passage matched)."""
    text = file.text
    if not text:
        return ""
    best = found.items[0] if found.items else None
    if kind == "code":
        body = best.text if best is not None and best.score > 0 else text
        return best_snippet(body, list(groups), code=True, groups=groups)
    if best is not None and best.score > 0:
        body = best.text
    else:
        # Only here: the parser loads markdown-it and YAML (40–50 ms of imports a
        # recall hook, which never shows this snippet, would pay).
        from rubi.markdown.parse import split_frontmatter

        try:
            _, body = split_frontmatter(text, node)
        except NoteParseError:
            body = text
    return best_snippet(body, list(groups), groups=groups)
