"""``rubi serve --http``'s first requests, served before uvicorn is imported.

The first search over HTTP waited for uvicorn: its package imports click, its
supervisors (multiprocessing, watchfiles) and its config (``ssl``, ``logging.config``)
before it serves a byte, 40-100 ms of CPU that stdio never pays, all of it ahead of
the first answer (the client's requests wait in the listening socket meanwhile).
:class:`EarlyHttp` serves the listening sockets (:mod:`rubi.mcp.http_listen`) on the
server's own event loop from the start, with ``h11`` (the HTTP/1.1 parser uvicorn's
``h11`` protocol uses), so the first requests (a handshake, the lists, the first tool
call) are answered by the same ASGI app (:class:`rubi.mcp.httpfront.HttpFront`)
before uvicorn is imported; uvicorn then serves the same sockets
(:func:`rubi.mcp.httpfront.run_http`) and these stop accepting.

One request a connection: every answer here carries ``Connection: close``, so a
client opens its next connection, which uvicorn accepts once it serves; no request
is ever left in a connection between the two servers (a keep-alive connection
closed at the hand-over could meet a request on its way: a client error). A
connection still streaming at the hand-over (a handshake-era GET stream) stays
here until it ends.

The ASGI scope is uvicorn's (``rubi.mcp`` reads the method, path, root path and
headers; the SDK's app the rest), without what its options add to it: no
``X-Forwarded-*`` rewrite of ``client`` and ``scheme`` (uvicorn's default for a
loopback peer; neither the front nor the SDK's app reads them) and no ``server``
header. A request ``h11`` cannot parse gets uvicorn's 400; an app that raises before
it answered, uvicorn's 500.

Signals: while these serve, ``SIGINT``, ``SIGTERM`` and ``SIGHUP`` are taken as
uvicorn's ``Server.capture_signals`` takes them while it serves (:class:`StopSignals`):
recorded, the server told to stop, and raised again once it has stopped. A handler
that raises in the main thread (``rubi serve``'s :mod:`rubi.cli.terminated`, Python's
``KeyboardInterrupt``) would raise inside whatever task the event loop runs then, and
a task that handles the exception (the SDK's task groups) kept the process serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from types import FrameType
from typing import Any
from urllib.parse import unquote

import h11

__all__ = ["MAX_READ_BYTES", "EarlyHttp", "StopSignals"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
App = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Awaitable[None],
]

MAX_READ_BYTES = 65536
"""The most read from a connection at once (uvicorn's asyncio transports read as much)."""

DRAIN_S = 5.0
"""The longest a connection is kept open, once answered, to read the rest of a body the
app did not read (:meth:`_Exchange._rest_of_body`)."""

_CLOSE = (b"connection", b"close")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def http_date(now: float | None = None) -> bytes:
    """An HTTP ``Date`` header's value (RFC 9110 5.6.7, IMF-fixdate) for ``now``
    (seconds since the epoch; None: the current time), in English whatever the locale."""
    t = time.gmtime(now)
    return (
        f"{_DAYS[t.tm_wday]}, {t.tm_mday:02d} {_MONTHS[t.tm_mon - 1]} {t.tm_year} "
        f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d} GMT"
    ).encode("ascii")


class StopSignals:
    """``SIGINT``, ``SIGTERM`` and ``SIGHUP`` taken as uvicorn takes them while it
    serves (module docstring): inside :meth:`captured`, a signal is recorded,
    :attr:`stop` set and :attr:`server`'s ``should_exit`` too; each is raised again,
    last first, once the block has ended without an error (to the handlers from
    before the block, restored then)."""

    NAMES = ("SIGINT", "SIGTERM", "SIGHUP")

    def __init__(self) -> None:
        self.caught: list[int] = []
        self.server: Any = None
        """A ``uvicorn.Server`` to stop as well, once there is one."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    @contextlib.contextmanager
    def captured(self) -> Iterator[None]:
        """Capture the signals inside the block (in the main thread only: elsewhere
        the block runs as it is)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        signums = [getattr(signal, name) for name in self.NAMES if hasattr(signal, name)]
        previous = {signum: signal.signal(signum, self._handle) for signum in signums}
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            self._loop = self._stop = None
        for signum in reversed(self.caught):
            signal.raise_signal(signum)

    def stop(self) -> asyncio.Event:
        """Set once a signal came (call on the event loop that serves)."""
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        if self.caught:
            self._stop.set()
        return self._stop

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.caught.append(signum)
        if self.server is not None:
            self.server.should_exit = True
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(stop.set)


class EarlyHttp:
    """Serves ``app`` on ``sockets`` (listening already) until :meth:`stop_accepting`
    (module docstring); run on the event loop that serves afterwards.

    Args:
        app: the ASGI app (its lifespan is the caller's to run).
        sockets: the listening sockets; each is served through a duplicate of its file
            descriptor, so closing what is served here leaves them listening.
    """

    def __init__(self, app: App, sockets: list[socket.socket]) -> None:
        self._app = app
        self._sockets = sockets
        self._servers: list[asyncio.AbstractServer] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._answering = 0  # requests other than GET not answered yet
        self._settled = asyncio.Event()
        self._settled.set()

    async def start(self) -> None:
        """Accept connections on every socket from now on."""
        from rubi.mcp.http_listen import BACKLOG

        for sock in self._sockets:
            # asyncio's listen() call would otherwise shorten the queue to its 100
            server = await asyncio.start_server(self._connection, sock=sock.dup(), backlog=BACKLOG)
            self._servers.append(server)

    async def settled(self) -> None:
        """Wait until no request but a GET stream is being answered here."""
        await self._settled.wait()

    def stop_accepting(self) -> None:
        """Accept nothing more (the duplicates close; the sockets listen on, their
        queued connections left to the next server); connections under way go on."""
        for server in self._servers:
            server.close()

    async def aclose(self) -> None:
        """Stop accepting and end the connections still open (the server is ending)."""
        self.stop_accepting()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks))

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        exchange = _Exchange(self, reader, writer)
        self._begin()  # from the accept on: a request not read yet is under way too
        try:
            await exchange.run()
        except (OSError, asyncio.IncompleteReadError):
            pass  # the client went away (a reset, a peer name no longer there)
        except asyncio.CancelledError:
            pass  # closed by aclose (asyncio's stream callback logs a cancelled handler)
        finally:
            if exchange.counted:
                self._end()
            if task is not None:
                self._tasks.discard(task)
            writer.close()

    def _begin(self) -> None:
        self._answering += 1
        self._settled.clear()

    def _end(self) -> None:
        self._answering -= 1
        if self._answering == 0:
            self._settled.set()


class _Exchange:
    """One connection's one request: read with ``h11``, answered by the app."""

    def __init__(
        self, server: EarlyHttp, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ):
        self.server = server
        self.reader = reader
        self.writer = writer
        self.conn = h11.Connection(h11.SERVER)
        self.request_done = False
        self.started = False
        self.finished = False
        self.counted = True  # counted as a request under way (EarlyHttp.settled)
        self.gone = False  # the client went away while we answered

    async def run(self) -> None:
        try:
            event = await self._next_event()
        except h11.RemoteProtocolError:
            await self._plain(400, b"Invalid HTTP request received.")
            return
        if not isinstance(event, h11.Request):
            return  # closed before a request
        scope = self._scope(event)
        if scope["method"] == "GET":  # a GET stream may last the session
            self.counted = False
            self.server._end()
        try:
            await self.server._app(scope, self._receive, self._send)
        except Exception:
            log.exception("Exception in ASGI application")
        if not self.started:
            await self._plain(500, b"Internal Server Error")
        with contextlib.suppress(TimeoutError, h11.RemoteProtocolError):
            await asyncio.wait_for(self._rest_of_body(), DRAIN_S)

    async def _rest_of_body(self) -> None:
        """Read and drop what is left of the request's body, as uvicorn reads it: closed
        with data unread, the connection is reset, and a client still sending its body
        (a 413 answered before it) meets the reset, not the answer."""
        while self.conn.their_state is h11.SEND_BODY:
            if isinstance(await self._next_event(), (h11.EndOfMessage, h11.ConnectionClosed)):
                return

    async def _next_event(self) -> Any:
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            if self.conn.they_are_waiting_for_100_continue and not self.started:
                continue_ = h11.InformationalResponse(
                    status_code=100, headers=[], reason=b"Continue"
                )
                self.writer.write(self.conn.send(continue_) or b"")
            self.conn.receive_data(await self.reader.read(MAX_READ_BYTES))

    def _scope(self, request: h11.Request) -> Scope:
        raw_path, _, query = bytes(request.target).partition(b"?")
        sock = self.writer.get_extra_info("socket")
        server = client = None
        if sock is not None:
            local, peer = sock.getsockname(), sock.getpeername()
            server = (str(local[0]), int(local[1])) if isinstance(local, tuple) else None
            client = (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) else None
        return {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": request.http_version.decode("ascii"),
            "server": server,
            "client": client,
            "scheme": "http",
            "method": request.method.decode("ascii"),
            "root_path": "",
            "path": unquote(raw_path.decode("ascii")),
            "raw_path": raw_path,
            "query_string": query,
            "headers": [(bytes(name), bytes(value)) for name, value in request.headers],
            "state": {},
        }

    async def _receive(self) -> Message:
        if not self.request_done:
            try:
                event = await self._next_event()
            except h11.RemoteProtocolError:  # a malformed body: uvicorn's 400 at once
                await self._plain(400, b"Invalid HTTP request received.")
                event = h11.ConnectionClosed()
            if isinstance(event, h11.Data):
                return {"type": "http.request", "body": bytes(event.data), "more_body": True}
            if isinstance(event, h11.EndOfMessage):
                self.request_done = True
                return {"type": "http.request", "body": b"", "more_body": False}
            self.request_done = True  # closed mid-body
            return {"type": "http.disconnect"}
        while not self.finished:  # the request is read: wait for the client to leave
            if not await self.reader.read(MAX_READ_BYTES):
                break
        return {"type": "http.disconnect"}

    async def _send(self, message: Message) -> None:
        if self.gone:
            return  # the client went away: dropped, as uvicorn drops it
        try:
            await self._send_now(message)
        except ConnectionError:
            self.gone = True

    async def _send_now(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start" and not self.started:
            self.started = True
            headers = [
                (bytes(name), bytes(value))
                for name, value in message.get("headers", ())
                if bytes(name).lower() not in (b"connection", b"date")
            ]
            headers += [(b"date", http_date()), _CLOSE]
            self._write(h11.Response(status_code=int(message["status"]), headers=headers))
        elif kind == "http.response.body" and self.started and not self.finished:
            body = bytes(message.get("body", b""))
            if body:
                self._write(h11.Data(data=body))
            if not message.get("more_body", False):
                self.finished = True
                self._write(h11.EndOfMessage())
            await self.writer.drain()

    def _write(self, event: Any) -> None:
        self.writer.write(self.conn.send(event) or b"")

    async def _plain(self, status: int, text: bytes) -> None:
        """A plain-text answer of ``status`` (uvicorn's 400 and 500)."""
        if self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(text)).encode("ascii")),
            (b"date", http_date()),
            _CLOSE,
        ]
        self.started = self.finished = True
        self._write(h11.Response(status_code=status, headers=headers))
        self._write(h11.Data(data=text))
        self._write(h11.EndOfMessage())
        await self.writer.drain()
