"""One line for a tool call whose arguments do not fit the tool's input schema: the
arguments named, what is wrong with each, never pydantic's multi-line report or the
values themselves (they may be huge). :class:`rubi.mcp.stdio.RubiMCPServer` refuses
with these lines; the early path (:mod:`rubi.mcp.early`) hands such calls to it."""

from __future__ import annotations

import re
from typing import Any

from rubi.core.safetext import replace_surrogates

__all__ = ["MAX_SHOWN_ERRORS", "RESERVED_ARGUMENTS", "invalid_arguments", "unknown_arguments"]


MAX_SHOWN_ERRORS = 3
"""Arguments a refusal names at most."""

RESERVED_ARGUMENTS = frozenset({"_meta"})
"""Top-level argument names MCP keeps for the protocol's metadata (a client may put
its ``_meta`` among a call's arguments): never refused as unknown; the tool ignores
them as it did before unknown arguments were refused."""


MAX_NAME_CHARS = 60
"""An unknown argument's name is shown at most this long (a client's key may be huge)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _name(name: str) -> str:
    """An unknown argument's name as a refusal shows it: a control character (a line
    break: the refusal is one line) as its escape, cut to :data:`MAX_NAME_CHARS`."""
    shown = _CONTROL.sub(lambda m: repr(m.group())[1:-1], name)
    return shown if len(shown) <= MAX_NAME_CHARS else shown[:MAX_NAME_CHARS] + "…"


def _location(loc: Any) -> str:
    """A pydantic error's ``loc`` as rubi's own refusals write it: ``notes[0].type``."""
    where = ""
    for part in loc:
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
    return where or "arguments"


def invalid_arguments(exc: Any) -> str:
    """One line for a pydantic ``ValidationError`` of a tool's arguments:
    ``argument: what is wrong`` for each (at most :data:`MAX_SHOWN_ERRORS`), and what
    to do; the values themselves are not repeated (they may be huge)."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    parts = []
    for error in errors[:MAX_SHOWN_ERRORS]:
        where = _location(error.get("loc", ()))
        parts.append(f"{where}: {str(error.get('msg', 'invalid')).splitlines()[0]}")
    if len(errors) > MAX_SHOWN_ERRORS:
        parts.append(f"{len(errors) - MAX_SHOWN_ERRORS} more")
    return replace_surrogates("; ".join(parts)[:1_000]) + " (see the tool's input schema)"


def _unknown_keys(
    value: dict[str, Any], schema: dict[str, Any], defs: dict[str, Any], where: str
) -> list[tuple[str, str, list[str]]]:
    """``(argument, what holds it, the names it takes)`` for each key of ``value`` that
    ``schema`` has no property for, in order; list items that are objects of the
    schema's ``$defs`` (``register``'s ``notes``, a note's ``links``) are walked too."""
    properties = schema.get("properties") or {}
    found: list[tuple[str, str, list[str]]] = []
    for key, item in value.items():
        if not where and key in RESERVED_ARGUMENTS:
            continue
        if key not in properties:
            found.append((where + key, where.rstrip(".") or "the tool", list(properties)))
            continue
        items = properties[key].get("items") if isinstance(properties[key], dict) else None
        ref = items.get("$ref") if isinstance(items, dict) else None
        target = defs.get(ref.rpartition("/")[2]) if isinstance(ref, str) else None
        if isinstance(target, dict) and isinstance(item, list):
            for i, element in enumerate(item):
                if isinstance(element, dict):
                    found += _unknown_keys(element, target, defs, f"{where}{key}[{i}].")
    return found


def unknown_arguments(arguments: dict[str, Any], schema: dict[str, Any]) -> str:
    """One line naming the arguments ``schema`` (a tool's input schema) has no property
    for, and the ones their holder takes; "" when there are none. The SDK's models
    ignore an unknown key, so a ``top_k`` or a misspelt ``qurey`` would be dropped
    without a word (the search answered at its defaults, or "query: Field required"
    alone), and a note's ``file`` for ``files`` saved the note about no file."""
    defs = schema.get("$defs") or {}
    unknown = _unknown_keys(arguments, schema, defs if isinstance(defs, dict) else {}, "")
    if not unknown:
        return ""
    shown = ", ".join(_name(name) for name, _, _ in unknown[:MAX_SHOWN_ERRORS])
    more = len(unknown) - MAX_SHOWN_ERRORS
    tail = f" and {more} more" if more > 0 else ""
    plural = "s" if len(unknown) > 1 else ""
    _, holder, takes = unknown[0]
    takes_line = ", ".join(takes) or "none"
    line = f"unknown argument{plural} {shown}{tail}; {_name(holder)} takes: {takes_line}"
    return replace_surrogates(line[:1_000]) + " (see the tool's input schema)"
