"""Why a hit is in the result, as structured reasons (:class:`~rubi.search.hits.Why`).

The engine collects what each list knew about a candidate (the name it was called by,
the fields its words matched in, the seed the graph walk came from, the twin above it,
how many files import it); this module turns that into ``Why`` values and
:func:`rubi.search.render.why_line` into the text a reader sees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rubi.index.abbreviations import expansions
from rubi.index.analysis import is_cjk
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import BM25Hit
from rubi.vault.resolve import normalize_name

from .hits import Why

__all__ = ["QueryWords", "as_written", "named_why", "query_words", "text_why"]

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
    query: str, terms: Sequence[str], code_only: bool, analysis: QueryAnalysis | None = None
) -> QueryWords:
    """The :class:`QueryWords` of a query and its terms; ``code_only`` (a code search,
    where abbreviations were searched for) adds them so they are shown and
    highlighted too. ``analysis``: the query's, made already (a new one otherwise)."""
    text = " ".join([query, *terms])
    analysis = QueryAnalysis.of(text, analysis)
    word_for_term, pieces = analysis.word_map(text)
    code_terms = list(dict.fromkeys(analysis.terms(text, "code")))
    words = QueryWords(
        word_for_term,
        pieces,
        note_groups={t: t for t in analysis.terms(text)},
        code_groups={t: t for t in code_terms},
        text=text,
    )
    if code_only:
        for term in code_terms:
            for other, written in expansions([term]).items():
                words.code_groups.setdefault(other, term)
                words.word_for_term.setdefault(other, written)
    return words


def text_why(hit: BM25Hit, words: QueryWords) -> Why:
    """``Why("text", "embed (title); note, another")`` — each word with the most
    telling field it matched in (a body match goes unsaid), at most 5 words a field."""
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
    for rank, found in sorted(groups.items()):
        group = _joined_bigrams(found, words.text)
        label = f" ({_WHY_FIELDS[rank].removesuffix('_text')})" if rank < len(_WHY_FIELDS) else ""
        parts.append(", ".join(group[:5]) + label)
    return Why("text", "; ".join(parts))


def _joined_bigrams(words: list[str], text: str) -> list[str]:
    """``words`` with the CJK bigrams that overlap in ``text`` joined into the run they
    spell there (``服务``, ``务器`` → ``服务器``), in the run's place; other words as
    they are."""
    grams = {w for w in words if len(w) == 2 and is_cjk(w)}
    if len(grams) < 2:
        return words
    runs: dict[str, list[str]] = {}  # first bigram -> the run it starts
    i = 0
    while i < len(text) - 1:
        if text[i : i + 2] not in grams:
            i += 1
            continue
        j = i
        while text[j + 1 : j + 3] in grams:
            j += 1
        runs[text[i : i + 2]] = [text[i : j + 2], *(text[k : k + 2] for k in range(i + 1, j + 1))]
        i = j + 1
    inside = {g for run in runs.values() for g in run[1:]}
    return [runs[w][0] if w in runs else w for w in words if w not in inside]


def named_why(
    name: str, attrs: Mapping[str, object], texts: Sequence[str], evidence: str = ""
) -> Why:
    """``Why("named", shown)``: the note's title when the match was its title, else
    ``name`` as the caller wrote it in ``texts`` (the query and terms); ``evidence``:
    what a name of plain words was weighed on (:attr:`rubi.search.names.NameMatch.evidence`:
    ``rare: df 3, 80% of the question``, ``not counted: common word (df 312)``)."""
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
