"""Search results for people and agents: the scopes a caller may ask for
(:data:`rubi.core.config.SEARCH_SCOPES`), and the compact text or JSON a surface prints
(the ranking itself is :func:`rubi.app.search`). Cheap to import: the renderer loads on
use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rubi.core.config import SEARCH_SCOPES

if TYPE_CHECKING:
    from rubi.search.engine import SearchResult

__all__ = ["SEARCH_SCOPES", "render_search", "search_answer", "search_json"]


def render_search(
    result: SearchResult, budget_tokens: int, *, open_hint: str = "rubi read <id>"
) -> str:
    """``result`` as a compact ranked index within ``budget_tokens`` (characters / 4,
    the footer included); ``open_hint`` tells the reader how to open a hit in full.
    Says so when nothing matched."""
    from rubi.search.render import render_compact

    return render_compact(result, budget_tokens, open_hint=open_hint).text


def search_answer(
    result: SearchResult, budget_tokens: int, *, open_hint: str = "rubi read <id>"
) -> tuple[str, dict[str, Any]]:
    """The text of :func:`render_search` and, from the same rendering, the hits it
    shows as data: ``{"query", "relevant", "hits": [{"id", "path", "title", "type",
    "kind", "date", "score", "why", "passages", "superseded_by"?}], "omitted"}``
    (``passages``: the ids of the parts shown; ``omitted``: ranked hits not shown)."""
    from rubi.search.render import render_compact

    shown = render_compact(result, budget_tokens, open_hint=open_hint)
    hits = [
        {
            "id": h.id,
            "path": h.path,
            "title": h.title,
            "type": h.type,
            "kind": h.kind,
            "date": h.date,
            "score": h.score,
            "why": list(h.why),
            "passages": [p.id for p in h.passages],
            **({"superseded_by": h.superseded_by} if h.superseded_by else {}),
        }
        for h in shown.shown
    ]
    data = {"query": result.query, "relevant": result.relevant, "hits": hits}
    return shown.text, {**data, "omitted": shown.omitted}


def search_json(result: SearchResult, budget_tokens: int) -> dict[str, Any]:
    """The ``--json`` shape of ``result``: ``{"query", "hits": [{"id", "path", "title",
    "type", "score", "why", "snippet", ...}], "tokens", "omitted"}``, hits within
    ``budget_tokens``."""
    from rubi.search.render import result_json

    return result_json(result, budget_tokens)
