"""Search results for people and agents: the scopes a caller may ask for
(:data:`rubi.core.searchdefaults.SEARCH_SCOPES`), and the compact text or JSON a surface prints
(the ranking itself is :func:`rubi.app.search`). Cheap to import: the renderer loads on
use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rubi.core.searchdefaults import MORE_HINT_CLI, RANKED_HINT_CLI, SEARCH_SCOPES

if TYPE_CHECKING:
    from rubi.search.engine import SearchResult

__all__ = ["SEARCH_SCOPES", "render_search", "search_answer", "search_json"]


def render_search(
    result: SearchResult,
    budget_tokens: int,
    *,
    open_hint: str = "rubi read <id>",
    more_hint: str | None = None,
) -> str:
    """``result`` as a compact ranked index within ``budget_tokens`` (characters / 4,
    the footer included); ``open_hint`` tells the reader how to open a hit in full,
    ``more_hint`` how to see the hits left out (None: the CLI's options,
    :data:`rubi.core.searchdefaults.MORE_HINT_CLI` and ``RANKED_HINT_CLI``; a surface's
    own hint names no ranked option). Says so when nothing matched."""
    from rubi.search.render import render_compact

    more, ranked = (MORE_HINT_CLI, RANKED_HINT_CLI) if more_hint is None else (more_hint, None)
    return render_compact(
        result, budget_tokens, open_hint=open_hint, more_hint=more, ranked_hint=ranked
    ).text


STRUCTURED_FIELDS_TOKENS = 16
"""Tokens of the fixed part of :func:`search_answer`'s data (its keys, ``relevant``,
``omitted``, the JSON around the text)."""


def search_answer(
    result: SearchResult,
    budget_tokens: int,
    *,
    open_hint: str = "rubi read <id>",
    more_hint: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """The text of :func:`render_search` and, from the same rendering, the answer as
    data: ``{"query", "relevant", "ids", "omitted", "text"}``: the ids of the hits the
    text shows, best first, the number of ranked hits it leaves out, and the text
    itself (titles, days, reasons and passages are there once); ``open_hint`` and
    ``more_hint`` as for :func:`render_search`. The data as JSON fits
    ``budget_tokens`` too: a client may show the model the data instead of the text
    (Claude Code does), so the text leaves room for the rest of it."""
    import json

    from rubi.core.tokens import estimate_tokens
    from rubi.search.render import render_compact

    def id_tokens(hit: Any) -> int:
        return estimate_tokens(json.dumps(hit.id, ensure_ascii=False)) + 1

    fixed = STRUCTURED_FIELDS_TOKENS + estimate_tokens(json.dumps(result.query))
    budget = max(budget_tokens - fixed, 1)
    more, ranked = (MORE_HINT_CLI, RANKED_HINT_CLI) if more_hint is None else (more_hint, None)
    shown = render_compact(
        result, budget, open_hint=open_hint, more_hint=more, ranked_hint=ranked, extra=id_tokens
    )
    ids = [h.id for h in shown.shown]
    data = {"query": result.query, "relevant": result.relevant, "ids": ids}
    return shown.text, {**data, "omitted": shown.omitted, "text": shown.text}


def search_json(result: SearchResult, budget_tokens: int) -> dict[str, Any]:
    """The ``--json`` shape of ``result``: ``{"query", "hits": [{"id", "path", "title",
    "type", "score", "why", "snippet", ...}], "tokens", "omitted"}``, hits within
    ``budget_tokens``."""
    from rubi.search.render import result_json

    return result_json(result, budget_tokens)
