"""Token counts written for people, in a module of its own: the X-ray's reports and
SessionStart's cost line (:mod:`rubi.app.sessioncost`) share it, and the cost line
loads none of the reports' modules."""

from __future__ import annotations

__all__ = ["format_tokens"]


def format_tokens(count: float) -> str:
    """A token count (or a cost in token equivalents) for people.

    Args:
        count: tokens.

    Returns:
        ``950``, ``12.3k``, ``150k``, ``4.1M``: one decimal, dropped when it is 0.
    """
    size = abs(count)
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if size >= limit:
            text = f"{count / limit:.1f}"
            return text.removesuffix(".0") + suffix
    return f"{count:.0f}"
