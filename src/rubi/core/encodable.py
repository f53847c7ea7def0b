"""Whether decoded JSON can be written back as UTF-8: Python's ``json`` module accepts
``"\\ud800"`` (a lone surrogate) in a string, and such a string cannot be encoded, so a
reply echoing it would fail. Imports nothing: the MCP fast path loads it before anything
else."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

__all__ = ["first_unencodable"]


def first_unencodable(value: Any) -> str | None:
    """The first string (key or value) in ``value`` that does not encode as UTF-8 (it
    holds a lone surrogate), walked without recursion (the value may be nested
    deeply); None when every string encodes."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
