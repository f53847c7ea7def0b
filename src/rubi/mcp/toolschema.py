"""Tool input schemas as short as the client needs them.

Every tool's schema goes out with every request of every session. pydantic writes a
``title`` for the schema and each property (``"title": "Budget Tokens"``: the name
again) and spells an optional list as ``anyOf: [array, null]`` with ``default: null``.
:func:`compact_schema` drops both: the property names say the same, and an argument
left out is the same as null. What a client validates against is unchanged: the same
properties, types, enums, required names and defaults that mean something; the
server still validates every call with the full pydantic model.
"""

from __future__ import annotations

from typing import Any

from rubi.core.tokens import TOOL_KEYS_NOT_SENT, tool_tokens

__all__ = ["NOT_SENT_TO_THE_MODEL", "compact_schema", "tool_tokens"]

_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_ONE = ("items", "additionalProperties", "not")


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``{anyOf: [X, {type: null}], default: null}`` → ``X`` (and its other keys)."""
    options = schema.get("anyOf")
    if not isinstance(options, list) or len(options) != 2 or schema.get("default", 0) is not None:
        return schema
    rest = [o for o in options if o != {"type": "null"}]
    if len(rest) != 1 or not isinstance(rest[0], dict):
        return schema
    merged = {k: v for k, v in schema.items() if k not in ("anyOf", "default")}
    return {**rest[0], **merged}


def compact_schema(schema: Any) -> Any:
    """``schema`` without ``title`` keywords and with nullable optionals as their plain
    type (a new object; the argument is not changed)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in _without_null(schema).items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: compact_schema(sub) for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            out[key] = [compact_schema(sub) for sub in value]
        elif key in _SUBSCHEMA_ONE:
            out[key] = compact_schema(value)
        else:
            out[key] = value
    return out


NOT_SENT_TO_THE_MODEL = TOOL_KEYS_NOT_SENT
"""Keys of a listed tool a client keeps to itself (:data:`rubi.core.tokens.TOOL_KEYS_NOT_SENT`)."""
