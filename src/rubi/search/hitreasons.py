"""A search hit's reasons, in the order its why-line shows them (named, text,
linked, semantic, variant_of, imported_by, also): made for each hit
:func:`rubi.search.engine.search_index` returns, unless its caller shows no why-line
(the recall hook), and the hit itself (:func:`make_hit`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rubi.index.querymatch import BM25Hit
from rubi.search.fuse import Fused
from rubi.search.hits import Hit, Passages, Snippet, Why
from rubi.search.hittext import FileText
from rubi.search.lists import Candidates
from rubi.search.names import NameMatch
from rubi.search.reasons import QueryWords, named_why, text_why

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    import networkx as nx

__all__ = ["DENSE_SHOWN", "make_hit", "reasons_for", "shown_reasons"]

DENSE_SHOWN = 10
"""A hit among the dense list's first this many says it is close in meaning."""


def reasons_for(
    f: Fused,
    g: nx.MultiDiGraph,
    cands: Candidates,
    by_name: Mapping[str, NameMatch],
    by_text: Mapping[str, BM25Hit],
    words: QueryWords,
    variants: Mapping[str, str],
    texts: Sequence[str],
    page: FileText | None = None,
) -> tuple[Why, ...]:
    """The reasons of one fused candidate, in the order shown: named, text, linked,
    variant_of, imported_by (``by_name`` and ``by_text`` index ``cands`` by id;
    ``page``: its file, read if its why-line needs it, :func:`text_why`)."""
    attrs = g.nodes[f.id]
    why: list[Why] = []
    if f.id in by_name:
        named = by_name[f.id]
        why.append(named_why(named.name, attrs, texts, named.evidence))
    if f.id in by_text:
        why.append(text_why(by_text[f.id], words, page))
    if f.id in cands.via:
        via = cands.via[f.id]
        why.append(Why("linked", str(g.nodes[via].get("title", via)), cands.graph_evidence))
    if f.ranks.get("dense", DENSE_SHOWN + 1) <= DENSE_SHOWN:
        match = cands.dense[f.ranks["dense"] - 1]
        why.append(
            Why(
                "semantic",
                match.heading or str(attrs.get("title", f.id)),
                cands.dense_evidence,
            )
        )
    if f.id in variants:
        why.append(Why("variant_of", variants[f.id]))
    if attrs.get("imported_by"):
        why.append(Why("imported_by", str(attrs["imported_by"])))
    return tuple(why)


def shown_reasons(
    why: bool,
    also: Sequence[str],
    f: Fused,
    g: nx.MultiDiGraph,
    cands: Candidates,
    by_name: Mapping[str, NameMatch],
    by_text: Mapping[str, BM25Hit],
    words: QueryWords,
    variants: Mapping[str, str],
    texts: Sequence[str],
    page: FileText | None,
) -> tuple[Why, ...]:
    """:func:`reasons_for` a hit, and the ids collapsed into its place (``also``);
    none without ``why`` (a caller that shows no why-line)."""
    if not why:
        return ()
    reasons = reasons_for(f, g, cands, by_name, by_text, words, variants, texts, page)
    return (*reasons, Why("also", ", ".join(also))) if also else reasons


def _why_lines(reasons: Sequence[Why]) -> tuple[str, ...]:
    """Each reason's why-line (:func:`rubi.search.whyline.why_line`); none for a search
    that gives its hits no reasons (the recall hook), whose process then never imports
    the why-lines' module."""
    if not reasons:
        return ()
    from rubi.search.whyline import why_line

    return tuple(why_line(r) for r in reasons)


def make_hit(
    f: Fused,
    attrs: Mapping[str, Any],
    reasons: tuple[Why, ...],
    snippet: Snippet,
    text: BM25Hit | None = None,
    day: Snippet | None = None,
    parts: Passages | None = None,
    day_from: Snippet | None = None,
) -> Hit:
    """One :class:`Hit` from a fused candidate, its node's attributes, its reasons, its
    (unread) snippet and its text match if any; ``why`` holds the reasons rendered by
    :func:`rubi.search.whyline.why_line`."""
    return Hit(
        id=f.id,
        path=str(attrs.get("path", f.id)),
        title=str(attrs.get("title", f.id)),
        kind=str(attrs.get("kind", "note")),
        type=str(attrs.get("type", "note")),
        status=str(attrs.get("status", "active")),
        score=round(f.score, 6),
        why=_why_lines(reasons),
        source=snippet,
        superseded_by=attrs.get("superseded_by"),
        reasons=reasons,
        matched=tuple(sorted({t for ts in text.matched.values() for t in ts})) if text else (),
        day=day if day is not None else Snippet.of(""),
        day_from=day_from if day_from is not None else Snippet.of(""),
        parts=parts if parts is not None else Passages.of(),
    )
