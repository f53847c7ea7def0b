"""``rubi serve --http``'s first requests served before uvicorn is imported
(:mod:`rubi.mcp.http_early`): uvicorn's scope, one request a connection, uvicorn's
400 and 500, the hand-over to uvicorn once the first answers are out."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from rubi.mcp.http_early import EarlyHttp, http_date
from rubi.mcp.http_listen import listen_early

from helpers import asgi_server, listening, rubi_project

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
TOKEN = "t0ken-for-tests-0123456789abcdef"
RUBI = str(Path(sys.executable).with_name("rubi"))
WAIT_S = 10.0


class Recorder:
    """An ASGI app that records each request's scope and body, then answers 200
    with ``headers`` and the body ``ok``."""

    def __init__(self, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.scopes: list[dict[str, Any]] = []
        self.bodies: list[list[dict[str, Any]]] = []
        self.headers = headers or [(b"content-type", b"text/plain")]

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        messages = [await receive()]
        while messages[-1].get("more_body"):
            messages.append(await receive())
        self.scopes.append(dict(scope))
        self.bodies.append(messages)
        await send({"type": "http.response.start", "status": 200, "headers": self.headers})
        await send({"type": "http.response.body", "body": b"ok"})


def _exchange(port: int, raw: bytes) -> bytes:
    """Send ``raw`` to loopback ``port``; everything read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as client:
        client.sendall(raw)
        chunks = []
        while chunk := client.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _early(app: Any, talk: Callable[[int], Any]) -> Any:
    """Serve ``app`` with :class:`EarlyHttp` on a fresh loopback socket while
    ``talk(port)`` runs in a thread; its result."""
    sockets = listen_early("127.0.0.1", 0)
    port = sockets[0].getsockname()[1]

    async def main() -> Any:
        early = EarlyHttp(app, sockets)
        await early.start()
        try:
            return await asyncio.to_thread(talk, port)
        finally:
            await early.aclose()

    try:
        return asyncio.run(main())
    finally:
        for sock in sockets:
            sock.close()


REQUEST = (
    b"POST /mcp/a%20b?x=1&y=%20 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Two: A\r\n"
    b"Content-Type: application/json\r\nContent-Length: 5\r\n\r\nhello"
)


def test_the_scope_and_body_are_uvicorns() -> None:
    early, served = Recorder(), Recorder()
    _early(early, lambda port: _exchange(port, REQUEST))
    with asgi_server(served) as port:
        _exchange(port, REQUEST.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
    mine, theirs = early.scopes[0], served.scopes[0]
    for scope in (mine, theirs):
        scope["client"] = scope["client"][0]  # the ports differ
        scope["server"] = scope["server"][0]
    theirs["headers"] = [h for h in theirs["headers"] if h[0] != b"connection"]
    assert mine == theirs
    assert mine["path"] == "/mcp/a b" and mine["raw_path"] == b"/mcp/a%20b"
    assert mine["query_string"] == b"x=1&y=%20" and (b"x-two", b"A") in mine["headers"]
    assert b"".join(m["body"] for m in early.bodies[0]) == b"hello"
    assert early.bodies[0][-1] == {"type": "http.request", "body": b"", "more_body": False}


def test_each_answer_closes_its_connection() -> None:
    app = Recorder([(b"content-type", b"text/plain"), (b"connection", b"keep-alive")])
    raw = _early(app, lambda port: _exchange(port, REQUEST))  # ends: the server closed
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.lower().split(b"\r\n")
    assert lines[0] == b"http/1.1 200 "
    assert b"connection: close" in lines and b"connection: keep-alive" not in lines
    assert b"content-type: text/plain" in lines
    assert any(line.startswith(b"date: ") for line in lines)
    assert b"ok" in body


def test_a_request_h11_cannot_read_gets_uvicorns_400() -> None:
    raw = _early(Recorder(), lambda port: _exchange(port, b"NOT HTTP\r\n\r\n"))
    assert raw.startswith(b"HTTP/1.1 400 ")
    assert raw.endswith(b"Invalid HTTP request received.")


@pytest.mark.parametrize("how", ["raises", "returns"])
def test_an_app_that_does_not_answer_gets_uvicorns_500(how: str) -> None:
    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if how == "raises":
            raise RuntimeError("boom")

    raw = _early(app, lambda port: _exchange(port, REQUEST))
    assert raw.startswith(b"HTTP/1.1 500 ") and raw.endswith(b"Internal Server Error")


def test_settled_waits_for_a_request_but_not_for_a_get_stream() -> None:
    release = threading.Event()
    got_get = threading.Event()

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["method"] == "GET":
            got_get.set()
            await receive()
            await receive()  # the client's leaving (a stream held open until then)
            return
        await asyncio.to_thread(release.wait, WAIT_S)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})

    sockets = listen_early("127.0.0.1", 0)
    port = sockets[0].getsockname()[1]

    async def main() -> list[str]:
        seen: list[str] = []
        early = EarlyHttp(app, sockets)
        await early.start()
        stream = socket.create_connection(("127.0.0.1", port))
        stream.sendall(b"GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n")
        await asyncio.to_thread(got_get.wait, WAIT_S)
        await asyncio.wait_for(early.settled(), WAIT_S)  # a GET stream is not waited for
        seen.append("settled with a stream")
        post = asyncio.create_task(asyncio.to_thread(_exchange, port, REQUEST))
        await asyncio.sleep(0.2)
        waiting = asyncio.create_task(early.settled())
        await asyncio.sleep(0.2)
        seen.append("waits" if not waiting.done() else "did not wait")
        release.set()
        await asyncio.wait_for(waiting, WAIT_S)
        seen.append("settled" if b"done" in await post else "no answer")
        early.stop_accepting()
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S):
            conn, _ = sockets[0].accept()  # still listening: queued for the next server
            conn.close()
        seen.append("still listening")
        stream.close()
        await early.aclose()
        return seen

    try:
        seen = asyncio.run(main())
    finally:
        for sock in sockets:
            sock.close()
    assert seen == ["settled with a stream", "waits", "settled", "still listening"]


def test_http_date_is_imf_fixdate_in_english() -> None:
    assert http_date(0) == b"Thu, 01 Jan 1970 00:00:00 GMT"
    assert http_date(1_700_000_000) == b"Tue, 14 Nov 2023 22:13:20 GMT"


def test_run_http_hands_over_to_uvicorn_and_the_warm_up_waits_until_it_serves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:func:`run_http` serves the first requests itself; the hand-over function, called
    from the warm-up's thread, returns only once uvicorn serves the same port."""
    from rubi.mcp import httpfront
    from rubi.mcp.http_admit import HttpAccess

    sockets = listen_early("127.0.0.1", 0)
    port = sockets[0].getsockname()[1]
    access = HttpAccess("127.0.0.1", port, False, None)
    handed: list[Callable[[], None]] = []
    servers: list[Any] = []
    original = httpfront._uvicorn

    def capture(*args: Any) -> Any:
        servers.append(original(*args))
        return servers[-1]

    monkeypatch.setattr(httpfront, "_uvicorn", capture)
    serve = threading.Thread(
        target=httpfront.run_http,
        args=(Recorder(), access),
        kwargs={"sockets": sockets, "say": lambda line: None, "first_answered": handed.append},
        daemon=True,
    )
    serve.start()
    try:
        for _ in range(200):
            if handed:
                break
            time.sleep(0.01)
        assert handed, "run_http never asked to be told of the first answers"
        assert b"server: uvicorn" not in _exchange(port, REQUEST).lower()  # the early server
        handed[0]()  # as the warm-up's thread calls it: returns once uvicorn serves
        assert servers and servers[0].started
        assert b"server: uvicorn" in _exchange(port, REQUEST).lower()
    finally:
        if servers:
            servers[0].should_exit = True
        serve.join(WAIT_S)
        for sock in sockets:
            sock.close()
    assert not serve.is_alive()


# ---------------------------------------------------------------- a real server

ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _post(port: int, method: str, params: dict[str, Any], name: str = "") -> tuple[dict, bytes]:
    """A 2026-07-28 request to ``rubi serve --http``: its response headers and body."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    head = [
        "POST /mcp HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Authorization: Bearer {TOKEN}",
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        "MCP-Protocol-Version: 2026-07-28",
        f"Mcp-Method: {method}",
        *([f"Mcp-Name: {name}"] if name else []),
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    raw = _exchange(port, "\r\n".join(head).encode() + b"\r\n\r\n" + body)
    top, _, payload = raw.partition(b"\r\n\r\n")
    headers: dict[str, str] = {}
    for line in top.decode("latin-1").split("\r\n")[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return headers, payload


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_server_answers_first_itself_then_uvicorn_serves_the_same_port(tmp_path: Path) -> None:
    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "class SmartRouter:\n    pass\n"})
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = dict(os.environ, RUBI_HTTP_TOKEN=TOKEN)
    argv = [RUBI, "serve", "--http", "--port", str(port), "--project", str(root)]
    with listening(argv, port, env), socket.create_connection(("127.0.0.1", port)):
        # a connection that never sends a request holds the hand-over up SETTLE_S at most
        first, pinged = _post(port, "ping", {"_meta": ENVELOPE})
        assert first["connection"] == "close" and "server" not in first  # not uvicorn
        call = {"name": "search", "arguments": {"query": "router"}, "_meta": ENVELOPE}
        _, answer = _post(port, "tools/call", call, name="search")
        assert json.loads(answer)["result"]["isError"] is False
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # uvicorn is imported once the call is out
            later, again = _post(port, "ping", {"_meta": ENVELOPE})
            if later.get("server") == "uvicorn":
                break
            time.sleep(0.05)
        else:
            pytest.fail("uvicorn never served the port")
        assert again == pinged  # the same answer from either server


def test_a_body_h11_cannot_read_gets_uvicorns_400() -> None:
    """A malformed chunked body: 400 at once, as uvicorn answers (not the 500 of an
    app that returned without answering)."""

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass  # the front returns without answering once the client is gone

    raw = _early(
        app,
        lambda port: _exchange(
            port,
            b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"zz\r\nabc\r\n0\r\n\r\n",
        ),
    )
    assert raw.startswith(b"HTTP/1.1 400 ")
    assert raw.endswith(b"Invalid HTTP request received.")


def test_a_client_that_hangs_up_mid_answer_raises_nothing_in_the_app() -> None:
    """uvicorn drops what an app sends once its client is gone; the early server too
    (its ``drain`` raised ``ConnectionResetError`` into the app: a traceback a
    disconnect)."""
    raised: list[BaseException] = []

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        try:
            await asyncio.sleep(0.3)  # the client has hung up by now
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for _ in range(20):
                await send({"type": "http.response.body", "body": b"x" * 65536, "more_body": True})
                await asyncio.sleep(0.01)
            await send({"type": "http.response.body", "body": b""})
        except BaseException as exc:
            raised.append(exc)
            raise

    def hang_up(port: int) -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as client:
            client.sendall(REQUEST)
        time.sleep(1.0)

    _early(app, hang_up)
    assert raised == []


def test_an_answer_before_a_big_body_is_read_reaches_the_client() -> None:
    """An answer given before the body was read (the SDK's 413 for a body over its
    limit): the rest of the body is read and dropped before the connection closes, as
    uvicorn reads it; closed unread, the client's send met a reset and never saw the
    413."""

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        headers = [(b"content-length", b"22")]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": b"Request body too large"})

    size = 8 * 1024 * 1024

    def post(port: int) -> bytes:
        head = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % size
        return _exchange(port, head + b"a" * size)

    raw = _early(app, post)
    assert raw.startswith(b"HTTP/1.1 413 ") and raw.endswith(b"Request body too large")
