"""``rubi serve --http``'s front (:mod:`rubi.mcp.httpfront`): a 2026-07-28 request
is answered before the MCP SDK is built, as the SDK answers it; a request the front
cannot check, and every refusal, is the SDK's; the front's admission never lets
through what the SDK's checks would refuse."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from rubi.core.paths import VaultPaths
from rubi.mcp.front import CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, VERSION_KEY
from rubi.mcp.http_admit import MAX_BODY_BYTES, HttpAccess, front_admits
from rubi.mcp.httpfront import HttpFront

from helpers import asgi_server
from httpfronts import TOKEN, asgi_client, make_front, sdk_build, trie_project

MODERN = "2026-07-28"
EVIL = "http://evil.example.com"


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    return trie_project(tmp_path)


def _access(host: str = "127.0.0.1", token: str | None = TOKEN) -> HttpAccess:
    return HttpAccess(host, 8765, host not in ("127.0.0.1", "localhost", "::1"), token)


def _request(method: str, rid: int = 1, **params: Any) -> dict[str, Any]:
    meta = {VERSION_KEY: MODERN, CLIENT_INFO_KEY: {"name": "t", "version": "1"}}
    meta[CLIENT_CAPABILITIES_KEY] = {}
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": {**params, "_meta": meta}}


def _headers(body: dict[str, Any], **extra: str | None) -> dict[str, str]:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {TOKEN}",
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": body["method"],
    }
    if body["method"] == "tools/call":
        headers["Mcp-Name"] = body["params"]["name"]
    headers.update(extra)
    return {k: v for k, v in headers.items() if v is not None}


REQUESTS = [
    _request("server/discover"),
    _request("tools/list", 2),
    _request("tools/call", 4, name="search", arguments={"query": "trie"}),
    _request("tools/call", 5, name="search", arguments={"query": "Ünïcode 日本語 router"}),
    _request("tools/call", 6, name="read", arguments={"ids": ["decision-route-with-a-trie"]}),
    _request("tools/call", 7, name="map", arguments={}),
]


async def _answers(
    front: HttpFront, sent: list[tuple[dict[str, Any], dict[str, str]]]
) -> list[Any]:
    got = []
    async with asgi_client(front) as client:
        for body, headers in sent:
            r = await client.post("/mcp", content=json.dumps(body), headers=headers)
            got.append(
                (
                    r.status_code,
                    r.headers.get("content-type"),
                    r.headers.get("www-authenticate"),
                    r.json() if r.headers.get("content-type") == "application/json" else r.text,
                )
            )
    return got


@pytest.mark.timeout(120)
def test_the_front_answers_the_modern_era_as_the_sdk_does(project: VaultPaths) -> None:
    access = _access()
    sent = [(body, _headers(body)) for body in REQUESTS]
    front = make_front(project, access)
    by_front = asyncio.run(_answers(front, sent))
    assert front.answered == len(REQUESTS) and front._sdk is None  # no SDK was built
    by_sdk = asyncio.run(_answers(make_front(project, access, answer=False), sent))
    assert by_front == by_sdk
    assert all(status == 200 for status, *_ in by_front)
    assert "decision-route-with-a-trie" in json.dumps(by_front[2])


@pytest.mark.timeout(120)
def test_every_refusal_is_the_sdks(project: VaultPaths) -> None:
    """A request that fails an admission check goes to the SDK, which refuses it as
    before: the same status, headers and body as the SDK's path alone."""
    search = REQUESTS[2]
    refused = {
        "no token": _headers(search, Authorization=None),
        "wrong token": _headers(search, Authorization=f"Bearer {TOKEN[:-1]}x"),
        "token and more": _headers(search, Authorization=f"Bearer {TOKEN}x"),
        "not bearer": _headers(search, Authorization=f"Basic {TOKEN}"),
        "foreign Origin": _headers(search, Origin=EVIL),
        "empty Origin": _headers(search, Origin=""),
        "foreign Host": _headers(search, Host="evil.example.com:8765"),
        "Host without port": _headers(search, Host="127.0.0.1"),
        "not JSON": _headers(search, **{"Content-Type": "text/plain"}),
        "no event stream": _headers(search, Accept="application/json"),
        "method header": _headers(search, **{"Mcp-Method": "tools/list"}),
        "name header": _headers(search, **{"Mcp-Name": "read"}),
        "version header": _headers(search, **{"MCP-Protocol-Version": "2099-01-01"}),
    }
    sent = [(search, headers) for headers in refused.values()]
    front = make_front(project, _access(), build=sdk_build(project, _access()))
    by_front = asyncio.run(_answers(front, sent))
    by_sdk = asyncio.run(_answers(make_front(project, _access(), answer=False), sent))
    assert front.answered == 0
    assert by_front == by_sdk
    statuses = dict(zip(refused, (answer[0] for answer in by_front), strict=True))
    assert statuses["no token"] == statuses["wrong token"] == statuses["not bearer"] == 401
    assert statuses["foreign Origin"] == 403 and statuses["foreign Host"] == 421


def _enveloped(body: dict[str, Any], **meta: Any) -> dict[str, Any]:
    params = body["params"]
    return {**body, "params": {**params, "_meta": {**params["_meta"], **meta}}}


@pytest.mark.timeout(120)
def test_an_envelope_the_sdk_refuses_is_refused_by_the_sdk(project: VaultPaths) -> None:
    """Client capabilities or info of a shape the SDK's models refuse: its 400, never
    the front's result (the front once checked only that both were objects)."""
    bad = [
        _enveloped(REQUESTS[0], **{CLIENT_CAPABILITIES_KEY: {"roots": "x"}}),
        _enveloped(REQUESTS[1], **{CLIENT_CAPABILITIES_KEY: {"experimental": {"x": 5}}}),
        _enveloped(REQUESTS[1], **{CLIENT_INFO_KEY: {"name": "t", "version": "1", "title": 5}}),
        _enveloped(REQUESTS[2], **{CLIENT_CAPABILITIES_KEY: {"sampling": {"tools": []}}}),
    ]
    sent = [(body, _headers(body)) for body in bad]
    front = make_front(project, _access())
    by_front = asyncio.run(_answers(front, sent))
    by_sdk = asyncio.run(_answers(make_front(project, _access(), answer=False), sent))
    assert by_front == by_sdk and front.answered == 0
    assert {status for status, *_ in by_front} == {400}


@pytest.mark.timeout(120)
def test_a_remote_bind_keeps_the_same_origin_rule(project: VaultPaths) -> None:
    access = _access("0.0.0.0")
    search = REQUESTS[2]
    sent = [
        (search, _headers(search, Origin=EVIL)),
        (search, _headers(search, Origin="http://localhost:8765")),  # not the Host it was sent to
        (search, _headers(search, Origin="http://rubi.example.com:8765")),
        (search, _headers(search, Authorization=None)),
    ]
    front = make_front(project, access)
    by_front = asyncio.run(_answers_at(front, sent, "rubi.example.com:8765"))
    by_sdk = asyncio.run(
        _answers_at(make_front(project, access, answer=False), sent, "rubi.example.com:8765")
    )
    assert by_front == by_sdk
    assert [a[0] for a in by_front] == [403, 403, 200, 401]
    assert front.answered == 1  # its own origin, with the token


async def _answers_at(front: HttpFront, sent: list[Any], host: str) -> list[Any]:
    got = []
    async with asgi_client(front, host) as client:
        for body, headers in sent:
            r = await client.post("/mcp", content=json.dumps(body), headers=headers)
            got.append((r.status_code, r.text if r.status_code != 200 else r.json()))
    return got


def test_requests_the_front_cannot_check_go_to_the_sdk(project: VaultPaths) -> None:
    """Anything unusual is the SDK's, whose build a test double stands in for here."""
    asked: list[str] = []

    async def sdk(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        asked.append(body.decode()[:60])
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    search = REQUESTS[2]
    odd = [
        {**search, "extra": 1},  # a key the plain shape has not
        _request("tools/call", 8, name="search", arguments={"query": 1}),  # the SDK coerces
        _request("tools/call", 9, name="nope", arguments={}),
        _request("prompts/list", 10),  # an error in this era: its status is the SDK's
        _request("ping", 3),  # an error too (no ping in this era)
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}},
        [search],  # a batch
    ]
    sent = [(body, _headers(search)) for body in odd]
    sent.append((search, {**_headers(search), "Mcp-Param-Query": "trie"}))
    front = make_front(project, _access(), build=lambda: sdk)
    got = asyncio.run(_answers(front, sent))
    assert [g[0] for g in got] == [299] * len(sent) and front.answered == 0
    assert len(asked) == len(sent) and all(a for a in asked)  # each body reached the SDK whole


def test_a_body_over_the_limit_reaches_the_sdk_whole(project: VaultPaths) -> None:
    from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

    assert MAX_BODY_BYTES == DEFAULT_MAX_REQUEST_BODY_SIZE
    search = _request("tools/call", 4, name="search", arguments={"query": "x" * MAX_BODY_BYTES})
    got = asyncio.run(_answers(make_front(project, _access()), [(search, _headers(search))]))
    assert got[0][0] == 413


def test_a_declared_length_over_the_limit_is_refused_before_its_body(
    project: VaultPaths,
) -> None:
    """A ``Content-Length`` over the limit: the SDK's 413 at once, as without the
    front, not a wait for a body that may never come (the front once read first)."""
    search = REQUESTS[2]
    headers = _headers(search, **{"Content-Length": str(MAX_BODY_BYTES + 1)})
    scope = _scope("127.0.0.1:8765", None, f"Bearer {TOKEN}", headers["Accept"], "application/json")
    scope["headers"] += [
        (k.lower().encode(), v.encode()) for k, v in headers.items() if k.lower().startswith("mcp")
    ]
    scope["headers"].append((b"content-length", str(MAX_BODY_BYTES + 1).encode()))
    received: list[str] = []
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        received.append("asked")  # a body that stops after its first bytes
        if len(received) == 1:
            return {"type": "http.request", "body": json.dumps(search).encode(), "more_body": True}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        front = make_front(project, _access())
        try:
            await front(scope, receive, send)
        finally:
            await front.aclose()

    assert front_admits(_access(), scope) is None
    asyncio.run(run())
    assert sent and sent[0]["status"] == 413 and not received


# ------------------------------------------------------- the admission, check by check

HOSTS = [
    "127.0.0.1:8765",
    "localhost:1",
    "127.0.0.1",
    "evil.example.com:8765",
    "",
    "127.0.0.1:*",
    "127.0.0.1.evil.com:80",
    "[::1]:8765",
    "localhost.:8765",
    "LOCALHOST:8765",
]
ORIGINS = [
    None,
    "",
    "http://127.0.0.1:8765",
    "http://localhost:3000",
    EVIL,
    "null",
    "https://127.0.0.1:8765",
    "http://127.0.0.1:8765/x",
    "http://127.0.0.1.evil.com:1",
]
AUTHS = [
    None,
    f"Bearer {TOKEN}",
    f"bearer {TOKEN}",
    f"BEARER {TOKEN}",
    f"Bearer {TOKEN} ",
    f"Bearer  {TOKEN}",
    "Bearer ",
    f"Basic {TOKEN}",
    f"Bearer {TOKEN}\u00e9",
]
ACCEPTS = [
    "application/json, text/event-stream",
    "*/*",
    "application/*, text/*",
    "application/json",
    "text/event-stream",
    "",
    "Application/JSON;q=1, TEXT/EVENT-STREAM",
]
TYPES = [
    "application/json",
    "Application/JSON; charset=utf-8",
    "text/plain",
    "",
    "application/jsonx",
]


def _scope(
    host: str, origin: str | None, auth: str | None, accept: str, ctype: str
) -> dict[str, Any]:
    raw = [
        ("host", host),
        ("origin", origin),
        ("authorization", auth),
        ("accept", accept),
        ("content-type", ctype),
    ]
    headers = [(k.encode(), v.encode("latin-1", "replace")) for k, v in raw if v is not None]
    return {
        "type": "http",
        "method": "POST",
        "path": "/mcp",
        "root_path": "",
        "headers": headers,
        "query_string": b"",
        "scheme": "http",
        "server": ("127.0.0.1", 8765),
    }


async def _sdk_admits(access: HttpAccess, scope: dict[str, Any]) -> bool:
    """Every check the SDK's path makes of these headers, with its own code."""
    from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend
    from mcp.server.streamable_http import check_accept_headers
    from mcp.server.transport_security import TransportSecurityMiddleware
    from starlette.requests import Request

    from rubi.mcp.http_access import StaticTokenVerifier, same_origin

    request = Request(scope)
    origin, host = request.headers.get("origin"), request.headers.get("host", "")
    if access.remote and origin is not None and not same_origin(origin, host):
        return False
    backend = BearerAuthBackend(StaticTokenVerifier(access.token or ""))
    if access.token is not None and await backend.authenticate(request) is None:
        return False
    security = TransportSecurityMiddleware(access.transport_security)
    if await security.validate_request(request, is_post=True) is not None:
        return False
    return all(check_accept_headers(request))


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "0.0.0.0"])
def test_the_front_admits_only_what_the_sdk_admits(host: str) -> None:
    access = _access(host)
    admitted = [
        _scope(h, origin, auth, accept, ctype)
        for h in HOSTS
        for origin in ORIGINS
        for auth in AUTHS
        for accept in ACCEPTS[:4]
        for ctype in TYPES[:3]
        if front_admits(access, _scope(h, origin, auth, accept, ctype)) is not None
    ]
    plain = "127.0.0.1:8765" if host != "0.0.0.0" else "x:1"
    either = [
        _scope(plain, None, f"Bearer {TOKEN}", accept, ctype)
        for accept in ACCEPTS
        for ctype in TYPES
    ]

    async def by_sdk(scopes: list[dict[str, Any]]) -> list[bool]:
        return [await _sdk_admits(access, scope) for scope in scopes]

    assert admitted and all(asyncio.run(by_sdk(admitted)))
    by_front = [front_admits(access, scope) is not None for scope in either]
    assert by_front == asyncio.run(by_sdk(either))


def test_a_checked_header_given_twice_is_the_sdks() -> None:
    scope = _scope("127.0.0.1:8765", None, f"Bearer {TOKEN}", "*/*", "application/json")
    assert front_admits(_access(), scope) is not None
    for name, value in [
        ("authorization", "Bearer x"),
        ("host", "evil:1"),
        ("origin", EVIL),
        ("mcp-method", "ping"),
    ]:
        twice = {**scope, "headers": [*scope["headers"], (name.encode(), value.encode())]}
        if name == "mcp-method":
            twice["headers"].append((b"mcp-method", b"ping"))
        assert front_admits(_access(), twice) is None, name
    for other in ({"method": "GET"}, {"path": "/mcp/"}, {"root_path": "/x"}, {"type": "websocket"}):
        assert front_admits(_access(), {**scope, **other}) is None


# ------------------------------------------------------------------- a real server


async def _modern_client(port: int) -> dict[str, Any]:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from mcp import Client

    url = f"http://127.0.0.1:{port}/mcp"
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode="auto") as client,
    ):
        opened = client.session.discover_result
        assert opened is not None
        tools = await client.list_tools()
        answer = await client.call_tool("search", {"query": "trie"})
        return {
            "capabilities": opened.capabilities.model_dump(mode="json", exclude_none=True),
            "tools": [t.name for t in tools.tools],
            "answer": [c.model_dump(mode="json", exclude_none=True) for c in answer.content],
        }


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_sdks_own_client_is_served_by_the_front_without_the_sdk(project: VaultPaths) -> None:
    """A 2026-07-28 client of the SDK's own gets its discover, tool list and search from
    the front; the SDK's app is never built (its build fails here)."""

    def no_sdk() -> Any:
        raise RuntimeError("the SDK was asked for")

    front = make_front(project, _access(), build=no_sdk)
    with asgi_server(front) as port:
        got = asyncio.run(asyncio.wait_for(_modern_client(port), 60))
    assert front.answered >= 3 and "search" in got["tools"]
    assert "decision-route-with-a-trie" in json.dumps(got["answer"])


def test_the_front_path_imports_neither_the_sdk_nor_starlette() -> None:
    """What ``rubi serve --http`` imports before it answers: the CLI's serve, the
    access plan, the front and the early answers; never the SDK (its import is what
    the front saves)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import rubi.cli.serverun, rubi.mcp.server, rubi.mcp.httpfront, rubi.mcp.http_admit\n"
        "import rubi.mcp.early, rubi.mcp.httpwarm, rubi.mcp.httpsessions\n"
        "seen = ('mcp', 'mcp_types', 'starlette', 'pydantic')\n"
        "print(sorted(m for m in seen if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
