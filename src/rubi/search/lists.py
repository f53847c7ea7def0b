"""The candidate lists of one search, each ranked best first over eligible nodes only:
the text list (BM25F, :mod:`rubi.index.searchindex`), the name list (exact names and
aliases, voting only when the name is rare in the vault), and the graph list
(personalized PageRank from the text and name matches, voting only with linked seeds).
The dense list is :func:`rubi.search.dense.dense_list`; fusing them is
:func:`rubi.search.engine.fuse`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from rubi.graph.build import GraphBuild
from rubi.index.analysis import analyze, function_words_only
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import BM25Hit
from rubi.index.schema import CODE_FIELDS
from rubi.index.searchindex import SearchIndex
from rubi.search.names import NameMatch, match_names
from rubi.search.ppr import personalized_pagerank
from rubi.search.reasons import as_written
from rubi.search.reweighting import (
    graph_votes,
    identifier_like,
    linked_seeds,
    name_idf,
    name_votes,
)
from rubi.vault.resolve import normalize_name

if TYPE_CHECKING:
    import networkx as nx

    from rubi.semantic.dense import DenseMatch

__all__ = [
    "NAME_SEED_WEIGHT",
    "SEED_COUNT",
    "Candidates",
    "Eligible",
    "graph_list",
    "name_list",
    "text_list",
]

BM25_LIMIT = 50
"""BM25 candidates fused; deeper ranks add nothing after RRF's 1/(k + rank)."""
KIND_FOR_SCOPE = {
    "all": None,
    "notes": "note",
    "code": "file",
    "personal": "note",
    "sessions": "note",
}
"""The kind of node each search scope looks for (None: every kind)."""
SEED_COUNT = 8
"""Top BM25 hits that seed the personalized PageRank walk (with every name match)."""
NAME_SEED_WEIGHT = 2.0
"""Teleport weight of a name match relative to the best text match (1.0)."""
Eligible = Callable[[str], bool]
"""Whether a graph node may be a hit of this search (kind, scope, status)."""


@dataclass(frozen=True, slots=True)
class Candidates:
    """The ranked lists of one search, best first, eligible nodes only.

    Attributes:
        bm25: BM25F hits (at most :data:`BM25_LIMIT`).
        names: exact-name matches, longest name first.
        graph: node ids ranked by personalized PageRank (at most :data:`BM25_LIMIT`).
        via: node → the seed the walk reached it from (its "linked to").
        dense: documents close in meaning ([] when the channel is off).
        dense_weight: the dense list's confidence, 0 to 1
            (:func:`rubi.search.dense.dense_weight`); its RRF weight is
            :data:`LIST_WEIGHTS`' times this, and at 0 the list takes no part.
        dense_evidence: what ``dense_weight`` was measured on, for the why-line.
        graph_evidence: how many of the graph's seeds link to another seed, for
            the why-line (:func:`rubi.search.reweighting.linked_seeds`).
    """

    bm25: list[BM25Hit]
    names: list[NameMatch]
    graph: list[str]
    via: Mapping[str, str]
    dense: Sequence[DenseMatch] = ()
    dense_weight: float = 1.0
    dense_evidence: str = ""
    graph_evidence: str = ""


def text_list(
    index: SearchIndex,
    g: nx.MultiDiGraph,
    query: str,
    terms: Sequence[str],
    scope: str,
    include_superseded: bool,
    eligible: Eligible,
    limit: int = BM25_LIMIT,
    analysis: QueryAnalysis | None = None,
) -> list[BM25Hit]:
    """List 1: BM25F hits (at most :data:`BM25_LIMIT` eligible; ``limit`` asked of
    the index; code fields in a code search; ``analysis``: the query's)."""
    kind = KIND_FOR_SCOPE[scope]
    bm25 = index.bm25(
        query,
        extra_terms=terms,
        limit=limit,
        kind=kind,
        exclude_status=() if include_superseded else ("superseded",),
        fields=CODE_FIELDS if kind == "file" else None,
        analysis=analysis,
    )
    return [h for h in bm25 if h.id in g and eligible(h.id)][:BM25_LIMIT]


def name_list(
    build: GraphBuild,
    query: str,
    terms: Sequence[str],
    eligible: Eligible,
    index: SearchIndex | None = None,
    analysis: QueryAnalysis | None = None,
) -> list[NameMatch]:
    """List 2: notes and files named in the query or terms (:func:`match_names`), each
    note named in plain words kept only when the name is rare in ``index``'s text
    (:func:`rubi.search.reweighting.name_votes`; its IDF kept as the match's ``rarity``;
    a name of stop words of the index's languages is never rare,
    :func:`rubi.index.analysis.function_words_only`) or the name is the whole query
    (its analysed terms: ``analysis``, the query's) or one whole term. Without ``index``
    every match is kept."""
    found = match_names(
        query,
        terms,
        build.names,
        getattr(build, "type_names", None),
        getattr(build, "defined_names", None),
    )
    found = [m for m in found if eligible(m.id)]
    if index is None:
        return found
    texts = [query, *terms]
    asked = set(QueryAnalysis.of(query, analysis).terms(query))
    given = {normalize_name(t) for t in terms}
    kept: list[NameMatch] = []
    rarity: dict[str, float] = {}
    langs: list[str] | None = None  # the index's, read once a name needs them
    for m in found:
        kind = str(build.graph.nodes[m.id].get("kind", "note"))
        written = as_written(m.name, texts)
        words = analyze(m.name)
        whole = m.name in given or (bool(asked) and asked <= set(words))
        if kind == "file" or whole or identifier_like(written):
            kept.append(m)  # no rarity measured: the why-line says nothing more
            continue
        if m.name not in rarity:
            # A name of function words of the index's languages (French "du", a
            # command's name among French pages) has no rarity: those notes drop them.
            if words and langs is None:
                langs = index.languages()
            common = not words or function_words_only(m.name, langs or ["en"])
            rarity[m.name] = 0.0 if common else name_idf(words, index.term_idf(words))
        if name_votes(written, rarity[m.name], kind, whole=whole):
            kept.append(replace(m, rarity=rarity[m.name]))
    return kept


def graph_list(
    g: nx.MultiDiGraph, bm25: Sequence[BM25Hit], names: Sequence[NameMatch], eligible: Eligible
) -> tuple[list[str], dict[str, str], str]:
    """List 3: personalized PageRank seeded by the top :data:`SEED_COUNT` text hits
    (by score relative to the best) and every name match (:data:`NAME_SEED_WEIGHT`).

    Returns:
        The ranked ids (at most :data:`BM25_LIMIT`), node → seed it was reached
        from, and how many seeds link to another seed
        (:func:`rubi.search.reweighting.linked_seeds`), as the why-line says it
        (``3 of 8 seeds linked``, ``1 seed``). A node the walk reached only through
        others is not shown on the graph's word alone: graph-only candidates must
        touch a seed, so every hit can say what it is linked to; and they are shown
        only when the seeds agree (:func:`rubi.search.reweighting.graph_votes`), else the
        list ranks the seeds alone.
    """
    seeds: dict[str, float] = {}
    if bm25:
        top = bm25[0].score or 1.0
        for h in bm25[:SEED_COUNT]:
            seeds[h.id] = h.score / top
    for m in names:
        seeds[m.id] = max(seeds.get(m.id, 0.0), NAME_SEED_WEIGHT)
    ppr = personalized_pagerank(g, seeds, linked_only=True)
    walked = [s for s in seeds if s in g]
    linked = linked_seeds(walked, partial(_neighbours, g))
    ranked = [n for n, _ in ppr.ranked if eligible(n)]
    said = f"{linked} of {len(walked)} seeds linked" if len(walked) > 1 else "1 seed"
    if not graph_votes(linked, len(walked)):
        return [n for n in ranked if n in seeds][:BM25_LIMIT], {}, said
    return ranked[:BM25_LIMIT], dict(ppr.via), said


def _neighbours(g: nx.MultiDiGraph, node: str) -> set[str]:
    return set(g.succ[node]) | set(g.pred[node])
