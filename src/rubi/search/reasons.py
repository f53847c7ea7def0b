"""Why a hit is in the result, as structured reasons (:class:`~rubi.search.hits.Why`).

The engine collects what each list knew about a candidate (the name it was called by,
the fields its words matched in, the seed the graph walk came from, the twin above it,
how many files import it); this module turns that into ``Why`` values and
:func:`rubi.search.render.why_line` into the text a reader sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rubi.index.analysis import is_cjk
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import BM25Hit
from rubi.vault.names import normalize_name

from .hits import Why

__all__ = ["PageText", "QueryWords", "as_written", "named_why", "query_words", "text_why"]

_WHY_FIELDS = ("title", "aliases", "symbols", "headings", "tags", "path_text")
"""Fields worth naming in a ``why`` (a body match is the default and goes unsaid)."""
_WHY_NAME = {"code_title": "title", "code_path": "path_text"}
"""Code files' own fields, named as their notes' counterparts."""


@dataclass(slots=True)
class QueryWords:
    """How the query's terms map back to what the caller wrote.

    Attributes:
        word_for_term: index term → the query word (or identifier piece, or
            abbreviation) it came from.
        pieces: the pieces identifiers split into (``http``, ``server`` of ``HttpServer``).
        note_groups: prose terms (for note snippets), each its own group.
        code_groups: code terms and, in a code search, their abbreviations → the term
            they stand for (for code snippets).
        text: the query and its terms as written (where CJK bigrams are joined back).
    """

    word_for_term: dict[str, str]
    pieces: set[str]
    note_groups: dict[str, str] = field(default_factory=dict)
    code_groups: dict[str, str] = field(default_factory=dict)
    text: str = ""


def query_words(
    query: str,
    terms: Sequence[str],
    code_only: bool,
    analysis: QueryAnalysis | None = None,
    *,
    mapped: bool = True,
) -> QueryWords:
    """The :class:`QueryWords` of a query and its terms; ``code_only`` (a code search,
    where abbreviations were searched for) adds them so they are shown and
    highlighted too. ``analysis``: the query's, made already (a new one otherwise).
    Without ``mapped`` no term is mapped back to its word (``word_for_term`` holds the
    abbreviations only, ``pieces`` nothing): for a search that makes no why-line (every
    word analysed in every chain in use: about 10 ms for a prompt naming ten files)."""
    text = " ".join([query, *terms])
    analysis = QueryAnalysis.of(text, analysis)
    word_for_term, pieces = analysis.word_map(text) if mapped else ({}, set())
    code_terms = list(dict.fromkeys(analysis.terms(text, "code")))
    words = QueryWords(
        word_for_term,
        pieces,
        note_groups={t: t for t in analysis.terms(text)},
        code_groups={t: t for t in code_terms},
        text=text,
    )
    if code_only:
        from rubi.index.abbreviations import expansions  # a search of code alone

        for term in code_terms:
            for other, written in expansions([term]).items():
                words.code_groups.setdefault(other, term)
                words.word_for_term.setdefault(other, written)
    return words


TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Protocol

    class PageText(Protocol):
        """A hit's file, read on first use (:class:`rubi.search.hittext.FileText`)."""

        @property
        def text(self) -> str:
            """The file's text ("" when it cannot be read)."""
            ...


def text_why(hit: BM25Hit, words: QueryWords, page: PageText | None = None) -> Why:
    """``Why("text", "embed (title); note, another")`` — each word with the most
    telling field it matched in (a body match goes unsaid), at most 5 words a field.

    CJK bigrams matched side by side in the question are named as the run they spell
    there only where the hit's title or ``page`` (its file, read when a field group
    holds two bigrams or more) holds that run (:func:`_joined_bigrams`): the bigrams
    that matched otherwise, never a stretch of the question the page lacks. None:
    the title alone is looked in."""
    best: dict[str, int] = {}
    for fname, terms in hit.matched.items():
        fname = _WHY_NAME.get(fname, fname)
        rank = _WHY_FIELDS.index(fname) if fname in _WHY_FIELDS else len(_WHY_FIELDS)
        for t in terms:
            word = words.word_for_term.get(t, t)
            best[word] = min(best.get(word, rank), rank)
    # "httpserver" says it; its pieces "http" and "server" (from splitting HttpServer)
    # add nothing.
    # Other words stay, even inside a longer one ("app" beside "application").
    for word in [w for w in best if w in words.pieces and any(w != o and w in o for o in best)]:
        del best[word]
    groups: dict[int, list[str]] = {}
    for word, rank in sorted(best.items(), key=lambda kv: (kv[1], kv[0])):
        groups.setdefault(rank, []).append(word)
    parts = []
    held = _Page(hit.title, page)
    for rank, found in sorted(groups.items()):
        group = _joined_bigrams(found, words.text, held)
        label = f" ({_WHY_FIELDS[rank].removesuffix('_text')})" if rank < len(_WHY_FIELDS) else ""
        parts.append(", ".join(group[:5]) + label)
    return Why("text", "; ".join(parts))


class _Page:
    """A hit's title and text, its file read on the first question asked of it
    (:meth:`holds`)."""

    __slots__ = ("_file", "_text", "_title")

    def __init__(self, title: str, file: PageText | None) -> None:
        self._title, self._file = title, file
        self._text: str | None = None

    def holds(self, run: str) -> bool:
        """Whether the title or the text holds ``run`` as written."""
        if self._text is None:
            text = self._file.text if self._file is not None else ""
            self._text = f"{self._title}\n{text}".lower()
        return run in self._text


def _joined_bigrams(words: list[str], text: str, page: _Page) -> list[str]:
    """``words`` with the CJK bigrams that overlap in ``text`` (the question) joined into
    the runs they spell there that ``page`` holds, in the first bigram's place; a
    stretch of the question the page does not hold stays cut into the runs it holds
    (each as long as the page holds it, from the left: ``服务``, ``务器`` →
    ``服务器`` when the page says 服务器, both bigrams when it says 服务员 and 务器官
    only). Other words as they are."""
    grams = {w for w in words if len(w) == 2 and is_cjk(w)}
    if len(grams) < 2:
        return words
    runs: dict[str, list[str]] = {}  # first bigram -> the run it starts, its other bigrams
    i = 0
    while i < len(text) - 1:
        if text[i : i + 2] not in grams:
            i += 1
            continue
        end = i  # the last bigram of the stretch of matched bigrams from i
        while text[end + 1 : end + 3] in grams:
            end += 1
        while i <= end:
            j = i  # the run text[i : j + 2] grows while the page holds it
            while j < end and page.holds(text[i : j + 3]):
                j += 1
            run = [text[i : j + 2], *(text[k : k + 2] for k in range(i + 1, j + 1))]
            runs.setdefault(text[i : i + 2], run)
            i = j + 1
    inside = {g for run in runs.values() for g in run[1:]}
    return [runs[w][0] if w in runs else w for w in words if w not in inside]


def named_why(
    name: str, attrs: Mapping[str, object], texts: Sequence[str], evidence: str = ""
) -> Why:
    """``Why("named", shown)``: the note's title when the match was its title, else
    ``name`` as the caller wrote it in ``texts`` (the query and terms); ``evidence``:
    what a name of plain words was weighed on (:attr:`rubi.search.names.NameMatch.evidence`:
    ``rare: in 3 documents, 80% of the question``, ``not counted: common word, in 312
    documents``)."""
    title = attrs.get("title")
    shown = str(title) if title and normalize_name(str(title)) == name else None
    return Why("named", shown or as_written(name, texts), evidence)


def as_written(name: str, texts: Sequence[str]) -> str:
    """``name`` (normalized) as the caller wrote it, e.g. ``SearchIndex``."""
    for text in texts:
        start = text.casefold().find(name)
        if start >= 0 and len(text.casefold()) == len(text):
            return text[start : start + len(name)]
    return name
