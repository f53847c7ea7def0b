"""Search results for people and agents: the scopes a caller may ask for, and the
compact text or JSON a surface prints (the ranking itself is :func:`rubi.app.search`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rubi.search.engine import SCOPES

if TYPE_CHECKING:
    from rubi.search.engine import SearchResult

__all__ = ["SEARCH_SCOPES", "render_search", "search_json"]

SEARCH_SCOPES: tuple[str, ...] = SCOPES
"""What a search may cover (``rubi search --scope``, the MCP ``search`` tool):
``all``, ``notes``, ``code``, ``personal``, ``sessions``; the engine owns the list."""


def render_search(
    result: SearchResult, budget_tokens: int, *, open_hint: str = "rubi read <id>"
) -> str:
    """``result`` as a compact ranked index within ``budget_tokens`` (characters / 4,
    the footer included); ``open_hint`` tells the reader how to open a hit in full.
    Says so when nothing matched."""
    from rubi.search.render import render_compact

    return render_compact(result, budget_tokens, open_hint=open_hint).text


def search_json(result: SearchResult, budget_tokens: int) -> dict[str, Any]:
    """The ``--json`` shape of ``result``: ``{"query", "hits": [{"id", "path", "title",
    "type", "score", "why", "snippet", ...}], "tokens", "omitted"}``, hits within
    ``budget_tokens``."""
    from rubi.search.render import result_json

    return result_json(result, budget_tokens)
