"""Run a hybrid search: BM25F, exact names, personalized PageRank, fused by RRF.

ARCHITECTURE.md section 5. Each list ranks candidates its own way; Reciprocal Rank
Fusion combines them without calibrating their scores; every hit keeps the reasons
(``why``) that put it in the result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.core.errors import NoteParseError
from rubi.graph.build import GraphBuild
from rubi.index.abbreviations import expansions
from rubi.index.analysis import LANGUAGES, analyze, identifier_parts
from rubi.index.documents import CODE_FIELDS
from rubi.index.store import BM25Hit, SearchIndex
from rubi.markdown.parse import split_frontmatter
from rubi.search.fuse import rrf
from rubi.search.names import match_names
from rubi.search.ppr import personalized_pagerank
from rubi.search.snippet import best_snippet
from rubi.vault.resolve import normalize_name

__all__ = [
    "BM25_LIMIT",
    "LIST_WEIGHTS",
    "SCOPES",
    "SEED_COUNT",
    "Hit",
    "SearchResult",
    "search_index",
]

log = logging.getLogger(__name__)

BM25_LIMIT = 50
"""BM25 candidates fused; deeper ranks add nothing after RRF's 1/(k + rank)."""
SEED_COUNT = 8
"""Top BM25 hits that seed the personalized PageRank walk (with every name match)."""
NAME_SEED_WEIGHT = 2.0
"""Teleport weight of a name match relative to the best text match (1.0)."""
LIST_WEIGHTS = {"bm25": 1.0, "names": 1.0, "graph": 0.7}
"""RRF weights: the graph list re-ranks neighbours of the text and name matches, so it
counts less than direct evidence."""
GENERATED_PAGE_WEIGHT = 0.25
"""Fused-score multiplier for generated map and module pages: they repeat the titles
of notes and files, and must not push those down."""
SECONDARY_FILE_WEIGHT = 0.5
"""Fused-score multiplier for tests, examples and benchmarks: they mention everything
they exercise, so they match a query as well as the code itself, yet are rarely what
the question is about (unless it says test, spec or example)."""
TWIN_WEIGHT = 0.5
"""Fused-score multiplier for a file whose near-duplicate variant ranks above it
(:func:`rubi.graph.code.twins`): the second copy of the same code adds little."""
_TESTS_WANTED = re.compile(r"(?i)\b(tests?|testing|spec|specs|examples?|benchmarks?|fixtures?)\b")
SCOPES = ("all", "notes", "code", "personal", "sessions")
_KIND_FOR_SCOPE = {
    "all": None,
    "notes": "note",
    "code": "file",
    "personal": "note",
    "sessions": "note",
}
_RESULT_KINDS = frozenset({"note", "file"})
_WHY_FIELDS = ("title", "aliases", "symbols", "headings", "tags", "path_text")
"""Fields worth naming in a ``why`` (a body match is the default and goes unsaid)."""
_WHY_NAME = {"code_title": "title", "code_path": "path_text"}
"""Code files' own fields, named as their notes' counterparts."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result.

    Attributes:
        id: note id (vault-relative path without ``.md``) or code file path.
        path: vault-relative path with ``.md`` (or the repository path of a file).
        kind: ``note`` or ``file``.
        score: the RRF score (comparable within one result list only).
        why: reasons, e.g. ``text match: embed (title)``, ``named: "Aliases"``,
            ``linked to "Embed files"``.
        snippet: the passage that best matches the query.
        superseded_by: the successor's id when this note is superseded.
        stale: files of a note that changed since its commit (or are gone).
    """

    id: str
    path: str
    title: str
    kind: str
    type: str
    status: str
    score: float
    why: tuple[str, ...]
    snippet: str
    superseded_by: str | None = None
    stale: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits (best first, at most ``top_k``) and how many candidates there were."""

    query: str
    terms: tuple[str, ...]
    hits: list[Hit]
    candidates: int


def _text_why(hit: BM25Hit, word_for_term: dict[str, str], pieces: set[str]) -> str:
    """``text match: embed (title); note, another`` — each word with the most telling
    field it matched in (a body match goes unsaid)."""
    best: dict[str, int] = {}
    for fname, terms in hit.matched.items():
        fname = _WHY_NAME.get(fname, fname)
        rank = _WHY_FIELDS.index(fname) if fname in _WHY_FIELDS else len(_WHY_FIELDS)
        for t in terms:
            word = word_for_term.get(t, t)
            best[word] = min(best.get(word, rank), rank)
    # "sqlite" says it; its pieces "sq" and "lite" (from splitting SQLite) add nothing.
    # Other words stay, even inside a longer one ("app" beside "application").
    for word in [w for w in best if w in pieces and any(w != o and w in o for o in best)]:
        del best[word]
    groups: dict[int, list[str]] = {}
    for word, rank in sorted(best.items(), key=lambda kv: (kv[1], kv[0])):
        groups.setdefault(rank, []).append(word)
    parts = []
    for rank, words in sorted(groups.items()):
        label = f" ({_WHY_FIELDS[rank].removesuffix('_text')})" if rank < len(_WHY_FIELDS) else ""
        parts.append(", ".join(words[:5]) + label)
    return "text match: " + "; ".join(parts)


def _as_written(name: str, texts: Sequence[str]) -> str:
    """``name`` (normalized) as the caller wrote it, e.g. ``SearchIndex``."""
    for text in texts:
        start = text.casefold().find(name)
        if start >= 0 and len(text.casefold()) == len(text):
            return text[start : start + len(name)]
    return name


def _word_map(text: str) -> tuple[dict[str, str], set[str]]:
    """Index term → the piece of the query it came from, and the pieces identifiers
    split into. An identifier's parts map to themselves (``dispatch_request``'s
    ``request`` term → ``request``), so a why-line never claims the whole identifier
    matched when only a part did; the pieces (``sq``, ``lite`` of ``SQLite``) give way
    to the whole in a why-line, other words do not."""
    out: dict[str, str] = {}
    pieces: set[str] = set()
    for raw in text.split():
        word = raw.strip(".,;:!?\"'()")
        parts = identifier_parts(word)
        if len(parts) > 1:
            pieces.update(p.lower() for p in parts)
        for lang in LANGUAGES:
            for part in parts:
                for term in analyze(part, lang):
                    out.setdefault(term, part.lower())
            for term in analyze(word, lang):
                out.setdefault(term, word.lower())
    return out, pieces


def search_index(
    index: SearchIndex,
    build: GraphBuild,
    vault_root: Path,
    query: str,
    *,
    terms: Sequence[str] = (),
    top_k: int = 10,
    scope: str = "all",
    include_superseded: bool = False,
    project_root: Path | None = None,
) -> SearchResult:
    """Search one vault's index and graph.

    Args:
        index: the opened Whoosh index.
        build: the graph and name table.
        vault_root: the vault folder, to read snippets from hits' files.
        query: the question, in words.
        terms: related words and identifiers supplied by the caller (query expansion).
        top_k: hits to return at most (≥ 1).
        scope: ``all``, ``notes`` or ``code``.
        include_superseded: keep superseded notes in the result.
        project_root: the project folder, to read snippets from code files.

    Returns:
        A :class:`SearchResult`.

    Raises:
        ValueError: unknown ``scope`` or ``top_k`` < 1.
    """
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, got {top_k}")
    g = build.graph
    kind = _KIND_FOR_SCOPE[scope]
    excluded = () if include_superseded else ("superseded",)

    def eligible(node: str) -> bool:
        attrs = g.nodes.get(node)
        if attrs is None or attrs.get("kind") not in _RESULT_KINDS:
            return False
        if kind and attrs.get("kind") != kind:
            return False
        if bool(attrs.get("session")) != (scope == "sessions"):
            return False  # captured sessions only when asked for
        return include_superseded or attrs.get("status") != "superseded"

    bm25 = index.bm25(
        query,
        extra_terms=terms,
        limit=BM25_LIMIT,
        kind=kind,
        exclude_status=excluded,
        fields=CODE_FIELDS if kind == "file" else None,
    )
    bm25 = [h for h in bm25 if h.id in g and eligible(h.id)]
    names = [
        m
        for m in match_names(
            query,
            terms,
            build.names,
            getattr(build, "type_names", None),
            getattr(build, "defined_names", None),
        )
        if eligible(m.id)
    ]

    seeds: dict[str, float] = {}
    if bm25:
        top = bm25[0].score or 1.0
        for h in bm25[:SEED_COUNT]:
            seeds[h.id] = h.score / top
    for m in names:
        seeds[m.id] = max(seeds.get(m.id, 0.0), NAME_SEED_WEIGHT)
    ppr = personalized_pagerank(g, seeds)
    # A node the walk reached only through others is not shown on the graph's word alone:
    # graph-only candidates must touch a seed, so every hit can say what it is linked to.
    graph_list = [n for n, _ in ppr.ranked if (n in seeds or n in ppr.via) and eligible(n)]
    graph_list = graph_list[:BM25_LIMIT]

    fused = rrf(
        {"bm25": [h.id for h in bm25], "names": [m.id for m in names], "graph": graph_list},
        weights=LIST_WEIGHTS,
    )
    wants_tests = bool(_TESTS_WANTED.search(" ".join([query, *terms])))
    for f in fused:
        node = g.nodes[f.id]
        if node.get("generated"):
            f.score *= GENERATED_PAGE_WEIGHT
        elif node.get("secondary") and not wants_tests:
            f.score *= SECONDARY_FILE_WEIGHT
    fused.sort(key=lambda f: (-f.score, min(f.ranks.values()), f.id))
    above: set[str] = set()
    variant_of: dict[str, str] = {}
    for f in fused:
        twin = sorted(above.intersection(g.nodes[f.id].get("twins", ())))
        if twin:
            f.score *= TWIN_WEIGHT  # a variant of a file already above says little more
            variant_of[f.id] = twin[0]
        above.add(f.id)
    fused.sort(key=lambda f: (-f.score, min(f.ranks.values()), f.id))
    by_bm25 = {h.id: h for h in bm25}
    by_name = {m.id: m for m in names}
    word_for_term, pieces = _word_map(" ".join([query, *terms]))
    text = " ".join([query, *terms])
    note_groups = {t: t for t in analyze(text)}
    code_terms = list(dict.fromkeys(analyze(text, "code")))
    code_groups = {t: t for t in code_terms}
    if kind == "file":  # abbreviations were searched for: show and highlight them too
        for term in code_terms:
            for other, written in expansions([term]).items():
                code_groups.setdefault(other, term)
                word_for_term.setdefault(other, written)
    hits: list[Hit] = []
    for f in fused[:top_k]:
        attrs = g.nodes[f.id]
        why: list[str] = []
        if f.id in by_name:
            name = by_name[f.id].name
            shown = attrs.get("title") if normalize_name(str(attrs.get("title"))) == name else None
            shown = shown or _as_written(name, [query, *terms])
            why.append(f'named: "{shown}"')
        if f.id in by_bm25:
            why.append(_text_why(by_bm25[f.id], word_for_term, pieces))
        if f.id in ppr.via:
            via = ppr.via[f.id]
            why.append(f'linked to "{g.nodes[via].get("title", via)}"')
        if f.id in variant_of:
            why.append(f"variant of {variant_of[f.id]}")
        if attrs.get("imported_by"):
            why.append(f"imported by {attrs['imported_by']}")
        path = str(attrs.get("path", f.id))
        is_file = attrs.get("kind") == "file"
        root = project_root if is_file and project_root is not None else vault_root
        hits.append(
            Hit(
                id=f.id,
                path=path,
                title=str(attrs.get("title", f.id)),
                kind=str(attrs.get("kind", "note")),
                type=str(attrs.get("type", "note")),
                status=str(attrs.get("status", "active")),
                score=round(f.score, 6),
                why=tuple(why),
                snippet=_snippet(
                    root,
                    path,
                    code_groups if is_file else note_groups,
                    markdown=not is_file,
                    allowed=project_root or vault_root,
                ),
                superseded_by=attrs.get("superseded_by"),
            )
        )
    return SearchResult(query, tuple(terms), hits, len(fused))


def _snippet(
    root: Path, path: str, groups: dict[str, str], *, markdown: bool = True, allowed: Path
) -> str:
    """The snippet of one hit; ``groups`` maps each query term (and abbreviation) to the
    query word it stands for. The file is read through :mod:`rubi.core.safeio` (inside
    ``allowed``, a regular file, its first 1 MB); "" when it is refused or gone."""
    from rubi.core.config import MAX_NOTE_BYTES
    from rubi.core.safeio import UnsafeFileError, read_text

    try:
        text = read_text(allowed, root / path, limit=MAX_NOTE_BYTES)
    except (OSError, UnsafeFileError):
        return ""
    if not markdown:
        return best_snippet(text[:200_000], list(groups), code=True, groups=groups)
    try:
        _, body = split_frontmatter(text.lstrip("\ufeff"), path)
    except NoteParseError:
        body = text
    return best_snippet(body[:200_000], list(groups), groups=groups)
