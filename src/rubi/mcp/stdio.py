"""The stdio transport made to answer every request, whatever bytes it carries.

The MCP library parses each line of stdin with a strict JSON parser. A line it cannot
read (a lone surrogate escape such as ``"\\ud800"`` in any argument, JSON nested past
its depth limit) becomes an exception on the session's read stream, which the library
only logs at debug level: the request is never answered and the client waits for ever.
:class:`AnsweringReadStream` answers such a line instead, with a JSON-RPC error for the
request's id when Python's own parser can still find it (else with id ``null``, as
JSON-RPC 2.0 says for a parse error), so no tool can hang that way.

The way out has the mirror problem: a reply holding a lone surrogate (say, a file name
that was not UTF-8) cannot be encoded, and the library's stdout writer fails on it.
:class:`UnicodeSafeWriteStream` replaces lone surrogates with U+FFFD before the reply
leaves. Over HTTP the library already answers an unreadable body with a parse error.

The wire is rubi's own (:func:`serve_wire`), not the library's ``stdio_server``: the
server reads the lines the handshake took place on before the library was imported
(:mod:`rubi.mcp.front`) and passes the rest of them on, unbuffered elsewhere.
"""

from __future__ import annotations

import json
import logging
from types import TracebackType
from typing import Any, Self

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage
from mcp.types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)

from rubi.core.encodable import first_unencodable
from rubi.core.safetext import has_lone_surrogate, replace_surrogates
from rubi.mcp.argerrors import invalid_arguments, unknown_arguments
from rubi.mcp.front import Handover
from rubi.mcp.hooktool import HOOK_TOOL, HookAnswerer, hook_result
from rubi.mcp.wire import LineReader, LineWriter, claim_wire, drain

__all__ = [
    "UNSERVED",
    "AnsweringReadStream",
    "RubiMCPServer",
    "UnicodeSafeWriteStream",
    "serve_wire",
    "unreadable_reply",
]

log = logging.getLogger(__name__)


def _failure(exc: Exception) -> tuple[str | None, str]:
    """The line a transport could not parse and why, when the error carries them
    (pydantic's ``ValidationError`` keeps the whole input)."""
    errors = getattr(exc, "errors", None)
    try:
        first = errors()[0] if callable(errors) else None
    except Exception:  # not pydantic's shape
        first = None
    if not isinstance(first, dict):
        return None, "malformed"
    raw = first.get("input")
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", errors="replace")
    why = " ".join(str(first.get("msg") or "malformed").split())[:200]
    return (raw if isinstance(raw, str) else None), why


def _top_level(raw: str) -> dict[str, Any]:
    """The ``id`` and ``method`` of a JSON object too deep (or too broken further on)
    for ``json.loads``: one linear scan that tracks strings and nesting and decodes
    only the values of those two keys at the top level."""
    found: dict[str, Any] = {}
    decoder = json.JSONDecoder()
    i, depth, n = 0, 0, len(raw)
    while i < n and len(found) < 2:
        ch = raw[i]
        if ch == '"':
            try:
                key, i = decoder.raw_decode(raw, i)  # a string: decoded flat
            except ValueError:
                break
            if depth == 1 and key in ("id", "method"):
                j = i
                while j < n and raw[j] in " \t\r\n":
                    j += 1
                if j < n and raw[j] == ":":
                    j += 1
                    while j < n and raw[j] in " \t\r\n":
                        j += 1
                    try:
                        value, i = decoder.raw_decode(raw, j)
                    except (ValueError, RecursionError):
                        break
                    found.setdefault(key, value)
            continue
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        i += 1
    return found


def unreadable_reply(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error that answers a line the transport could not parse.

    Returns:
        An error for the request's id (``INVALID_PARAMS`` for a lone surrogate,
        ``INVALID_REQUEST`` for another malformed request), an id-less error when no
        id can be read (``PARSE_ERROR`` for a line that is not JSON), or None when the
        line was a notification or a response (JSON-RPC answers neither).
    """
    raw, why = _failure(exc)
    parsed: Any = None
    if raw is not None:
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            parsed = _top_level(raw) if raw.lstrip().startswith("{") else None
    if not isinstance(parsed, dict) or not parsed:
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=PARSE_ERROR, message="Parse error: not a JSON-RPC message"),
        )
    rid = parsed.get("id")
    if "method" not in parsed and ("result" in parsed or "error" in parsed):
        return None  # a response: JSON-RPC answers none
    if "method" in parsed and "id" not in parsed:
        return None  # a notification: JSON-RPC answers none
    if isinstance(rid, bool) or not isinstance(rid, (int, str)):
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=INVALID_REQUEST, message="Invalid request: no usable id"),
        )
    if isinstance(rid, str) and has_lone_surrogate(rid):
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=PARSE_ERROR, message="Parse error: the request id is not text"),
        )
    if first_unencodable(parsed) is not None:
        message = (
            f"request {rid}: an argument holds a lone surrogate (a \\ud800-\\udfff escape "
            "without its pair), which is not a Unicode character; send valid UTF-8 text"
        )
        return JSONRPCError(
            jsonrpc="2.0", id=rid, error=ErrorData(code=INVALID_PARAMS, message=message)
        )
    return JSONRPCError(
        jsonrpc="2.0",
        id=rid,
        error=ErrorData(
            code=INVALID_REQUEST,
            message=f"request {rid}: not a valid MCP request ({replace_surrogates(why)})",
        ),
    )


class _WrappedStream:
    """Closing and the async context protocol of a stream that wraps another
    (``_inner``), shared by the two wrappers below."""

    _inner: Any

    async def aclose(self) -> None:
        await self._inner.aclose()

    def close(self) -> None:
        self._inner.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


class AnsweringReadStream(_WrappedStream):
    """A transport's read stream that answers the lines it could not parse
    (:func:`unreadable_reply`) instead of passing their exceptions on.

    Args:
        inner: the transport's stream of ``SessionMessage | Exception``.
        replies: the transport's write stream, where the answers go.
    """

    def __init__(self, inner: Any, replies: Any) -> None:
        self._inner = inner
        self._replies = replies

    @property
    def last_context(self) -> Any:
        """The sender's context of the last message (the library restores it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item  # type: ignore[no-any-return]
            answer = unreadable_reply(item)
            log.warning("unreadable MCP message: %s", "answered" if answer else "ignored")
            if answer is not None:
                await self._replies.send(SessionMessage(answer))

    def __aiter__(self) -> AnsweringReadStream:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None


def _without_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return replace_surrogates(value)
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    return value


def encodable(message: JSONRPCMessage) -> JSONRPCMessage:
    """``message`` itself when it encodes as UTF-8 JSON, else a copy with every lone
    surrogate replaced by U+FFFD."""
    try:
        message.model_dump_json(by_alias=True, exclude_unset=True)
        return message
    except ValueError:  # PydanticSerializationError: "surrogates not allowed"
        data = message.model_dump(by_alias=True, exclude_unset=True)
        return jsonrpc_message_adapter.validate_python(_without_surrogates(data))


class UnicodeSafeWriteStream(_WrappedStream):
    """A transport's write stream whose messages always encode (:func:`encodable`)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def send(self, item: SessionMessage, /) -> None:
        message = encodable(item.message)
        if message is not item.message:
            item = SessionMessage(message, metadata=item.metadata)
        await self._inner.send(item)


def _parsed(line: bytes) -> SessionMessage | Exception:
    """A line of the wire as the SDK's stdio transport reads it (an exception for a
    line it cannot parse, answered by :class:`AnsweringReadStream`)."""
    try:
        text = line.decode("utf-8", errors="replace")
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except Exception as exc:  # pydantic's ValidationError, as the SDK passes it on
        return exc


def _reply_of(message: JSONRPCMessage) -> dict[str, Any]:
    """``{"result": ...}`` or ``{"error": ...}`` of a response, as on the wire."""
    wire = json.loads(message.model_dump_json(by_alias=True, exclude_unset=True))
    return {k: wire[k] for k in ("result", "error") if k in wire}


async def serve_wire(
    server: MCPServer, reader: LineReader, writer: LineWriter, handover: Handover | None = None
) -> None:
    """Serve ``server`` over a line-delimited JSON-RPC wire until its input ends.

    Args:
        server: the server.
        reader: the wire's input, read in a worker thread.
        writer: the wire's output.
        handover: what :func:`rubi.mcp.front.greet` already answered: its lines are
            fed first, and the SDK's own answer to the request that opened the era
            (``initialize``, or a 2026-07-28 discover or list request) is dropped
            (compared first: a difference means the snapshot is stale, and is logged).
            Its :class:`~rubi.mcp.front.FastCalls` answer the tool calls they can
            before the SDK sees them, one at a time, in the order read.
    """
    lowlevel = server._lowlevel_server
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
    drop = handover.answered_id if handover is not None else None

    fast = handover.fast if handover is not None else None

    async def pump_in() -> None:
        async with read_send:
            for line in handover.replay if handover is not None else ():
                await read_send.send(_parsed(line))
            while line := await anyio.to_thread.run_sync(reader.readline, abandon_on_cancel=True):
                if not line.strip():
                    continue
                if fast is not None and (call := fast.claim(line)) is not None:
                    reply = await anyio.to_thread.run_sync(fast.answer, call)
                    if reply is not None:
                        await anyio.to_thread.run_sync(writer.write, reply)
                        continue
                await read_send.send(_parsed(line))

    async def pump_out() -> None:
        nonlocal drop
        async with write_recv:
            async for item in write_recv:
                message = item.message
                if (
                    drop is not None
                    and isinstance(message, (JSONRPCResponse, JSONRPCError))
                    and message.id == drop
                ):
                    drop = None
                    if handover is not None and _reply_of(message) != handover.answered:
                        log.warning(
                            "the SDK answers the first request differently from "
                            "rubi/mcp/handshake.json; run python -m rubi.mcp.handshake"
                        )
                    continue
                text = message.model_dump_json(by_alias=True, exclude_unset=True)
                await anyio.to_thread.run_sync(writer.write, text)

    async with anyio.create_task_group() as tg:
        tg.start_soon(pump_in)
        tg.start_soon(pump_out)
        if reader.wake is not None:
            tg.start_soon(_wake_for_signals, reader.wake)
        safe_write = UnicodeSafeWriteStream(write_send)
        await lowlevel.run(
            AnsweringReadStream(read_recv, safe_write),
            safe_write,
            lowlevel.create_initialization_options(),
        )
        await safe_write.aclose()  # pump_out ends once it wrote what was sent
        tg.cancel_scope.cancel()  # pump_in may still wait for input


async def _wake_for_signals(wake: int) -> None:
    """Wake the event loop whenever a signal arrives (``wake``:
    :func:`rubi.mcp.wire.signals_wake`), whichever thread the kernel gave it to: the
    loop's thread, the main one, then runs its handler (Ctrl-C cancels the run). A
    signal taken by another thread left the loop asleep while the client was silent,
    as it left the greeting's read (issue 29)."""
    while True:
        await anyio.wait_readable(wake)
        drain(wake)


UNSERVED = (
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
)
"""Methods the SDK serves for every server and rubi has nothing behind: without their
handlers the server does not advertise the ``prompts`` and ``resources`` capabilities,
so a client adds no tools of its own to reach them (Claude Code adds three resource
tools, about 500 tokens on every request, for a server that advertises resources)."""


LIST_TTL_MS = 24 * 3600 * 1000
"""How long a 2026-07-28 client may keep ``server/discover`` and ``tools/list`` (their
``ttlMs``): the tools, their schemas and the capabilities are fixed for the life of the
server process (``listChanged`` is false in both eras), so a day; 0, the SDK's
default, would tell the client to ask again before every use."""


class RubiMCPServer(MCPServer):
    """:class:`MCPServer` whose stdio transport answers every request
    (:class:`AnsweringReadStream`) and never fails on a reply
    (:class:`UnicodeSafeWriteStream`), and that advertises tools only (no prompts, no
    resources: :data:`UNSERVED`), whose list never changes: no ``subscriptions/listen``
    (2026-07-28; so ``listChanged`` is false there too, as in the handshake era) and
    :data:`LIST_TTL_MS` as the lists' ``ttlMs``. With a ``hook_answerer`` it answers
    the unlisted :data:`~rubi.mcp.hooktool.HOOK_TOOL` too (Claude Code's ``mcp_tool``
    hooks)."""

    hook_answerer: HookAnswerer | None = None
    """Answers :data:`~rubi.mcp.hooktool.HOOK_TOOL` calls (None: unknown tool)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from mcp.server import CacheHint

        hint = CacheHint(ttl_ms=LIST_TTL_MS, scope="private")
        kwargs.setdefault("cache_hints", {"server/discover": hint, "tools/list": hint})
        kwargs.setdefault("subscriptions", False)
        super().__init__(*args, **kwargs)
        handlers = self._lowlevel_server._request_handlers
        for method in UNSERVED:
            handlers.pop(method, None)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """:meth:`MCPServer.call_tool`, with arguments that fail the tool's schema (a
        ``budget_tokens`` of ``1e400``, a string for a list) refused on one line that
        names each argument, never pydantic's multi-line report with the input in it;
        an argument the tool does not take is refused too (:func:`unknown_arguments`)."""
        from mcp.server.mcpserver.exceptions import ToolError
        from pydantic import ValidationError

        if name == HOOK_TOOL and self.hook_answerer is not None:
            from mcp.types import CallToolResult

            result = await anyio.to_thread.run_sync(hook_result, self.hook_answerer, arguments)
            return CallToolResult.model_validate(result)
        tool = self._tool_manager.get_tool(name)
        if tool is not None and (unknown := unknown_arguments(arguments, tool.parameters)):
            raise ToolError(f"Error executing tool {name}: {unknown}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            raise ToolError(f"Error executing tool {name}: {invalid_arguments(cause)}") from None

    async def run_stdio_async(self) -> None:
        """Serve over stdin and stdout (as :meth:`MCPServer.run_stdio_async`, with the
        streams wrapped; see :func:`serve_wire`)."""
        wire_in, wire_out = claim_wire()
        await serve_wire(self, LineReader(wire_in), LineWriter(wire_out))
