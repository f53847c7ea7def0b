"""Token estimates for budgets: the one place that turns characters into tokens."""

from __future__ import annotations

__all__ = [
    "CHARS_PER_TOKEN",
    "TOOL_KEYS_NOT_SENT",
    "estimate_tokens",
    "json_tokens",
    "tokens_for_chars",
    "tool_tokens",
]

CHARS_PER_TOKEN = 4
"""Token estimate for budgets: characters / 4 (the usual rule of thumb for English prose and
code; a budget needs only an estimate)."""


def tokens_for_chars(chars: int) -> int:
    """Estimated tokens of ``chars`` characters: ``ceil(chars / CHARS_PER_TOKEN)``.

    Characters / 4 is the usual rule of thumb for English prose and code with
    Claude's tokenizer; it over-counts nothing badly enough to blow a budget.
    """
    return -(-chars // CHARS_PER_TOKEN)


def estimate_tokens(text: str) -> int:
    """Estimated tokens in ``text`` (see :func:`tokens_for_chars`)."""
    return tokens_for_chars(len(text))


def json_tokens(value: object) -> int:
    """Estimated tokens of ``value`` as JSON on the wire: compact separators, UTF-8 kept
    (what an MCP server sends for a tool of its ``tools/list``)."""
    import json

    return estimate_tokens(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


TOOL_KEYS_NOT_SENT = ("outputSchema",)
"""Keys of a listed MCP tool a client keeps to itself: it validates ``structuredContent``
against the ``outputSchema`` and never sends it to the model (Claude Code's request
carries each tool's name, description and input schema)."""


def tool_tokens(tool: dict[str, object]) -> int:
    """What one tool of a ``tools/list`` answer costs a client in every request: its
    JSON as the server sends it, without what the client keeps to itself
    (:data:`TOOL_KEYS_NOT_SENT`), in tokens (:func:`json_tokens`)."""
    return json_tokens({k: v for k, v in tool.items() if k not in TOOL_KEYS_NOT_SENT})
