"""``rubi serve --http``'s front in the handshake era (:mod:`rubi.mcp.httpsessions`):
a 2025-11-25 client's ``initialize``, session, list requests, pings and plain tool
calls are answered before the MCP SDK is built, as the SDK answers them; anything else
in such a session is the SDK's, in the same session as the client sees it; refusals
are the SDK's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from rubi.core.paths import VaultPaths
from rubi.mcp import httpsessions
from rubi.mcp.httpfront import HttpFront

from helpers import asgi_server
from httpfronts import LOOPBACK, TOKEN, asgi_client, make_front, trie_project

ERA = "2025-11-25"
EVIL = "http://evil.example.com"
SID = "<session>"
NOTE = "decision-route-with-a-trie"


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    return trie_project(tmp_path)


def _rpc(method: str, rid: int | str | None = None, **params: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        msg["id"] = rid
    if params:
        msg["params"] = params
    return msg


def _initialize(version: str = ERA, rid: int = 0) -> dict[str, Any]:
    info = {"name": "t", "version": "1"}
    return _rpc("initialize", rid, protocolVersion=version, capabilities={}, clientInfo=info)


HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "Authorization": f"Bearer {TOKEN}",
}


def _seen(r: httpx.Response, sid: str) -> tuple[int, dict[str, str], Any]:
    """Status, headers (the session's id as :data:`SID`, another as ``<other>``: the
    SDK's throwaway session of a refused request) and body (an SSE event's JSON, or
    the text)."""
    headers = dict(r.headers)
    if "mcp-session-id" in headers:
        headers["mcp-session-id"] = SID if headers["mcp-session-id"] == sid else "<other>"
    text = r.text
    body: Any = text
    if text.startswith("event: message\r\ndata: "):
        assert text.endswith("\r\n\r\n") and text.count("\r\n\r\n") == 1
        body = json.loads(text.split("data: ", 1)[1])
    elif r.headers.get("content-type") == "application/json" and text:
        body = json.loads(text)
    return int(r.status_code), headers, body


Step = tuple[str, Any, dict[str, str | None]]


async def _session(front: HttpFront, steps: list[Step]) -> list[Any]:
    """Open a session, then send ``steps`` (HTTP method, body, header changes) in it."""
    return (await _sessions(front, [steps]))[0]


async def _sessions(front: HttpFront, runs: list[list[Step]]) -> list[list[Any]]:
    """One session per run of steps, one after the other, through one client."""
    got: list[list[Any]] = []
    async with asgi_client(front) as client:
        for steps in runs:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"]
            got.append([_seen(r, sid)])
            for method, body, change in steps:
                headers = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": ERA, **change}
                sent = {k: v for k, v in headers.items() if v is not None}
                content = json.dumps(body) if body is not None else None
                r = await client.request(method, "/mcp", content=content, headers=sent)
                got[-1].append(_seen(r, sid))
    return got


ANSWERED: list[Step] = [
    ("POST", _rpc("notifications/initialized"), {}),
    ("POST", _rpc("tools/list", 1), {}),
    ("POST", _rpc("ping", 2), {}),
    ("POST", _rpc("tools/call", "s", name="search", arguments={"query": "trie"}), {}),
    ("POST", _rpc("tools/call", 3, name="search", arguments={"query": "Ünïcode 日本語"}), {}),
    ("POST", _rpc("tools/call", 4, name="read", arguments={"ids": [NOTE]}), {}),
    ("POST", _rpc("prompts/list", 5), {}),  # the snapshot's error, in a 200 stream
    ("POST", _rpc("tools/list", 6), {"mcp-protocol-version": None}),  # no header: allowed
]


@pytest.mark.timeout(120)
def test_the_front_answers_the_handshake_era_as_the_sdk_does(project: VaultPaths) -> None:
    front = make_front(project)
    by_front = asyncio.run(_session(front, ANSWERED))
    assert front._sdk is None and front.answered == len(ANSWERED) + 1  # no SDK was built
    by_sdk = asyncio.run(_session(make_front(project, answer=False), ANSWERED))
    assert by_front == by_sdk
    assert by_front[0][0] == 200 and by_front[0][1]["content-type"] == "text/event-stream"
    assert by_front[1][0] == 202
    assert "decision-route-with-a-trie" in json.dumps(by_front[4])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2099-01-01"])
def test_other_revisions_are_answered_as_the_sdk_does(project: VaultPaths, version: str) -> None:
    async def opening(front: HttpFront) -> Any:
        async with asgi_client(front) as client:
            headers = {**HEADERS, "mcp-protocol-version": "2025-03-26"}
            r = await client.post("/mcp", content=json.dumps(_initialize(version)), headers=headers)
            return _seen(r, r.headers["mcp-session-id"])

    front = make_front(project)
    assert asyncio.run(opening(front)) == asyncio.run(opening(make_front(project, answer=False)))
    assert front.answered == 1 and front._sdk is None


HANDED: list[Step] = [
    ("POST", _rpc("notifications/initialized"), {}),
    ("POST", _rpc("tools/list", 1), {}),
    ("POST", _rpc("resources/read", 2, uri="rubi://nothing"), {}),  # the SDK's
    ("POST", _rpc("tools/call", 3, name="search", arguments={"query": "trie"}), {}),
    ("POST", _rpc("tools/call", 4, name="search", arguments={"query": 5}), {}),
    ("POST", _rpc("ping", 5), {}),
    ("DELETE", None, {}),
    ("POST", _rpc("ping", 6), {}),  # the session ended: 404
    ("DELETE", None, {}),
]


@pytest.mark.timeout(120)
def test_a_request_the_front_cannot_answer_is_the_sdks_in_the_same_session(
    project: VaultPaths,
) -> None:
    front = make_front(project)
    by_front = asyncio.run(_session(front, HANDED))
    assert front.answered == 3 and front._sdk is not None  # initialize, initialized, list
    assert front.sessions is not None and len(front.sessions) == 0  # DELETE ended it
    by_sdk = asyncio.run(_session(make_front(project, answer=False), HANDED))
    assert by_front == by_sdk
    statuses = [status for status, *_ in by_front]
    assert statuses == [200, 202, 200, 200, 200, 200, 200, 200, 404, 404]
    assert "decision-route-with-a-trie" in json.dumps(by_front[4])
    assert all(g[1].get("mcp-session-id") in (SID, None) for g in by_front)


REFUSED: list[Step] = [
    ("POST", _rpc("tools/list", 1), {"Authorization": f"Bearer {TOKEN[:-1]}x"}),
    ("POST", _rpc("tools/list", 2), {"Origin": EVIL}),
    ("POST", _rpc("tools/list", 3), {"Host": "evil.example.com:8765"}),
    ("POST", _rpc("tools/list", 4), {"mcp-session-id": None}),
    ("POST", _rpc("tools/list", 5), {"mcp-session-id": "0123456789abcdef"}),
    ("POST", _rpc("tools/list", 6), {"Accept": "application/json"}),
    ("POST", _rpc("tools/list", 7), {"Content-Type": "application/jsonx"}),
    ("POST", _rpc("tools/list", 8), {"Content-Type": "Application/JSON"}),
    ("POST", _rpc("tools/list", 9), {"mcp-protocol-version": "2099-01-01"}),
    ("PUT", None, {}),
    ("DELETE", None, {"Authorization": None}),
    ("GET", None, {"Authorization": None}),
]


@pytest.mark.timeout(120)
def test_refusals_in_a_front_session_are_the_sdks(project: VaultPaths) -> None:
    """Each refusal in a session of its own, not handed over yet; the session goes on
    after it (in the SDK's hands when the refusal handed it over)."""
    after = ("POST", _rpc("tools/list", 10), {})
    initialized = ("POST", _rpc("notifications/initialized"), {})
    runs = [[initialized, refusal, after] for refusal in REFUSED]
    front = make_front(project, stream_wait_s=0.1)
    by_front = asyncio.run(_sessions(front, runs))
    by_sdk = asyncio.run(_sessions(make_front(project, answer=False), runs))
    assert by_front == by_sdk
    statuses = [[status for status, *_ in run[2:]] for run in by_front]
    assert [s[0] for s in statuses] == [401, 403, 421, 400, 404, 406, 415, 415, 400, 405, 401, 401]
    assert all(s[1] == 200 for s in statuses)
    assert front.sessions is not None  # handed over: all but the three without its id
    assert sum(1 for s in front.sessions._table.values() if s.sdk_id) == len(REFUSED) - 3


def test_refusals_before_a_session_are_the_sdks(project: VaultPaths) -> None:
    async def refused(front: HttpFront) -> list[Any]:
        got = []
        async with asgi_client(front) as client:
            for change in (
                {"Authorization": None},
                {"Origin": EVIL},
                {"mcp-session-id": "0123456789abcdef"},
                {"Content-Type": "text/plain"},
                {"Content-Type": "application/jsonx"},  # the front admits it; the SDK: 415
                {"mcp-protocol-version": "2026-07-28"},
            ):
                sent = {k: v for k, v in {**HEADERS, **change}.items() if v is not None}
                r = await client.post("/mcp", content=json.dumps(_initialize()), headers=sent)
                got.append(_seen(r, r.headers.get("mcp-session-id", "")))
            r = await client.post("/mcp", content=json.dumps(_rpc("ping", 1)), headers=HEADERS)
            got.append(_seen(r, r.headers.get("mcp-session-id", "")))
        return got

    front = make_front(project)
    assert asyncio.run(refused(front)) == asyncio.run(refused(make_front(project, answer=False)))
    assert front.answered == 0


def test_at_the_cap_a_new_session_is_the_sdks(
    project: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sessions kept at most here: the third is opened by the SDK itself and works
    as well; a kept session idle past the SDK's timeout is forgotten for a new one
    (its id then answers the SDK's 404)."""
    from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT

    assert httpsessions.IDLE_S == DEFAULT_SESSION_IDLE_TIMEOUT
    monkeypatch.setattr(httpsessions, "MAX_SESSIONS", 2)
    front = make_front(project)

    async def run() -> list[int]:
        statuses = []
        async with asgi_client(front) as client:
            ids = []
            for _ in range(3):
                r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
                ids.append(r.headers["mcp-session-id"])
            assert front.answered == 2 and front._sdk is not None
            for sid in ids:
                headers = {**HEADERS, "mcp-session-id": sid}
                r = await client.post("/mcp", content=json.dumps(_rpc("ping", 1)), headers=headers)
                statuses.append(r.status_code)
            assert front.sessions is not None
            for session in front.sessions._table.values():
                session.last_seen -= httpsessions.IDLE_S + 120
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            assert front.answered == 5 and len(front.sessions) == 1  # 2 pings too
            headers = {**HEADERS, "mcp-session-id": ids[0]}
            r = await client.post("/mcp", content=json.dumps(_rpc("ping", 2)), headers=headers)
            statuses.append(r.status_code)
        return statuses

    assert asyncio.run(run()) == [200, 200, 200, 404]


# ------------------------------------------------------------------- a real server


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_sdks_own_legacy_client_is_served_before_the_sdk_is_built(
    project: VaultPaths,
) -> None:
    """The SDK's own 2025-11-25 client (its GET stream included) gets its handshake,
    tool list and search from the front; the SDK's app is built only when the client
    ends its session (DELETE), which then reaches the SDK in that session."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from mcp import Client

    front = make_front(project, stream_wait_s=60.0)

    async def run(port: int) -> dict[str, Any]:
        url = f"http://127.0.0.1:{port}/mcp"
        async with (
            create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
        ):
            tools = await client.list_tools()
            answer = await client.call_tool("search", {"query": "trie"})
            return {
                "built": front._sdk is not None,
                "answered": front.answered,
                "tools": [t.name for t in tools.tools],
                "answer": [c.model_dump(mode="json") for c in answer.content],
            }

    with asgi_server(front) as port:
        got = asyncio.run(asyncio.wait_for(run(port), 60))
    assert not got["built"] and got["answered"] >= 4 and "search" in got["tools"]
    assert "decision-route-with-a-trie" in json.dumps(got["answer"])
    assert front.sessions is not None and len(front.sessions) == 0  # the DELETE ended it


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_get_stream_waits_for_the_sdk_then_is_its_in_the_session(project: VaultPaths) -> None:
    front = make_front(project, stream_wait_s=0.2)

    async def run(port: int) -> list[Any]:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"]
            headers = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": ERA}
            body = json.dumps(_rpc("notifications/initialized"))
            await client.post("/mcp", content=body, headers=headers)
            assert front._sdk is None
            async with client.stream("GET", "/mcp", headers=headers) as stream:
                seen = [stream.status_code, stream.headers.get("content-type")]
                seen.append(stream.headers.get("mcp-session-id") == sid)
            seen.append((await client.delete("/mcp", headers=headers)).status_code)
            seen.append((await client.get("/mcp", headers=headers)).status_code)
        return seen

    with asgi_server(front) as port:
        got = asyncio.run(asyncio.wait_for(run(port), 60))
    assert got == [200, "text/event-stream", True, 200, 404]


def test_a_session_idle_past_the_sdks_timeout_ends_as_the_sdks_would(
    project: VaultPaths,
) -> None:
    front = make_front(project)

    async def run() -> list[Any]:
        async with asgi_client(front) as client:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"]
            assert front.sessions is not None
            for session in front.sessions._table.values():
                session.last_seen -= httpsessions.IDLE_S + 1
            headers = {**HEADERS, "mcp-session-id": sid}
            r = await client.post("/mcp", content=json.dumps(_rpc("ping", 1)), headers=headers)
            return [r.status_code, r.json()["error"]["message"], len(front.sessions)]

    assert asyncio.run(run()) == [404, "Session not found", 0]


def test_a_waiting_get_stream_does_not_hold_up_the_shutdown(project: VaultPaths) -> None:
    """Shutdown begun (uvicorn's ``shutdown`` calls ``closing``): a GET stream waiting
    for the SDK's app gets 503 at once, and nothing is built for it."""
    front = make_front(project, stream_wait_s=60.0)

    async def run() -> list[Any]:
        async with asgi_client(front) as client:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"].encode()
        sent: list[Any] = []
        asked = 0

        async def receive() -> dict[str, Any]:
            nonlocal asked
            asked += 1
            if asked == 1:
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        headers += [(b"host", b"127.0.0.1:8765"), (b"mcp-session-id", sid)]
        scope = {"type": "http", "method": "GET", "path": "/mcp", "headers": headers}
        stream = asyncio.ensure_future(front(scope, receive, send))
        await asyncio.sleep(0.2)
        assert not stream.done()
        front.closing()
        await asyncio.wait_for(stream, 5)
        return [sent[0]["status"], front._sdk is None]

    assert asyncio.run(run()) == [503, True]


NOT_UTF8 = {
    "utf-16": lambda text: text.encode("utf-16"),
    "utf-32": lambda text: text.encode("utf-32"),
    "utf-8 BOM": lambda text: b"\xef\xbb\xbf" + text.encode(),
    "encoded surrogate": lambda text: text.replace("NAME", "\ud800").encode(
        "utf-8", "surrogatepass"
    ),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("encoding", list(NOT_UTF8))
def test_a_body_not_of_strict_utf8_is_the_sdks(project: VaultPaths, encoding: str) -> None:
    """The SDK parses a body as strict UTF-8 JSON: a UTF-16 or UTF-32 body, a byte
    order mark, an encoded lone surrogate are its parse error (400) in the handshake
    era, never a session or an answer of the front's (Python's ``json.loads`` of bytes
    accepts them all; an echoed surrogate id even failed the front's answer); in the
    2026-07-28 era the SDK's own answer, whatever it is."""
    encode = NOT_UTF8[encoding]

    async def run(front: HttpFront) -> list[Any]:
        info = {"name": "NAME", "version": "1"}
        init = _rpc("initialize", 0, protocolVersion=ERA, capabilities={}, clientInfo=info)
        listing = json.dumps(_rpc("tools/list", "NAME"))
        got = []
        async with asgi_client(front) as client:
            r = await client.post("/mcp", content=encode(json.dumps(init)), headers=HEADERS)
            got.append(_seen(r, r.headers.get("mcp-session-id", "")))
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"]
            headers = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": ERA}
            for body in (listing, json.dumps(_rpc("notifications/initialized"))):
                r = await client.post("/mcp", content=encode(body), headers=headers)
                got.append(_seen(r, sid))
            modern = {**HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list"}
            meta = {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
            body = json.dumps(_rpc("tools/list", "NAME", _meta=meta))
            r = await client.post("/mcp", content=encode(body), headers=modern)
            got.append(_seen(r, ""))
        return got

    front = make_front(project)
    by_front = asyncio.run(run(front))
    assert by_front == asyncio.run(run(make_front(project, answer=False)))
    assert by_front[0][0] == by_front[1][0] == 400  # the SDK's parse error
    assert front.answered == 1  # the plain initialize alone (the refusal handed over)


@pytest.mark.timeout(120)
def test_a_long_initialized_notification_is_not_kept(project: VaultPaths) -> None:
    """What a session keeps is bounded (:data:`httpsessions.MAX_OPENING_BYTES`): a
    ``notifications/initialized`` padded past it (whitespace, up to the 4 MiB body
    limit) is the SDK's, not kept to be replayed; the session goes on as the SDK's."""
    padded = '{"jsonrpc": "2.0", "method": "notifications/initialized"' + " " * 2**20 + "}"
    steps: list[Step] = [("POST", None, {}), ("POST", _rpc("tools/list", 1), {})]

    async def run(front: HttpFront) -> list[Any]:
        async with asgi_client(front) as client:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"]
            got = [_seen(r, sid)]
            headers = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": ERA}
            for _, body, _ in steps:
                content = padded if body is None else json.dumps(body)
                r = await client.post("/mcp", content=content, headers=headers)
                got.append(_seen(r, sid))
            if front.sessions is not None:
                kept = [s.initialized for s in front.sessions._table.values()]
                assert all(len(k[1]) <= httpsessions.MAX_OPENING_BYTES for k in kept if k)
        return got

    front = make_front(project)
    by_front = asyncio.run(run(front))
    assert by_front == asyncio.run(run(make_front(project, answer=False)))
    assert [status for status, *_ in by_front] == [200, 202, 200]


@pytest.mark.timeout(120)
def test_a_websocket_naming_a_front_session_is_the_sdks(project: VaultPaths) -> None:
    """A WebSocket handshake to ``/mcp`` (uvicorn serves them when a WebSocket library
    is installed) naming a session of the front's is the SDK's, as every WebSocket is:
    closed, never taken for an HTTP request of the session (it has no method)."""

    async def run(front: HttpFront) -> list[Any]:
        async with asgi_client(front) as client:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"].encode()
        sent: list[Any] = []

        async def receive() -> dict[str, Any]:
            return {"type": "websocket.connect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        headers += [(b"host", b"127.0.0.1:8765"), (b"mcp-session-id", sid)]
        scope = {"type": "websocket", "path": "/mcp", "headers": headers, "root_path": ""}
        await asyncio.wait_for(front(scope, receive, send), 30)
        await front.aclose()
        return [m["type"] for m in sent]

    by_front = asyncio.run(run(make_front(project)))
    assert by_front == asyncio.run(run(make_front(project, answer=False))) == ["websocket.close"]


@pytest.mark.timeout(120)
def test_a_request_read_across_a_hand_over_goes_to_the_sdk(project: VaultPaths) -> None:
    """A request whose body was still arriving while another request handed the
    session over is the SDK's once read: a ``notifications/initialized`` then
    reaches the SDK's session (none was replayed to it), not the front's record."""
    seen: list[bytes] = []

    def sdk() -> Any:
        from rubi.mcp.http_access import http_app
        from rubi.mcp.server import build_server

        app = http_app(build_server(project, token=TOKEN), LOOPBACK)

        async def spy(scope: Any, receive: Any, send: Any) -> None:
            async def watched() -> Any:
                message = await receive()
                seen.append(message.get("body", b""))
                return message

            await app(scope, watched if scope["type"] == "http" else receive, send)

        return spy

    front = make_front(project, build=sdk)
    body = json.dumps(_rpc("notifications/initialized")).encode()

    async def run() -> list[Any]:
        async with asgi_client(front) as client:
            r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
            sid = r.headers["mcp-session-id"]
            headers = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": ERA}
            arrived = asyncio.Event()
            sent: list[Any] = []

            async def receive() -> dict[str, Any]:
                await arrived.wait()
                return {"type": "http.request", "body": body, "more_body": False}

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            raw = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
            raw.append((b"host", b"127.0.0.1:8765"))
            scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": raw}
            slow = asyncio.ensure_future(front(scope, receive, send))
            await asyncio.sleep(0.05)
            listing = _rpc("resources/list", 1, cursor=None)  # hands the session over
            r = await client.post("/mcp", content=json.dumps(listing), headers=headers)
            assert r.status_code == 200 and front._sdk is not None
            arrived.set()
            await asyncio.wait_for(slow, 30)
            return [sent[0]["status"], front.answered, body in seen]

    assert asyncio.run(run()) == [202, 1, True]


@pytest.mark.timeout(50)
def test_a_refused_get_stream_is_refused_at_once_as_the_sdk_refuses_it(
    project: VaultPaths,
) -> None:
    """Over a real socket, a GET stream naming a live front session that the SDK's gates
    refuse (no token, a wrong one, a foreign Origin or Host) waited for the SDK's app
    to be built by others (up to ``STREAM_WAIT_S``, here 60 s: past the test's
    timeout) before its refusal; it is handed to the SDK at once now, which refuses it
    as it always did."""
    front = make_front(project, stream_wait_s=60.0)
    refusals: list[dict[str, str | None]] = [
        {"Authorization": None},
        {"Authorization": f"Bearer {TOKEN[:-1]}x"},
        {"Origin": EVIL},
        {"Host": "evil.example.com:8765"},
    ]

    async def run(port: int) -> list[int]:
        statuses = []
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=40) as client:
            for change in refusals:
                r = await client.post("/mcp", content=json.dumps(_initialize()), headers=HEADERS)
                sid = r.headers["mcp-session-id"]
                headers = {**HEADERS, "mcp-session-id": sid, "mcp-protocol-version": ERA}
                sent = {k: v for k, v in {**headers, **change}.items() if v is not None}
                statuses.append((await client.get("/mcp", headers=sent)).status_code)
        return statuses

    with asgi_server(front) as port:
        assert asyncio.run(asyncio.wait_for(run(port), 45)) == [401, 401, 403, 421]
