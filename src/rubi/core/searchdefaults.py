"""What a search returns unless its caller asks otherwise, and what it may cover: shared
by the search engine, the facade and the doors (``rubi search``, the MCP ``search``
tool), so it lives in the foundation."""

from __future__ import annotations

__all__ = ["DEFAULT_BUDGET_TOKENS", "DEFAULT_TOP_K", "MAX_TOP_K", "SEARCH_SCOPES"]

DEFAULT_BUDGET_TOKENS = 1500
"""Search output budget: a compact ranked index costs about this much context."""

DEFAULT_TOP_K = 10
"""Search hits at most, unless the caller asks for another number (``rubi search
--top-k``, :func:`rubi.app.search`)."""

MAX_TOP_K = 200
"""The most hits a caller may ask for: more is a dump, not a ranking."""

SEARCH_SCOPES: tuple[str, ...] = ("all", "notes", "code", "personal", "sessions")
"""What a search may cover: ``all`` (project notes and code, and the personal vault),
``notes`` (notes of both vaults), ``code``, ``personal`` (the personal vault only),
``sessions`` (recorded sessions). The engine checks it; ``rubi search --scope`` and the
MCP ``search`` tool offer exactly these (through :data:`rubi.app.SEARCH_SCOPES`)."""
