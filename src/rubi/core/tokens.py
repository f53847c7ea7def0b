"""Token estimates for budgets."""

from __future__ import annotations

from rubi.core.config import CHARS_PER_TOKEN

__all__ = ["estimate_tokens"]


def estimate_tokens(text: str) -> int:
    """Estimated tokens in ``text``: ``ceil(len(text) / CHARS_PER_TOKEN)``.

    Characters / 4 is the usual rule of thumb for English prose and code with
    Claude's tokenizer; it over-counts nothing badly enough to blow a budget.
    """
    return -(-len(text) // CHARS_PER_TOKEN)
