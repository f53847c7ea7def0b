"""``rubi serve --http``'s front: the port answers before the MCP SDK is imported.

Importing the SDK and building its streamable HTTP app costs 1.4 s of CPU or more; a
2026-07-28 client's requests stand alone (no handshake, no session: each POST carries
its protocol version, client info and capabilities in ``_meta``), so they can be
answered as stdio's greeting answers them (:func:`rubi.mcp.front.stateless_reply`:
``server/discover``, the list requests and ``ping`` from ``handshake.json``, a tool
call with plain arguments by :class:`rubi.mcp.early.EarlyCalls`), from the first
request on. :class:`HttpFront` is the ASGI app uvicorn serves; it answers a request
itself only when all of these hold, and hands it to the SDK's app otherwise (built on
the first such request, or in the background once the vault is warm):

- every admission check of the SDK's path would let it through
  (:func:`rubi.mcp.http_admit.front_admits`: the bearer token whole and in constant
  time, the loopback Host and Origin rules, the same-origin rule off loopback,
  ``Content-Type``, ``Accept``); a request that fails one goes to the SDK, which
  refuses it as it always did: one set of refusals;
- its ``MCP-Protocol-Version`` header names a 2026-07-28-era revision of the snapshot,
  and the ``Mcp-Method`` (and, for a tool call, ``Mcp-Name``) header agrees with its
  body, no ``Mcp-Param-*`` header (the SDK's header rungs);
- the body is at most :data:`~rubi.mcp.http_admit.MAX_BODY_BYTES`, one request of the
  plain shape, and the answer is a result (an error's HTTP status is the SDK's table).

The front answers as the SDK does in that era: status 200, ``application/json``, the
JSON-RPC response (a test compares the bytes' JSON with the SDK's).

The 2025-11-25 era and older (``initialize``, its session, the client's GET stream,
DELETE) is :class:`rubi.mcp.httpsessions.FrontSessions`'s, for a request to ``/mcp``
whose ``MCP-Protocol-Version`` header names a handshake-era revision of the snapshot or
none: the front opens the session itself (an admitted, plain ``initialize``) and
answers in it what stdio's greeting answers (``notifications/initialized``, ``ping``,
the list requests, plain tool calls), in the SDK's server-sent-event form; the first
request of such a session it cannot answer (a GET stream once the SDK's app is there,
DELETE, anything unusual, any refusal) hands the session to the SDK in place: its
``initialize`` is replayed into the SDK's app, whose session id the front maps both
ways from then on. A request naming a session the front does not keep, and every
request without one that is not a plain ``initialize``, is the SDK's as before.

The SDK's app runs its lifespan (its session manager) under the front's. When uvicorn
begins its shutdown, :meth:`HttpFront.closing` lets a GET stream that waits for the
SDK's app go (503) rather than hold the shutdown up.

Where the front's answers differ from the SDK's, in both eras: a tool call that runs
longer than 15 s gets the SDK's keep-alive pings there (server-sent-event comments, for
a proxy's idle timeout), the front's answer comes whole at the end; a client that hangs
up does not cancel a tool the front runs. Neither changes an answer.

Only the stdlib and what the tools need are imported here (uvicorn by
:func:`run_http`, once the first answers are out: :mod:`rubi.mcp.http_early`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import TYPE_CHECKING, Any

from rubi.mcp.front import Answerer, Handshake, stateless_reply
from rubi.mcp.http_admit import (
    MAX_BODY_BYTES,
    HttpAccess,
    announce,
    front_admits,
    stream_admits,
)
from rubi.mcp.httpsessions import STREAM_WAIT_S, FrontSessions, replaying

if TYPE_CHECKING:
    from rubi.mcp.http_early import StopSignals

__all__ = ["HttpFront", "run_http"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

VERSION_HEADER = "mcp-protocol-version"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
PARAM_HEADER_PREFIX = "mcp-param-"
HANDOVER_WAIT_S = 10.0
"""The longest the warm-up waits for uvicorn to serve once it has begun
(:mod:`rubi.mcp.http_early`)."""
SETTLE_S = 2.0
"""The longest uvicorn's import waits, once the first answers are out, for the requests
the early server is answering (:mod:`rubi.mcp.http_early`); those it has not answered
by then it answers afterwards, on the same event loop."""


class HttpFront:
    """The ASGI app of ``rubi serve --http`` (module docstring).

    Args:
        access: the server's access plan (the checks the front repeats).
        build: builds the SDK's ASGI app (:func:`rubi.mcp.http_access.http_app`);
            called once, in a worker thread.
        handshake: the snapshot to answer from (None: the SDK answers everything).
        answerer: answers plain tool calls (None: tool calls go to the SDK).
        building: entered around the SDK's build when a request waits for it
            (:meth:`rubi.mcp.httpwarm.ListenWarmup.aside`); None for nothing.
        stream_wait_s: the longest a handshake-era GET stream waits for the SDK's
            app to be built by others (:mod:`rubi.mcp.httpsessions`).
    """

    def __init__(
        self,
        access: HttpAccess,
        build: Callable[[], App],
        handshake: Handshake | None,
        answerer: Answerer | None = None,
        building: Callable[[], AbstractContextManager[None]] | None = None,
        stream_wait_s: float = STREAM_WAIT_S,
    ) -> None:
        self.access = access
        self._aside = building or nullcontext
        self._build = build
        self._handshake = handshake
        self._answerer = answerer
        self._sdk: App | None = None
        self._building: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lifespan: _Lifespan | None = None
        self._built = asyncio.Event()
        self.sessions: FrontSessions | None = None
        """The handshake era's sessions (None without a snapshot)."""
        if handshake is not None:
            self.sessions = FrontSessions(
                handshake, answerer, self._to_sdk, self._built, stream_wait_s
            )
        self._stateless = 0

    @property
    def answered(self) -> int:
        """Requests the front answered itself, either era (tests and benches read it)."""
        sessions = self.sessions.answered if self.sessions is not None else 0
        return self._stateless + sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._run_lifespan(receive, send)
            return
        if self._loop is None:  # served before uvicorn runs the lifespan (rubi.mcp.http_early)
            self._loop = asyncio.get_running_loop()
        headers = front_admits(self.access, scope) if self._handshake is not None else None
        if self.sessions is not None and self.sessions.handles(scope, headers):
            if scope.get("method") == "GET":  # a session's stream: its own gates
                headers = stream_admits(self.access, scope)
            await self.sessions.serve(scope, receive, send, headers, _read_front_body)
            return
        version = headers.get(VERSION_HEADER) if headers is not None else None
        if headers is None or self._handshake is None or version not in self._handshake.modern:
            await self._to_sdk(scope, receive, send)
            return
        if any(name.startswith(PARAM_HEADER_PREFIX) for name in headers):
            await self._to_sdk(scope, receive, send)
            return
        body, more, ended = await _read_body(receive, MAX_BODY_BYTES)
        if ended:
            return  # the client went away
        answer = None
        if not more:
            handshake, answerer = self._handshake, self._answerer
            answer = await asyncio.to_thread(
                stateless_reply, body, handshake, answerer, _agrees(headers, version)
            )
        if answer is None:
            await self._to_sdk(scope, replaying(body, more, receive), send)
            return
        rid, reply = answer
        self._stateless += 1
        text = json.dumps({"jsonrpc": "2.0", "id": rid, **reply}, separators=(",", ":"))
        data = text.encode("utf-8")
        response_headers = [
            (b"content-length", str(len(data)).encode("ascii")),
            (b"content-type", b"application/json"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": response_headers})
        await send({"type": "http.response.body", "body": data})

    def closing(self) -> None:
        """The server begins its shutdown (on the event loop): what waits for the SDK's
        app without needing it stops waiting (:meth:`FrontSessions.close`)."""
        if self.sessions is not None:
            self.sessions.close()

    def build_soon(self) -> None:
        """Build the SDK's app in the background, if not built yet (any thread; once
        the server is running)."""
        if self._loop is not None and self._sdk is None:
            asyncio.run_coroutine_threadsafe(self._sdk_app(background=True), self._loop)

    async def _to_sdk(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = await self._sdk_app()
        if scope["type"] in ("http", "websocket") and self._lifespan is not None:
            state = self._lifespan.state
            if state:
                scope = {**scope, "state": {**scope.get("state", {}), **state}}
        await app(scope, receive, send)

    async def _sdk_app(self, background: bool = False) -> App:
        if self._sdk is not None:
            return self._sdk
        if self._building is None:
            self._building = asyncio.Lock()
        async with self._building:
            if self._sdk is None:
                app = await asyncio.to_thread(self._build_aside, background)
                lifespan = _Lifespan(app)
                await lifespan.start()
                self._lifespan, self._sdk = lifespan, app
                self._built.set()
        return self._sdk

    def _build_aside(self, background: bool) -> App:
        if background:
            return self._build()
        with self._aside():
            return self._build()

    async def _run_lifespan(self, receive: Receive, send: Send) -> None:
        """The front's own lifespan: ready at once; at shutdown, the SDK's app's
        lifespan (its session manager) ends first."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._loop = asyncio.get_running_loop()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def aclose(self) -> None:
        """End the SDK's app's lifespan (its session manager), if it was started."""
        if self._lifespan is not None:
            await self._lifespan.stop()


def _agrees(headers: dict[str, str], version: str) -> Callable[[dict[str, Any]], bool]:
    """The SDK's header rungs for a 2026-07-28 request: the version header names the
    envelope's revision, ``Mcp-Method`` the body's method, ``Mcp-Name`` a tool call's
    name (compared as given: a tool name is plain ASCII, never an encoded value)."""

    def check(msg: dict[str, Any]) -> bool:
        meta = msg["params"]["_meta"]
        if meta.get("io.modelcontextprotocol/protocolVersion") != version:
            return False
        if headers.get(METHOD_HEADER) != msg["method"]:
            return False
        if msg["method"] == "tools/call":
            name = msg["params"].get("name")
            return isinstance(name, str) and name.isascii() and headers.get(NAME_HEADER) == name
        return msg["method"] not in ("prompts/get", "resources/read")

    return check


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool, bool]:
    """The request's body up to ``limit`` bytes: ``(body, more left unread, the client
    went away)``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"", False, True
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        more = bool(message.get("more_body", False))
        if not more or size > limit:
            return b"".join(chunks), more or size > limit, False


async def _read_front_body(receive: Receive) -> tuple[bytes, bool, bool]:
    return await _read_body(receive, MAX_BODY_BYTES)


class _Lifespan:
    """Runs an ASGI app's lifespan (startup, then shutdown on :meth:`stop`) inside
    another app's."""

    def __init__(self, app: App) -> None:
        self._app = app
        self._inbox: asyncio.Queue[Message] = asyncio.Queue()
        self._started: asyncio.Future[None] | None = None
        self._stopped: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self.state: dict[str, Any] = {}

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._started, self._stopped = loop.create_future(), loop.create_future()
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": self.state}
        self._task = asyncio.ensure_future(self._app(scope, self._inbox.get, self._send))
        await self._inbox.put({"type": "lifespan.startup"})
        await asyncio.wait({self._started, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if not self._started.done():
            self._task.result()  # raises what the app raised
            raise RuntimeError("the MCP app ended its lifespan before starting")
        self._started.result()

    async def stop(self, timeout_s: float = 5.0) -> None:
        if self._task is None or self._task.done() or self._stopped is None:
            return
        await self._inbox.put({"type": "lifespan.shutdown"})
        await asyncio.wait({self._stopped, self._task}, timeout=timeout_s)

    async def _send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "lifespan.startup.complete" and self._started and not self._started.done():
            self._started.set_result(None)
        elif kind == "lifespan.startup.failed" and self._started and not self._started.done():
            self._started.set_exception(RuntimeError(str(message.get("message", ""))))
        elif kind.startswith("lifespan.shutdown") and self._stopped and not self._stopped.done():
            self._stopped.set_result(None)


def run_http(
    app: App,
    access: HttpAccess,
    *,
    sockets: list[socket.socket] | None = None,
    say: Callable[[str], None] | None = None,
    listening: Callable[[], None] | None = None,
    first_answered: Callable[[Callable[[], None]], None] | None = None,
) -> None:
    """Announce ``access`` on stderr, then serve ``app`` until the process is stopped;
    ``listening`` is called once the port serves (not when it could not bind the port).

    ``sockets``: listening sockets to serve on (:func:`rubi.mcp.http_listen.listen_early`;
    uvicorn closes them at its shutdown); None: uvicorn binds ``access``'s host and port
    itself. With ``sockets`` and ``first_answered``, the first requests are served
    before uvicorn is imported (:mod:`rubi.mcp.http_early`): ``first_answered`` is
    called with a function (callable from any thread) to call once the first answers
    are out (:meth:`rubi.mcp.httpwarm.ListenWarmup.when_begun`); uvicorn serves the
    sockets from then on, once no request but a GET stream is being answered (or
    :data:`SETTLE_S` passed). ``SIGINT``, ``SIGTERM`` and ``SIGHUP`` stop it in either
    phase and are raised again once it has stopped
    (:class:`rubi.mcp.http_early.StopSignals`)."""
    announce(access, say or (lambda line: print(line, file=sys.stderr, flush=True)))
    if sockets is None or first_answered is None:
        _uvicorn(app, access, listening).run(sockets=sockets)
        return
    from rubi.mcp.http_early import StopSignals

    signals = StopSignals()
    with signals.captured():  # a signal stops the server here as it stops uvicorn
        asyncio.run(_early_then_uvicorn(app, access, sockets, listening, first_answered, signals))


async def _early_then_uvicorn(
    app: App,
    access: HttpAccess,
    sockets: list[socket.socket],
    listening: Callable[[], None] | None,
    first_answered: Callable[[Callable[[], None]], None],
    signals: StopSignals,
) -> None:
    """:func:`run_http` with the first requests served here, then by uvicorn; a
    signal (``signals``) ends it where it is."""
    from rubi.mcp.http_early import EarlyHttp

    loop = asyncio.get_running_loop()
    handover = asyncio.Event()
    serving = threading.Event()  # uvicorn serves (or the server is ending)
    loop_thread = threading.get_ident()

    def hand_over() -> None:
        """Any thread; in another than the loop's, returns once uvicorn is imported and
        serves (:data:`HANDOVER_WAIT_S` at most): the warm-up that called it imports
        nothing beside uvicorn's import (two threads importing side by side can
        deadlock on a circular import)."""
        try:
            loop.call_soon_threadsafe(handover.set)
        except RuntimeError:
            return  # the loop has ended: the server stopped before
        if threading.get_ident() != loop_thread:
            serving.wait(HANDOVER_WAIT_S)

    stop = signals.stop()
    early = EarlyHttp(app, sockets)
    try:
        await early.start()
        if listening is not None:
            listening()
        first_answered(hand_over)
        await _first_of(handover.wait(), stop.wait())
        with suppress(TimeoutError):  # a connection that sends nothing holds nothing up
            await asyncio.wait_for(_first_of(early.settled(), stop.wait()), SETTLE_S)
        early.stop_accepting()
        if not stop.is_set():
            server = signals.server = _uvicorn(app, access, serving.set, early.aclose)
            server.should_exit = bool(signals.caught)  # a signal during uvicorn's import
            await server.serve(sockets=sockets)
    finally:
        signals.server = None
        serving.set()
        await early.aclose()
        if stop.is_set():  # stopped before uvicorn ran the app's lifespan: end it here
            closing = getattr(app, "aclose", None)
            if callable(closing):
                await closing()


async def _first_of(*waits: Awaitable[Any]) -> None:
    """Wait until the first of ``waits`` is done; the others are cancelled."""
    tasks = [asyncio.ensure_future(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


def _uvicorn(
    app: App,
    access: HttpAccess,
    listening: Callable[[], None] | None,
    stopped: Callable[[], Awaitable[None]] | None = None,
) -> Any:
    """A ``uvicorn.Server`` for ``app`` on ``access``'s host and port: ``listening`` is
    called once it serves; at its shutdown the app's ``closing`` is called first,
    ``stopped`` awaited last (after the app's lifespan ended)."""
    import uvicorn

    config = uvicorn.Config(app, host=access.host, port=access.port, log_level="warning")

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if listening is not None and self.started:
                listening()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            closing = getattr(app, "closing", None)
            if callable(closing):
                closing()
            await super().shutdown(sockets)
            if stopped is not None:
                await stopped()

    return Server(config)
