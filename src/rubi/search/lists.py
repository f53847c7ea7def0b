"""The candidate lists of one search, each ranked best first over eligible nodes only:
the text list (BM25F, :mod:`rubi.index.searchindex`), the name list (exact names and
aliases, voting only when the name is rare in the vault and most of the question),
and the graph list (personalized PageRank from the text and name matches, voting only
with linked seeds).
The dense list is :func:`rubi.search.dense.dense_list`; fusing them is
:func:`rubi.search.engine.fuse`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from rubi.graph.build import GraphBuild
from rubi.graph.dicts import link_dicts
from rubi.index.analysis import analyze, function_words_only
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import BM25Hit
from rubi.index.schema import CODE_FIELDS
from rubi.index.searchindex import SearchIndex
from rubi.search.codecoverage import by_coverage, question_field_b, question_words
from rubi.search.names import NameMatch, match_names
from rubi.search.ppr import personalized_pagerank
from rubi.search.reasons import as_written
from rubi.search.reweighting import (
    graph_votes,
    identifier_like,
    in_code_span,
    linked_seeds,
    name_evidence,
    name_idf,
    name_seconded,
    name_share,
    name_votes,
)
from rubi.vault.names import normalize_name

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    import networkx as nx

    from rubi.semantic.dense import DenseMatch

__all__ = [
    "NAME_SEED_WEIGHT",
    "SEED_COUNT",
    "Candidates",
    "Eligible",
    "graph_list",
    "name_list",
    "seconded_names",
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
    k1: float | None = None,
    field_b: Mapping[str, float] | None = None,
) -> list[BM25Hit]:
    """List 1: BM25F hits (at most :data:`BM25_LIMIT` eligible; ``limit`` asked of
    the index; code fields in a code search, and there a long question's order by
    coverage, :func:`rubi.search.codecoverage.by_coverage`; ``analysis``: the query's;
    ``k1``: the saturation, None for the index's own,
    :func:`rubi.search.notewindow.question_k1` for a search of notes; ``field_b``: a
    field's length normalisation, :func:`~rubi.search.notewindow.question_bm25`; in a
    search of code alone, None is a plain-words question's own,
    :func:`rubi.search.codecoverage.question_field_b`)."""
    kind = KIND_FOR_SCOPE[scope]
    words = question_words(query, analysis) if kind == "file" else 0
    if kind == "file" and field_b is None:
        field_b = question_field_b(words)
    bm25 = index.bm25(
        query,
        extra_terms=terms,
        limit=limit,
        kind=kind,
        exclude_status=() if include_superseded else ("superseded",),
        fields=CODE_FIELDS if kind == "file" else None,
        analysis=analysis,
        k1=k1,
        field_b=field_b,
    )
    hits = [h for h in bm25 if h.id in g and eligible(h.id)][:BM25_LIMIT]
    return by_coverage(hits, words) if kind == "file" else hits


def name_list(
    build: GraphBuild,
    query: str,
    terms: Sequence[str],
    eligible: Eligible,
    index: SearchIndex | None = None,
    analysis: QueryAnalysis | None = None,
) -> list[NameMatch]:
    """List 2: notes and files named in the query or terms (:func:`match_names`), each
    weighed by :func:`rubi.search.reweighting.name_votes` against ``index``'s text: a
    note named in plain words votes only when the name is rare in the vault (its IDF
    kept as the match's ``rarity``; a name of stop words of the index's languages is
    never rare, :func:`rubi.index.analysis.function_words_only`) and holds at least
    half of the question's IDF mass (:func:`rubi.search.reweighting.name_share`), or
    is the whole query (its analysed terms: ``analysis``, the query's), one whole term,
    or written as a code span; a note named by an identifier (``TypeScript``, ``2022``)
    inside a longer question is marked ``needs_text`` (:func:`seconded_names`), and so
    is a file named there by words written as prose (``Okio``, ``Fastify``, ``server``:
    no identifier sign, not a code span), while a file named as an identifier
    (``writeUtf8``, ``binding.go``) always votes. Why: a project's own name (the
    ``object Okio`` in one file, ``fastify.d.ts``) and a file named by a dictionary word
    are in many questions that are not about that file; voting whatever the text said,
    they came first above the text's answer (``docs/benchmarks-history.md``, "issue 28:
    doc-comment first sentences in five languages, twentieth pass"). Matches
    that do not vote are returned
    with ``votes`` False and the evidence that failed (for the why-line); fusion reads
    only the voting ones. Without ``index`` every match votes."""
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
    weighed: list[NameMatch] = []
    measured: dict[str, NameMatch | None] = {}  # name -> its weighed match (id aside)
    question = _Question(index, " ".join(texts))
    for m in found:
        kind = str(build.graph.nodes[m.id].get("kind", "note"))
        written = as_written(m.name, texts)
        if in_code_span(m.name, texts, normalize_name):
            written = f"`{written}`"  # written as a name: an identifier's standing
        words = analyze(m.name)
        whole = m.name in given or (bool(asked) and asked <= set(words))
        if whole or written.startswith("`") or (kind == "file" and identifier_like(written)):
            weighed.append(m)  # no rarity measured: the why-line says nothing more
            continue
        if kind == "file" or identifier_like(written):
            weighed.append(replace(m, needs_text=True))  # seconded by the text or not
            continue
        if m.name not in measured:
            measured[m.name] = question.weigh(m, written, words, kind)
        match = measured[m.name]
        if match is not None:
            weighed.append(replace(match, id=m.id))
    return weighed


class _Question:
    """The question's content terms and their IDFs and document frequencies in the
    index's body text, read once and only when a plain-words name needs them."""

    def __init__(self, index: SearchIndex, text: str) -> None:
        self._index = index
        self._query = text
        self._langs: list[str] | None = None
        self._terms: list[str] | None = None

    def langs(self) -> list[str]:
        if self._langs is None:
            self._langs = self._index.languages() or ["en"]
        return self._langs

    def terms(self) -> list[str]:
        """The question's terms without the function words of the index's languages
        (Spanish "de" is dropped from Spanish notes, so it would look rare)."""
        if self._terms is None:
            langs = self.langs()
            kept = [w for w in self._query.split() if not function_words_only(w, langs)]
            self._terms = list(dict.fromkeys(analyze(" ".join(kept))))
        return self._terms

    def weigh(self, m: NameMatch, written: str, words: list[str], kind: str) -> NameMatch | None:
        """``m`` with its rarity, its vote and the evidence behind it; None for a name
        of function words of the index's languages (French "du", a command's name
        among French pages), which has no rarity (those notes drop the words) and
        names nothing."""
        if not words or function_words_only(m.name, self.langs()):
            return None
        asked = self.terms()
        idf = self._index.term_idf([*words, *asked])
        _, dfs = self._index.term_df(words)
        rarity = name_idf(words, idf)
        share = name_share(words, asked, idf) if asked else 1.0
        votes = name_votes(written, rarity, kind, share=share)
        df = min(dfs.values(), default=0)
        return replace(
            m, rarity=rarity, votes=votes, evidence=name_evidence(df, rarity, share, votes)
        )


def seconded_names(names: Sequence[NameMatch], bm25: Sequence[BM25Hit]) -> list[NameMatch]:
    """``names`` with each ``needs_text`` match's vote kept only when the text list
    ranks its note among its first :data:`SEED_COUNT` hits
    (:func:`rubi.search.reweighting.name_seconded`); a vote dropped says why in its
    ``evidence`` (``not counted: not in the text's first 8``). Other matches are
    returned as they are."""
    first = [h.id for h in bm25[:SEED_COUNT]]
    unseconded = f"not counted: not in the text's first {SEED_COUNT}"
    out: list[NameMatch] = []
    for m in names:
        if m.needs_text and m.votes and not name_seconded(m.id, first):
            m = replace(m, votes=False, evidence=unseconded)
        out.append(m)
    return out


def graph_list(
    g: nx.MultiDiGraph,
    bm25: Sequence[BM25Hit],
    names: Sequence[NameMatch],
    eligible: Eligible,
    *,
    relevant: bool = True,
) -> tuple[list[str], dict[str, str], str]:
    """List 3: personalized PageRank seeded by the top :data:`SEED_COUNT` text hits
    (by score relative to the best) and every name match (:data:`NAME_SEED_WEIGHT`).
    When the search is below the relevance floor (``relevant`` False:
    :func:`rubi.search.reweighting.relevant`) its text hits seed nothing: a walk from
    weak matches is no evidence (it showed their neighbours as "linked to … (from the
    only top match)" under "Nothing relevant"), and with no seed the list is empty.

    Returns:
        The ranked ids (at most :data:`BM25_LIMIT`), node → seed it was reached
        from, and how many seeds link to another seed
        (:func:`rubi.search.reweighting.linked_seeds`), as the why-line says it
        (``3 of 8 top matches interlinked``, ``from the only top match``). A node the
        walk reached only through others is not shown on the graph's word alone:
        graph-only candidates must touch a seed, so every hit can say what it is
        linked to; and they are shown only when the seeds agree
        (:func:`rubi.search.reweighting.graph_votes`), else the list ranks the seeds
        alone.
    """
    seeds: dict[str, float] = {}
    if bm25 and relevant:
        top = bm25[0].score or 1.0
        for h in bm25[:SEED_COUNT]:
            seeds[h.id] = h.score / top
    for m in names:
        seeds[m.id] = max(seeds.get(m.id, 0.0), NAME_SEED_WEIGHT)
    ppr = personalized_pagerank(g, seeds, linked_only=True)
    walked = [s for s in seeds if s in g]
    succ, pred = link_dicts(g)
    linked = linked_seeds(walked, partial(_neighbours, succ, pred))
    said = (
        f"{linked} of {len(walked)} top matches interlinked"
        if len(walked) > 1
        else ("from the only top match" if walked else "no top match")
    )
    # The first BM25_LIMIT eligible nodes of the walk's order (of its seeds only, when
    # the seeds disagree): eligibility is asked of those and the ones skipped before
    # them, not of every node reached (about 730 a question on obsidian-hub, 50 kept).
    if not graph_votes(linked, len(walked)):
        return _first_eligible((n for n, _ in ppr.ranked if n in seeds), eligible), {}, said
    return _first_eligible((n for n, _ in ppr.ranked), eligible), dict(ppr.via), said


def _first_eligible(nodes: Iterable[str], eligible: Eligible) -> list[str]:
    """The first :data:`BM25_LIMIT` of ``nodes`` that are ``eligible``, in order."""
    out: list[str] = []
    for n in nodes:
        if eligible(n):
            out.append(n)
            if len(out) >= BM25_LIMIT:
                break
    return out


def _neighbours(succ: Mapping[str, Any], pred: Mapping[str, Any], node: str) -> set[str]:
    return set(succ[node]) | set(pred[node])
