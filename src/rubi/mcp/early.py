"""Tool calls answered before the MCP SDK is loaded.

A client may call a tool right after ``tools/list`` (a script, a headless session, a
benchmark): the SDK's import and the server's build take longer than a search of a
small vault. :class:`EarlyCalls` answers such a call in the greeting
(:func:`rubi.mcp.front.greet`) with the tool's own body (:mod:`rubi.mcp.calls`),
the same reply the SDK would give (a test compares them), once the arguments are of a
plain shape it can check against the tool's advertised input schema: strings,
integers, booleans, lists of strings, enums, nothing unknown, every required one
there. Anything else (an argument the SDK would coerce or refuse, a tool whose schema
uses references) goes to the SDK, which validates it with the tool's full model.

Only the stdlib and what the tools need (:mod:`rubi.app`) are imported here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from rubi.core.paths import VaultPaths
from rubi.core.safetext import has_lone_surrogate
from rubi.mcp import calls
from rubi.mcp.front import Handshake
from rubi.mcp.hooktool import HOOK_TOOL, HookAnswerer, hook_result

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

__all__ = ["EarlyCalls", "plain_arguments", "sdk_order"]

log = logging.getLogger(__name__)

_SIMPLE = {"string": str, "boolean": bool}


def _plain_value(value: Any, schema: dict[str, Any]) -> bool:
    """``value`` is of the plain shape ``schema`` describes (see the module's doc)."""
    kind = schema.get("type")
    if not set(schema) <= {"type", "default", "enum", "items"}:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "array":
        items = schema.get("items")
        return (
            isinstance(value, list)
            and items == {"type": "string"}
            and all(isinstance(v, str) and not has_lone_surrogate(v) for v in value)
        )
    expected = _SIMPLE.get(kind) if isinstance(kind, str) else None
    if expected is None or not isinstance(value, expected):
        return False
    return not (isinstance(value, str) and has_lone_surrogate(value))


def plain_arguments(arguments: dict[str, Any], schema: Any) -> bool:
    """Every argument is a property of ``schema`` (a tool's ``inputSchema``) of a plain
    shape, and every required property is there."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or "$defs" in schema:
        return False
    properties = schema.get("properties", {})
    if not isinstance(properties, dict) or not set(arguments) <= set(properties):
        return False
    if not set(schema.get("required", ())) <= set(arguments):
        return False
    return all(_plain_value(v, properties[k]) for k, v in arguments.items())


class EarlyCalls:
    """Answers tool calls for :func:`rubi.mcp.front.greet` (an ``Answerer``).

    Args:
        paths: the project vault.
        handshake: the snapshot (the tools' input schemas; the fields a 2026-07-28
            result carries besides the tool's own).
        ready: called before a tool runs; blocks until the vault is warm.
        serving: entered while a tool runs (the warm-up holds its unasked work back
            meanwhile); None for nothing.
        hook: answers the :data:`~rubi.mcp.hooktool.HOOK_TOOL` tool (Claude Code's
            ``mcp_tool`` hooks), without waiting for ``ready``; None: that tool is
            the SDK's to refuse.
        cold_first: the first call reads as a cold process reads (see
            :meth:`_first_readers`); False when ``serving`` decides that itself
            (:class:`rubi.mcp.httpwarm.ListenWarmup`).
    """

    def __init__(
        self,
        paths: VaultPaths,
        handshake: Handshake,
        ready: Callable[[], None],
        serving: Callable[[], AbstractContextManager[None]] | None = None,
        hook: HookAnswerer | None = None,
        cold_first: bool = True,
    ) -> None:
        self._paths = paths
        self._hook = hook
        self._ready = ready
        self._serving = serving or nullcontext
        self._cold_done = not cold_first  # the first tool call was answered (see _first_readers)
        self._schemas: dict[str, Any] = {}
        self._modern_extra: dict[str, Any] = {}
        for version, listed in handshake.results.get("tools/list", {}).items():
            for tool in listed.get("tools", ()):
                self._schemas.setdefault(tool.get("name"), tool.get("inputSchema"))
            if version in handshake.modern:
                self._modern_extra = {k: listed[k] for k in ("resultType", "_meta") if k in listed}

    def __call__(self, name: str, arguments: dict[str, Any], modern: bool) -> dict[str, Any] | None:
        """The JSON-RPC reply to a call of tool ``name``, or None to leave it to the SDK."""
        if name == HOOK_TOOL and self._hook is not None:
            with self._serving():
                result = hook_result(self._hook, arguments)
            return {"result": sdk_order(result, self._modern_extra if modern else {})}
        body = calls.BODIES.get(name)
        if body is None or not plain_arguments(arguments, self._schemas.get(name)):
            return None
        with self._serving():
            self._ready()
            with self._first_readers():
                result = self._run(name, body, arguments)
        return {"result": sdk_order(result, self._modern_extra if modern else {})}

    def _first_readers(self) -> AbstractContextManager[None]:
        """The first tool call reads as a cold process reads (the current flat graph,
        the vectors on demand: :func:`rubi.app.searching.searching_once`), as the hooks
        answered here do: a short session's one search pays no networkx graph and no
        full load of the vectors. Later calls load the long-lived readers (the vault
        sync's graph, every vector) that keep the next searches warm. The answers are
        the same either way."""
        if self._cold_done:
            return nullcontext()
        self._cold_done = True
        from rubi.app.searching import searching_once

        return searching_once()

    def _run(self, name: str, body: Callable[..., calls.Answer], arguments: Any) -> dict[str, Any]:
        """The ``CallToolResult`` of ``body`` on ``arguments``, as the SDK makes it."""
        try:
            answer = body(self._paths, **arguments)
        except calls.ToolFailure as exc:
            return _error(f"Error executing tool {name}: {exc}")
        except Exception:  # a crash: its text stays on the server, as with the SDK
            log.exception("Tool %r raised an unexpected exception", name)
            return _error(f"Error executing tool {name}")
        result: dict[str, Any] = {
            "content": [{"type": "text", "text": answer.text}],
            "isError": False,
        }
        if answer.data is not None:
            result["structuredContent"] = answer.data
        return result


def _error(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


RESULT_ORDER = ("content", "isError", "resultType", "structuredContent", "_meta")
"""The order the SDK writes a ``CallToolResult``'s keys in (its model's serializer)."""
BLOCK_ORDER = ("text", "type")
"""The order it writes a text content block's keys in."""


def sdk_order(result: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``result`` (a ``CallToolResult`` as a dict) with ``extra`` (the fields a
    2026-07-28 result carries besides the tool's own), its keys and its text blocks'
    keys in the order the SDK writes them, so the reply's JSON is the SDK's byte for
    byte (a test compares them); keys the orders do not name follow, as they came."""
    merged = {**result, **extra}
    merged["content"] = [_ordered(block, BLOCK_ORDER) for block in merged.get("content", ())]
    return _ordered(merged, RESULT_ORDER)


def _ordered(item: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    first = {k: item[k] for k in order if k in item}
    return {**first, **{k: v for k, v in item.items() if k not in first}}
