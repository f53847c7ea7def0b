"""Run a hybrid search: BM25F, exact names, personalized PageRank, fused by RRF.

``docs/search.md``. The steps, each its own function:

1. the candidate lists — :func:`text_list` (BM25F), :func:`name_list` (exact names),
   :func:`graph_list` (personalized PageRank seeded by both) and, when the
   ``semantic`` extra is installed, :func:`rubi.search.dense.dense_list` (cosine
   similarity of static embeddings, ``docs/semantic.md``);
2. fusion — :func:`fuse`: Reciprocal Rank Fusion (Cormack et al. 2009), each list
   voting only with evidence from this query and vault — a note's name when it is
   rare (:func:`rubi.search.reweighting.name_votes`) or, named by an identifier, when
   the text list agrees (:func:`rubi.search.reweighting.name_seconded`), the graph's
   neighbours when its seeds
   link to one another (:func:`rubi.search.reweighting.graph_votes`), the dense list by
   its confidence (:func:`rubi.search.dense.dense_weight`) — then the named
   node weights of :mod:`rubi.search.nodeweights`;
3. the hits — :func:`rubi.search.hitreasons.make_hit`: structured reasons
   (:class:`Why`, from :mod:`rubi.search.hitreasons`, rendered by
   :mod:`rubi.search.render`), and the passages and snippet read only when a hit is
   shown (:mod:`rubi.search.hittext`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from rubi.core.searchdefaults import SEARCH_SCOPES
from rubi.dates.hitdays import Days
from rubi.graph.build import GraphBuild
from rubi.graph.dicts import graph_dicts
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.searchindex import SearchIndex
from rubi.search.duplicates import Body, Slot, body_of, collapse
from rubi.search.fuse import Fused, rrf
from rubi.search.hitreasons import make_hit, shown_reasons
from rubi.search.hits import Hit, Passage, Passages, SearchResult, Snippet, Why
from rubi.search.hittext import FileText, SymbolLines, TermWeights, hit_parts, passage_snippet
from rubi.search.lists import (
    BM25_LIMIT,
    KIND_FOR_SCOPE,
    Candidates,
    Eligible,
    graph_list,
    name_list,
    seconded_names,
    text_list,
)
from rubi.search.nodeweights import (
    GENERATED_PAGE_WEIGHT,
    SECONDARY_FILE_WEIGHT,
    TWIN_WEIGHT,
    common_twin,
    declarations_named,
    node_weight,
    variant_of,
    wants_declarations,
    wants_tests,
)
from rubi.search.notewindow import NoteQuestion, by_best_passage, note_question, question_bm25
from rubi.search.reasons import QueryWords, query_words
from rubi.search.reweighting import text_evidence

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    import networkx as nx

    from rubi.dates.window import DateWindow
    from rubi.semantic.dense import DenseIndex

__all__ = [
    "BM25_LIMIT",
    "DATED_BM25_LIMIT",
    "GENERATED_PAGE_WEIGHT",
    "LIST_WEIGHTS",
    "SCOPES",
    "SECONDARY_FILE_WEIGHT",
    "TWIN_WEIGHT",
    "Hit",
    "SearchResult",
    "Why",
    "fuse",
    "search_index",
]

DATED_BM25_LIMIT = 500
"""BM25 candidates asked for when a date window filters them (most may fall out)."""
LIST_WEIGHTS = {"bm25": 1.0, "names": 1.0, "graph": 0.7, "dense": 1.0}
"""RRF weights: the graph list re-ranks neighbours of the text and name matches, so it
counts less than direct evidence; the dense list (notes only; empty without the
``semantic`` extra) finds what shares no word with the query, and its weight here is
multiplied by its confidence in each search (:func:`rubi.search.dense.dense_weight`:
0 when its best document does not stand out from the vault, as in a vault of
conversations on one topic, or from the list's own first ten, as on vaults where the
model finds many notes alike; ``docs/semantic.md``)."""
NEEDS = ("", "relevant", "named")
"""What a caller of :func:`search_index` may show nothing without (``needs``)."""
COLLAPSE_WINDOW = 3
"""Candidates read for stubs and near-duplicates: this many times ``top_k`` at most
(:func:`rubi.search.duplicates.collapse`)."""
SESSION_TURNS = 10
"""Turns of one session candidate that compete in a search of sessions at most
(:mod:`rubi.search.turnranking`)."""
SCOPES = SEARCH_SCOPES
"""What a search may cover; owned by :data:`rubi.core.searchdefaults.SEARCH_SCOPES`."""
_RESULT_KINDS = frozenset({"note", "file"})


def _eligibility(
    g: nx.MultiDiGraph,
    scope: str,
    include_superseded: bool,
    window: DateWindow | None = None,
    days: Days | None = None,
) -> Eligible:
    kind = KIND_FOR_SCOPE[scope]
    dated = window is not None and not window.open and days is not None
    nodes, _, _ = graph_dicts(g)  # asked for every node the lists rank

    def eligible(node: str) -> bool:
        attrs = nodes.get(node)
        if attrs is None or attrs.get("kind") not in _RESULT_KINDS:
            return False
        if kind and attrs.get("kind") != kind:
            return False
        if bool(attrs.get("session")) != (scope == "sessions"):
            return False  # captured sessions only when asked for
        if not include_superseded and attrs.get("status") == "superseded":
            return False
        return not dated or window.holds(days.of(node))  # type: ignore[union-attr]

    return eligible


def _rank_key(f: Fused) -> tuple[float, int, str]:
    return (-f.score, min(f.ranks.values()), f.id)


def fuse(
    g: nx.MultiDiGraph, cands: Candidates, tests_wanted: bool, declarations_wanted: bool = False
) -> tuple[list[Fused], dict[str, str]]:
    """RRF of the lists (:data:`LIST_WEIGHTS`; the dense list's times
    ``cands.dense_weight``, left out at 0), then the rules of :mod:`rubi.search.nodeweights`:
    each node's own weight (:func:`node_weight`; a declaration file named by a name
    only declaration files carry keeps its weight, as when ``declarations_wanted``:
    :func:`declarations_named`), a re-sort, and half
    weight for a variant of a file ranked above it (:func:`variant_of`, and a
    multiplatform platform file below its ``commonMain`` twin: :func:`common_twin`).

    Returns:
        The fused candidates, best first, and variant id → the twin above it.
    """
    lists = {
        "bm25": [h.id for h in cands.bm25],
        "names": [m.id for m in cands.names],
        "graph": cands.graph,
    }
    weights = dict(LIST_WEIGHTS)
    if cands.dense_weight > 0:
        lists["dense"] = [m.id for m in cands.dense]
        weights["dense"] *= cands.dense_weight
    fused = rrf(lists, weights=weights)
    nodes, _, _ = graph_dicts(g)
    named = declarations_named(
        ((m.id, m.name) for m in cands.names), lambda i: str(nodes[i].get("path", i))
    )
    for f in fused:
        f.score *= node_weight(nodes[f.id], tests_wanted, declarations_wanted or f.id in named)
    fused.sort(key=_rank_key)
    above: set[str] = set()
    variants: dict[str, str] = {}
    for f in fused:
        twin = variant_of(nodes[f.id].get("twins", ()), above)
        if twin is None and (common := common_twin(f.id)) in above:
            twin = common  # a platform file below its multiplatform module's common one
        if twin is not None:
            f.score *= TWIN_WEIGHT  # a variant of a file already above says little more
            variants[f.id] = twin
        above.add(f.id)
    fused.sort(key=_rank_key)
    return fused, variants


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
    dense: DenseIndex | Callable[[], DenseIndex | None] | None = None,
    window: DateWindow | None = None,
    symbols: SymbolLines | None = None,
    analysis: QueryAnalysis | None = None,
    why: bool = True,
    needs: str = "",
    asks: str | None = None,
) -> SearchResult:
    """Search one vault's index and graph.

    Args:
        index: the opened Whoosh index.
        build: the graph and name table, which nothing may change until this returns
            (a live graph is read inside :meth:`rubi.sync.vaultsync.VaultSync.reading`);
            the hits read nothing of it afterwards.
        vault_root: the vault folder, to read snippets from hits' files.
        query: the question, in words.
        terms: related words and identifiers supplied by the caller (query expansion).
        top_k: hits to return at most (≥ 1).
        scope: ``all``, ``notes``, ``code``, ``personal`` or ``sessions``.
        include_superseded: keep superseded notes in the result.
        project_root: the project folder, to read snippets from code files.
        dense: the vault's vectors (:func:`rubi.semantic.dense.dense_index_for`), or
            what opens them when the search gets to its dense list (not for ``needs``
            unmet); None leaves the dense list empty.
        window: keep only hits whose day (:class:`~rubi.dates.hitdays.Days`) lies in
            it; the text list then asks the index for :data:`DATED_BM25_LIMIT`.
        symbols: a code file's id → its top-level symbols, to cut it into passages
            by symbol (None: by lines).
        analysis: ``query``'s analysis, made already by the caller (the recall hook
            searches notes and code with one); a new one otherwise. Every list and the
            why-lines read this one.
        why: give each hit its reasons (:attr:`Hit.why`, :attr:`Hit.reasons`); False
            leaves them empty and maps no query word back for them, for a caller that
            shows none (the recall hook): the same hits in the same order.
        needs: ``relevant`` or ``named``: the caller shows nothing of a result that is
            not :attr:`SearchResult.relevant` or named nothing (the recall of a short
            prompt), so such a search ends once the text and name lists have told (no
            walk, dense list, fusion, collapse or hits; 0 candidates); "": always hits.
        asks: the text that says what kind of file the search asks for (tests,
            examples, type declarations: :func:`wants_tests`, :func:`wants_declarations`)
            when that is not ``query``: a reduced query's headline
            (:mod:`rubi.search.headline`); None reads ``query``.

    Returns:
        A :class:`SearchResult`; each hit's passages and snippet are read from its
        file the first time they are asked for (the renderer asks only for the hits
        it shows).

    Raises:
        ValueError: unknown ``scope`` or ``top_k`` < 1.
    """
    _check(scope, top_k, needs)
    g = build.graph
    days = Days(g.nodes, vault_root, project_root)
    eligible = _eligibility(g, scope, include_superseded, window, days)
    dated = window is not None and not window.open
    limit = DATED_BM25_LIMIT if dated else BM25_LIMIT
    analysis = QueryAnalysis.of(query, analysis)
    code = KIND_FOR_SCOPE[scope] == "file"
    asked = _note_question(index, query, scope, analysis)  # its saturation and window
    k1, field_b = question_bm25(asked)
    bm25 = text_list(
        index, g, query, terms, scope, include_superseded, eligible, limit, analysis, k1, field_b
    )
    files: dict[str, FileText] = {}
    read = partial(_file_of, files, vault_root=vault_root, project_root=project_root)
    if scope != "sessions":  # each hit's best passage (a search of sessions ranks turns)
        bm25 = by_best_passage(
            bm25,
            code,
            query,
            analysis,
            index,
            lambda h: read(g.nodes[h.id], h.id).text,
            lambda h: read(g.nodes[h.id], h.id).digest,
            asked,
        )
    weighed = seconded_names(name_list(build, query, terms, eligible, index, analysis), bm25)
    names = [m for m in weighed if m.votes]
    evidence = text_evidence(bm25, len(names), code=KIND_FOR_SCOPE[scope] == "file")
    if _unseen(needs, evidence["relevant"], len(names)):
        return SearchResult(query, tuple(terms), [], 0, named=len(names), **evidence)
    graph, via, linked = graph_list(g, bm25, names, eligible, relevant=evidence["relevant"])
    opened = dense() if callable(dense) else dense
    near: tuple[Sequence[Any], float, str] = ((), 0.0, "")  # the channel off: no votes
    if opened is not None:  # its module imported only then
        from rubi.search.dense import dense_list

        found = dense_list(opened, query, terms, eligible)
        near = (found.matches, found.weight, found.evidence)
    cands = Candidates(bm25, names, graph, via, *near, linked)
    texts = [query, *terms]
    said = _asked(query, asks, terms)
    fused, variants = fuse(g, cands, wants_tests(said), wants_declarations(said))
    words = query_words(query, terms, KIND_FOR_SCOPE[scope] == "file", analysis, mapped=why)
    by_name = {m.id: m for m in weighed}  # a name that did not vote says why
    by_text = {h.id: h for h in bm25}
    by_id = {f.id: f for f in fused}
    hits = []
    slots = collapse(
        [f.id for f in fused],
        partial(_note_body, g, files, vault_root, project_root),
        top_k,
        top_k * COLLAPSE_WINDOW,
    )
    weights = TermWeights.of_index(index, list(words.note_groups), list(words.code_groups))
    closest = {m.id: m.heading for m in cands.dense}
    turns: dict[str, Passages] = {}
    if scope == "sessions":
        from rubi.search.dense import text_closeness  # sessions' searches only

        near_text = text_closeness(query, terms)
        slots, scores = _session_slots(
            fused, g, files, words, weights, closest, vault_root, top_k, turns, near_text
        )
    else:
        scores = {s.lead: fused[s.first].score for s in slots}
    shown = [s.lead for s in slots]
    for slot in slots:
        f = replace(by_id[slot.lead], score=scores[slot.lead])
        attrs = g.nodes[f.id]
        file = _file_of(files, attrs, f.id, vault_root, project_root)
        reasons = shown_reasons(
            why, slot.also, f, g, cands, by_name, by_text, words, variants, texts, file
        )
        parts, snippet = _parts_of(attrs, f.id, file, turns, words, weights, symbols, closest)
        day = Snippet(partial(_day, days, shown, f.id))
        day_from = Snippet(partial(days.source, f.id))
        hit = make_hit(f, attrs, reasons, snippet, by_text.get(f.id), day, parts, day_from)
        hits.append(replace(hit, also=slot.also) if slot.also else hit)
    days.keep(shown)  # their days are found when shown: after the graph is let go
    return SearchResult(
        query,
        tuple(terms),
        hits,
        len(fused) - sum(len(s.also) for s in slots),
        named=len(names),
        **evidence,
    )


def _asked(query: str, asks: str | None, terms: Sequence[str]) -> str:
    """What the search asks for, read by :func:`wants_tests` and
    :func:`wants_declarations`: ``asks`` (a reduced query's headline), else ``query``,
    with the caller's terms."""
    return " ".join([query if asks is None else asks, *terms])


def _check(scope: str, top_k: int, needs: str) -> None:
    """Refuse an unknown ``scope`` or ``needs`` and a ``top_k`` below 1 (ValueError)."""
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, got {top_k}")
    if needs not in NEEDS:
        raise ValueError(f"needs must be one of {', '.join(map(repr, NEEDS))}, got {needs!r}")


def _unseen(needs: str, relevant: bool, named: int) -> bool:
    """Whether a caller that ``needs`` a ``relevant`` result, or one that ``named`` a
    note or file (:func:`search_index`), shows nothing of this one."""
    return (needs == "relevant" and not relevant) or (needs == "named" and not named)


def _note_question(
    index: SearchIndex, query: str, scope: str, analysis: QueryAnalysis
) -> NoteQuestion | None:
    """``query``'s terms as a question of notes (:func:`note_question`), read by its
    saturation and its window; None for a search of code alone or of sessions."""
    if scope == "sessions" or KIND_FOR_SCOPE[scope] == "file":
        return None
    return note_question(query, index.languages(), index.term_idf, analysis)


def _day(days: Days, shown: Sequence[str], node: str) -> str:
    """The day of ``node``, the code files among ``shown`` found with it (one git log)."""
    days.prefetch(shown)
    return days.of(node)


def _session_slots(
    fused: Sequence[Fused],
    g: nx.MultiDiGraph,
    files: dict[str, FileText],
    words: QueryWords,
    weights: TermWeights,
    closest: Mapping[str, str],
    vault_root: Path,
    top_k: int,
    turns: dict[str, Passages],
    near_text: Callable[[Sequence[str]], list[float]] | None = None,
) -> tuple[list[Slot], dict[str, float]]:
    """The places of a search of captured sessions: the first
    :data:`~rubi.search.turnranking.POOL_FACTOR` ``× top_k`` candidates ranked by their
    best turn (:func:`rubi.search.turnranking.rank_turns`; ``near_text``: the dense
    channel's cosine of texts, None when it is off), each with the turns it shows
    (filled into ``turns``), and each one's score (its best turn's)."""
    from rubi.search.turnranking import (  # sessions' searches only
        POOL_FACTOR,
        TURN_CONTEXT,
        rank_turns,
    )

    def turns_of(node: str) -> tuple[Passage, ...]:
        file = _file_of(files, g.nodes[node], node, vault_root, None)
        found, _ = hit_parts(
            node,
            file,
            words.note_groups,
            weights,
            kind="session",
            dense_heading=closest.get(node, ""),
            most=SESSION_TURNS,
            share=0.0,
            context=TURN_CONTEXT,
        )
        return found.items

    ranked = rank_turns([f.id for f in fused[: top_k * POOL_FACTOR]], turns_of, top_k, near_text)
    for r in ranked:
        turns[r.id] = Passages.of(r.turns)
    place = {f.id: i for i, f in enumerate(fused)}
    slots = [Slot(r.id, (), place[r.id]) for r in ranked]
    return slots, {r.id: r.score for r in ranked}


def _file_of(
    files: dict[str, FileText],
    attrs: Mapping[str, Any],
    node: str,
    vault_root: Path,
    project_root: Path | None,
) -> FileText:
    """The hit's file, made once per search (read on first use): a code file from the
    project, a note from the vault."""
    if node not in files:
        path = str(attrs.get("path", node))
        is_file = attrs.get("kind") == "file"
        root = project_root if is_file and project_root is not None else vault_root
        files[node] = FileText(project_root or vault_root, root / path, markdown=not is_file)
    return files[node]


def _note_body(
    g: nx.MultiDiGraph,
    files: dict[str, FileText],
    vault_root: Path,
    project_root: Path | None,
    node: str,
) -> Body | None:
    """A note's :class:`~rubi.search.duplicates.Body` (None for a code file, a
    captured session or a file that cannot be read: never collapsed)."""
    attrs = g.nodes[node]
    if attrs.get("kind") != "note" or attrs.get("session"):
        return None
    file = _file_of(files, attrs, node, vault_root, project_root)
    text = file.text
    return body_of(str(attrs.get("title", node)), text, file.digest) if text else None


def _parts_of(
    attrs: Mapping[str, Any],
    node: str,
    file: FileText,
    turns: Mapping[str, Passages],
    words: QueryWords,
    weights: TermWeights,
    symbols: SymbolLines | None,
    closest: Mapping[str, str],
) -> tuple[Passages, Snippet]:
    """A hit's passages and snippet: a captured session's ranked turns
    (:mod:`rubi.search.turnranking`) when the search chose them, else read on first use."""
    if node in turns:
        parts = turns[node]
        return parts, passage_snippet(node, file, parts, words.note_groups, "session")
    return _lazy_parts(attrs, node, file, words, weights, symbols, closest)


def _lazy_parts(
    attrs: Mapping[str, Any],
    node: str,
    file: FileText,
    words: QueryWords,
    weights: TermWeights,
    symbols: SymbolLines | None,
    closest: Mapping[str, str],
) -> tuple[Passages, Snippet]:
    """The passages and snippet of one hit, to be read on first use from ``file``
    (code terms for a code file, prose terms for a note)."""
    is_file = attrs.get("kind") == "file"
    kind = "code" if is_file else "session" if attrs.get("session") else "note"
    return hit_parts(
        node,
        file,
        words.code_groups if is_file else words.note_groups,
        weights,
        kind=kind,
        symbols=symbols,
        dense_heading=closest.get(node, ""),
    )
