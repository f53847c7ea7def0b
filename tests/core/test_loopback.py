"""The loopback Host/Origin rule ``rubi view`` applies is the one ``rubi serve --http``
gets from the MCP library's middleware with the same names."""

from __future__ import annotations

import asyncio

import pytest
from starlette.requests import Request

from rubi.core.loopback import loopback_names, refusal
from rubi.mcp.http_access import plan_http_access

CASES = [
    ("127.0.0.1:8765", None),
    ("localhost:8765", "http://localhost:8765"),
    ("[::1]:8765", "http://[::1]:8765"),
    ("127.0.0.1:8765", "http://127.0.0.1:9999"),
    ("evil.example:8765", None),
    ("127.0.0.1.evil.example:8765", None),
    ("127.0.0.1", None),
    (None, None),
    ("127.0.0.1:8765", "http://evil.example"),
    ("127.0.0.1:8765", "https://127.0.0.1:8765"),
    ("127.0.0.1:8765", "null"),
    ("localhost:8765", "http://localhost.evil.example:8765"),
]


def _library_status(host: str | None, origin: str | None) -> int | None:
    from mcp.server.transport_security import TransportSecurityMiddleware

    access = plan_http_access("127.0.0.1", 8765, no_token=True, environ={})
    headers = [(k.encode(), v.encode()) for k, v in (("host", host), ("origin", origin)) if v]
    request = Request({"type": "http", "method": "GET", "path": "/", "headers": headers})
    middleware = TransportSecurityMiddleware(access.transport_security)
    response = asyncio.run(middleware.validate_request(request))
    return None if response is None else response.status_code


@pytest.mark.parametrize(("host", "origin"), CASES)
def test_the_view_check_agrees_with_the_mcp_servers(host: str | None, origin: str | None) -> None:
    ours = refusal(host, origin, loopback_names("127.0.0.1"))
    assert (None if ours is None else ours[0]) == _library_status(host, origin)


def test_a_port_must_be_digits() -> None:
    names = loopback_names("127.0.0.1")
    assert refusal("127.0.0.1:80@evil.example", None, names) == (421, "Invalid Host header")
    assert refusal("127.0.0.1:80", "http://localhost:x", names) == (403, "Invalid Origin header")


def test_an_ipv6_bind_address_is_bracketed_once() -> None:
    assert loopback_names("::1") == ["127.0.0.1", "localhost", "[::1]"]
    assert loopback_names("127.0.0.2")[-1] == "127.0.0.2"


@pytest.mark.parametrize(
    ("host", "written"),
    [("127.0.0.1", "127.0.0.1"), ("localhost", "localhost"), ("::1", "[::1]"), ("[::1]", "[::1]")],
)
def test_an_ipv6_host_is_bracketed_in_a_url(host: str, written: str) -> None:
    from rubi.core.loopback import url_host

    assert url_host(host) == written


def test_serve_http_announces_an_ipv6_loopback_url_a_client_can_open() -> None:
    from rubi.mcp.http_admit import announce

    said: list[str] = []
    announce(plan_http_access("::1", 8765, no_token=True, environ={}), said.append)

    assert any("http://[::1]:8765/mcp" in line for line in said), said
    assert not any("http://::1:" in line for line in said)
