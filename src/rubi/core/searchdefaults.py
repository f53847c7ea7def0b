"""What a search returns unless its caller asks otherwise, and what it may cover: shared
by the search engine, the facade and the doors (``rubi search``, the MCP ``search``
tool), so it lives in the foundation."""

from __future__ import annotations

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_TOP_K",
    "MAX_TOP_K",
    "MORE_HINT_CLI",
    "MORE_HINT_MCP",
    "RANKED_HINT_CLI",
    "SEARCH_SCOPES",
]

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

MORE_HINT_CLI = "`--budget N` (shown)"
"""How ``rubi search`` shows the ranked hits its output budget left out: a larger
budget. One rendering (:func:`rubi.search.render.render_compact`); each surface names
its own options."""

RANKED_HINT_CLI = "`--top-k N` (ranked)"
"""How ``rubi search`` shows candidates its ``--top-k`` did not rank: a larger one
(named only when there are such candidates and ``--top-k`` is below
:data:`MAX_TOP_K`)."""

MORE_HINT_MCP = "a larger `budget_tokens`"
"""How the MCP ``search`` tool shows more: its one argument for it (the tool ranks a
fixed number of hits, so it names no ranked hint)."""
