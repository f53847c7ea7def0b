"""The 2025-11-25 era (and older) on ``rubi serve --http``'s front: sessions the front
opens itself, before the MCP SDK is imported, and hands to the SDK when they need it.

A client of the handshake era opens a session with ``initialize`` (the answer names
it in an ``Mcp-Session-Id`` header), says ``notifications/initialized``, then sends
its requests with that header; it may open a GET stream for the server's own messages
and ends the session with DELETE. :class:`FrontSessions` answers, for a POST that
passes :func:`~rubi.mcp.http_admit.front_admits` and names a handshake-era revision in
its ``MCP-Protocol-Version`` header or none (the SDK's era routing):

- an ``initialize`` without a session header whose parameters are of the plain shape
  (:func:`rubi.mcp.front.initialize_version`): a new session, its id made as the SDK
  makes one (``uuid4().hex``), the result from ``handshake.json``;
- in a session it opened and has not handed over: ``notifications/initialized`` (202,
  no body), ``ping`` and the list requests without parameters (the snapshot's result
  or error), a tool call of the plain shape the answerer answers: as stdio's greeting
  answers them (:class:`rubi.mcp.front.Era`; a call's ``_meta`` may hold what the SDK
  reads as none, such as the progress token and ``claudecode/toolUseId`` Claude Code
  sends with every call: :func:`rubi.mcp.shapes.handshake_meta`).

It opens sessions so whether the SDK's app is built or not (one behaviour), and
answers in the SDK's form for rubi's app (no JSON-response mode, no event store, so no
priming event): a request's answer as one ``text/event-stream`` event (``event:
message``) with the SDK's headers (``Cache-Control``, ``Connection``,
``Content-Type``, ``Mcp-Session-Id``, ``X-Accel-Buffering``), a notification's as 202
``application/json`` with an empty body; a test compares them with the SDK's.

Anything else in such a session (a GET stream, DELETE, a request or notification it
cannot answer, any request that fails an admission check, whose refusal is the SDK's)
hands the session over: the captured ``initialize`` (and ``notifications/initialized``,
when the client sent it) is replayed into the SDK's app in-process with the client's
own headers (so the SDK records the same credential as the session's owner), its
answer dropped, which opens an SDK session; what comes in the session meanwhile waits
for it. From then on every request of the session goes to the SDK with the SDK's
session id in place of the front's, and the SDK's answers carry the front's id back. A
GET stream does not start the SDK's build itself: it waits for the build the server
starts once the vault is warm (or another request's), at most :data:`STREAM_WAIT_S`,
so a client's GET stream, opened right after its handshake, does not slow its first
search. A DELETE the SDK accepts, or an SDK 404 (its session ended), ends the front's
session too; a hand-over the SDK refuses (its session cap) ends it, and the request is
answered as for an unknown session (the SDK's 404).

Bounded: at most :data:`MAX_SESSIONS` sessions are kept (each with an ``initialize``
and a ``notifications/initialized`` of at most :data:`MAX_OPENING_BYTES` each: a longer
one is the SDK's); a session idle for the SDK's idle timeout is forgotten (its id then
answers the SDK's 404, as the SDK's own session would); at the cap a new
``initialize`` goes to the SDK, which opens the session itself (slower, otherwise the
same).

Only the stdlib is imported here.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from rubi.mcp.front import Answerer, Era, Handshake, initialize_version, plain_request, reply_line

__all__ = ["MAX_OPENING_BYTES", "MAX_SESSIONS", "STREAM_WAIT_S", "FrontSessions", "replaying"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
Body = Callable[[Receive], Awaitable[tuple[bytes, bool, bool]]]

SESSION_HEADER = b"mcp-session-id"
VERSION_HEADER = b"mcp-protocol-version"
MAX_SESSIONS = 256
"""Sessions the front keeps at once (opened here, handed over or not)."""
MAX_OPENING_BYTES = 64 * 1024
"""The longest ``initialize`` body a session is opened here for (it is kept)."""
IDLE_S = 30 * 60.0
"""The SDK's ``DEFAULT_SESSION_IDLE_TIMEOUT`` (a test keeps them equal)."""
STREAM_WAIT_S = 10.0
"""Seconds a GET stream waits for the SDK's app to be built by others."""

_SSE_HEADERS = [
    (b"cache-control", b"no-cache, no-transform"),
    (b"connection", b"keep-alive"),
    (b"content-type", b"text/event-stream"),
]


@dataclass
class _Session:
    """One session the front opened: the ``initialize`` request that opened it (its
    scope and body, replayed to open the SDK's), the ``notifications/initialized``
    that followed, and the SDK's id once handed over."""

    version: str
    opening: tuple[Scope, bytes]
    initialized: tuple[Scope, bytes] | None = None
    sdk_id: bytes | None = None
    in_flight: int = 0
    last_seen: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class FrontSessions:
    """The front's handshake-era sessions (module docstring).

    Args:
        handshake: the snapshot to answer from.
        answerer: answers plain tool calls (None: tool calls hand the session over).
        to_sdk: the SDK's app (built on first call: the front's ``_to_sdk``).
        built: set once the SDK's app is built (a GET stream waits for it).
        stream_wait_s: the longest a GET stream waits for ``built``.
    """

    def __init__(
        self,
        handshake: Handshake,
        answerer: Answerer | None,
        to_sdk: App,
        built: asyncio.Event,
        stream_wait_s: float = STREAM_WAIT_S,
    ) -> None:
        self._handshake = handshake
        self._answerer = answerer
        self._to_sdk = to_sdk
        self._built = built
        self._stream_wait_s = stream_wait_s
        self._versions = frozenset(handshake.results.get("initialize", {}))
        self._table: dict[bytes, _Session] = {}
        self._closing = asyncio.Event()
        self.answered = 0
        """Requests answered here (tests and benches read it)."""

    def __len__(self) -> int:
        return len(self._table)

    def close(self) -> None:
        """The server is shutting down: a GET stream waiting for the SDK's app stops
        waiting (answered 503: a server that stops serves no stream), rather than hold
        the shutdown up until it ends (call on the event loop)."""
        self._closing.set()

    def handles(self, scope: Scope, headers: dict[str, str] | None) -> bool:
        """Whether :meth:`serve` takes this request: an HTTP request to ``/mcp`` of the
        handshake era (its ``MCP-Protocol-Version`` header one of the snapshot's
        ``initialize`` revisions, or none) that names a session of the front's, or an
        admitted POST without a session header."""
        raw = _header(scope, VERSION_HEADER)
        version = raw.decode("latin-1") if raw is not None else None
        if scope.get("type") != "http" or scope.get("path") != "/mcp":
            return False  # a WebSocket is the SDK's
        if scope.get("root_path", "") != "":
            return False
        if version is not None and version not in self._versions:
            return False  # the SDK routes it to the 2026-07-28 path, sessions aside
        key = _header(scope, SESSION_HEADER)
        if key is not None:
            return self._live(key)
        return headers is not None and _json_type(headers)

    def _live(self, key: bytes) -> bool:
        """``key`` names a session kept here; one not handed over and idle past the
        SDK's timeout is forgotten first (its id then answers the SDK's 404, as the
        SDK's own session would: the SDK ends a handed-over one itself)."""
        session = self._table.get(key)
        if session is None:
            return False
        idle = time.monotonic() - session.last_seen
        if session.sdk_id is None and not session.in_flight and idle > IDLE_S:
            del self._table[key]
            return False
        return True

    async def serve(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        headers: dict[str, str] | None,
        read_body: Body,
    ) -> None:
        """Answer or hand on a request :meth:`handles` took.

        Args:
            scope, receive, send: the ASGI request.
            headers: what ``front_admits`` returned, for a GET ``stream_admits``
                (None: refused, the SDK's).
            read_body: reads the body up to the front's limit: ``(body, more left,
                the client went away)``.
        """
        key = _header(scope, SESSION_HEADER)
        session = self._table.get(key) if key is not None else None
        if session is None or key is None:  # an admitted POST without a session header
            await self._open(scope, receive, send, read_body)
            return
        session.in_flight += 1  # a request in flight holds the session (as the SDK's)
        try:
            await self._in_session(key, session, scope, receive, send, headers, read_body)
        finally:
            session.in_flight -= 1
            session.last_seen = time.monotonic()

    async def _in_session(
        self,
        key: bytes,
        session: _Session,
        scope: Scope,
        receive: Receive,
        send: Send,
        headers: dict[str, str] | None,
        read_body: Body,
    ) -> None:
        if session.sdk_id is not None:
            await self._forward(key, session, scope, receive, send)
            return
        if scope["method"] == "GET":
            if headers is None:  # refused (no token, a foreign Origin): the SDK's, at once
                await self._hand_over(key, session, scope, receive, send)
            else:
                await self._stream(key, session, scope, receive, send)
            return
        if scope["method"] != "POST" or headers is None or not _json_type(headers):
            await self._hand_over(key, session, scope, receive, send)
            return
        body, more, ended = await read_body(receive)
        if ended:
            return
        reply = None if more else await self._reply(session, scope, body)
        if reply is None:
            await self._hand_over(key, session, scope, replaying(body, more, receive), send)
            return
        self.answered += 1
        await _answer(send, key, reply)

    # ------------------------------------------------------------------ answering

    async def _open(self, scope: Scope, receive: Receive, send: Send, read_body: Body) -> None:
        """An admitted POST without a session header: a plain ``initialize`` opens a
        session here; anything else (or the cap) is the SDK's."""
        body, more, ended = await read_body(receive)
        if ended:
            return
        msg = None if more or len(body) > MAX_OPENING_BYTES else plain_request(body)
        version = None
        if msg is not None and msg["method"] == "initialize" and _plain_keys(msg):
            version = initialize_version(msg, self._handshake)
        reply = self._handshake.reply("initialize", version) if version else None
        if msg is None or version is None or reply is None or not self._room():
            await self._to_sdk(scope, replaying(body, more, receive), send)
            return
        key = _session_id()
        self._table[key] = _Session(version, (_kept(scope), body))
        self.answered += 1
        await _answer(send, key, reply_line(msg["id"], reply).encode("utf-8"))

    def _room(self) -> bool:
        """Room for one more session, once the idle ones are forgotten."""
        if len(self._table) < MAX_SESSIONS:
            return True
        now = time.monotonic()
        for key, session in list(self._table.items()):
            margin = 60.0 if session.sdk_id is not None else 0.0  # the SDK's clock decides
            if not session.in_flight and now - session.last_seen > IDLE_S + margin:
                del self._table[key]
        return len(self._table) < MAX_SESSIONS

    async def _reply(self, session: _Session, scope: Scope, body: bytes) -> bytes | None:
        """The answer to a POST of a session not handed over: an SSE event's data, or
        ``b""`` for a 202; None: the SDK's (also while the session is being handed
        over: what comes meanwhile waits for the SDK's session, and goes to it; and
        once it was, for a request whose body was still arriving then)."""
        if session.lock.locked() or session.sdk_id is not None:
            return None
        msg = plain_request(body)
        if msg is None or not _plain_keys(msg):
            return None
        if msg["method"] == "notifications/initialized" and "id" not in msg:
            if msg.get("params") not in (None, {}) or len(body) > MAX_OPENING_BYTES:
                return None  # kept to be replayed: of the opening's bound at most
            if session.initialized is None:
                session.initialized = (_kept(scope), body)
            return b""
        if "id" not in msg:
            return None
        era, handshake, answerer = Era(session.version, False), self._handshake, self._answerer
        if msg["method"] == "tools/call":  # runs the tool: off the event loop
            reply, _ = await asyncio.to_thread(era.reply, msg, handshake, answerer)
        else:
            reply, _ = era.reply(msg, handshake, answerer)
        return None if reply is None else reply_line(msg["id"], reply).encode("utf-8")

    # ------------------------------------------------------------------ handing over

    async def _stream(
        self, key: bytes, session: _Session, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """A GET stream: wait for the SDK's app to be built by others (module
        docstring), at most ``stream_wait_s``, watching for the client to go away;
        then hand the session over with it."""
        first = await receive()
        if first["type"] == "http.disconnect":
            return
        gone = asyncio.ensure_future(receive())
        built = asyncio.ensure_future(self._built.wait())
        closing = asyncio.ensure_future(self._closing.wait())
        try:
            await asyncio.wait(
                {gone, built, closing},
                timeout=self._stream_wait_s,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            built.cancel()
            closing.cancel()
        if gone.done() and gone.result()["type"] == "http.disconnect":
            return
        if self._closing.is_set() and not self._built.is_set():
            gone.cancel()
            await _shutting_down(send)
            return
        pending: list[Any] = [gone, first]

        async def replay() -> Message:
            if pending:
                item = pending.pop()
                return item if isinstance(item, MutableMapping) else await item
            return await receive()

        try:
            await self._hand_over(key, session, scope, replay, send)
        finally:
            gone.cancel()  # the SDK's answer ended without asking

    async def _hand_over(
        self, key: bytes, session: _Session, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Open the SDK's session for ``session`` (once), then forward the request."""
        async with session.lock:
            if session.sdk_id is None:
                session.sdk_id = await self._open_sdk_session(session)
        if session.sdk_id is None:
            self._table.pop(key, None)
            await self._to_sdk(scope, receive, send)  # the SDK's answer to an unknown id
            return
        await self._forward(key, session, scope, receive, send)

    async def _open_sdk_session(self, session: _Session) -> bytes | None:
        """Replay the session's ``initialize`` and ``notifications/initialized`` into
        the SDK's app: the SDK's session id, or None when it refused."""
        scope, body = session.opening
        status, headers = await _call(self._to_sdk, scope, body)
        sdk_id = headers.get(SESSION_HEADER)
        if status != 200 or not sdk_id:
            return None
        if session.initialized is not None:
            scope, body = session.initialized
            await _call(self._to_sdk, _with_session(scope, sdk_id), body)
        return sdk_id

    async def _forward(
        self, key: bytes, session: _Session, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """The request to the SDK under its session id; its answer under the front's."""
        sdk_id = session.sdk_id
        assert sdk_id is not None
        status = 0

        async def back(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = [
                    (name, key if name.lower() == SESSION_HEADER and value == sdk_id else value)
                    for name, value in message.get("headers", [])
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self._to_sdk(_with_session(scope, sdk_id), receive, back)
        if status == 404 or (scope["method"] == "DELETE" and status == 200):
            self._table.pop(key, None)  # the SDK's session ended: so does this one


def _header(scope: Scope, name: bytes) -> bytes | None:
    """The request's header ``name`` (the first, as Starlette reads it)."""
    for raw, value in scope.get("headers", ()):
        if raw.lower() == name:
            return bytes(value)
    return None


def _session_id() -> bytes:
    """A new session id of the SDK's form (``uuid4().hex``, without ``uuid``'s import
    of ``platform``)."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # the RFC 4122 variant
    return raw.hex().encode("ascii")


def _plain_keys(msg: dict[str, Any]) -> bool:
    return set(msg) <= {"jsonrpc", "id", "method", "params"}


def _json_type(headers: dict[str, str]) -> bool:
    """The SDK transport's own ``Content-Type`` check (exact, case-sensitive)."""
    value = headers.get("content-type", "")
    return any(part.strip() == "application/json" for part in value.split(";")[0].split(","))


def _kept(scope: Scope) -> Scope:
    """What is kept of a request's scope to replay it later (not its ``state``)."""
    return {k: v for k, v in scope.items() if k != "state"}


def _with_session(scope: Scope, session_id: bytes) -> Scope:
    headers = [
        (name, session_id if name.lower() == SESSION_HEADER else value)
        for name, value in scope.get("headers", ())
    ]
    if not any(name.lower() == SESSION_HEADER for name, _ in headers):
        headers.append((SESSION_HEADER, session_id))
    return {**scope, "headers": headers}


async def _answer(send: Send, session_id: bytes, data: bytes) -> None:
    """The SDK's answer in a session: ``data`` as one SSE event, or 202 for ``b""``."""
    if data:
        headers = [*_SSE_HEADERS, (SESSION_HEADER, session_id), (b"x-accel-buffering", b"no")]
        body = b"event: message\r\ndata: " + data + b"\r\n\r\n"
        status = 200
    else:
        headers = [
            (b"content-type", b"application/json"),
            (SESSION_HEADER, session_id),
            (b"content-length", b"0"),
        ]
        body, status = b"", 202
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _shutting_down(send: Send) -> None:
    body = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Server shutting down"}}'
    headers = [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _call(app: App, scope: Scope, body: bytes) -> tuple[int, dict[bytes, bytes]]:
    """Run one request through ``app`` in-process: its status and headers (the body,
    an answer already given, is dropped). The client stays until the answer ended."""
    done = asyncio.Event()
    given = False
    status, headers = 0, {}

    async def receive() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status = int(message["status"])
            headers = {bytes(k).lower(): bytes(v) for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body" and not message.get("more_body"):
            done.set()

    try:
        await app(scope, receive, send)
    finally:
        done.set()
    return status, headers


def replaying(body: bytes, more: bool, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read first, then the connection's."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": more}]

    async def replay() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replay
