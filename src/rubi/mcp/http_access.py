"""Who may reach ``rubi serve --http``: the bind address, the bearer token and the
Host/Origin checks.

The MCP server can write notes into the project vault, so anything that can reach
its HTTP port can change the project's memory. The policy:

* **Loopback** (``127.0.0.0/8``, ``::1``, ``localhost``): the MCP library's
  DNS-rebinding protection (:class:`~mcp.server.transport_security.TransportSecuritySettings`):
  the ``Host`` header must name a loopback address (else 421) and a browser ``Origin``
  must be a loopback origin (else 403). A bearer token is optional: required when
  ``RUBI_HTTP_TOKEN`` is set.
* **Any other address** needs an explicit ``allow_remote`` (``--allow-remote``) and
  always a bearer token: ``RUBI_HTTP_TOKEN``, or one made with
  :func:`secrets.token_urlsafe` and printed once to stderr. The ``Host`` header is not
  checked (the names a remote server is reached by are not known in advance, and a
  DNS-rebinding page cannot know the token), but a browser ``Origin`` that is not the
  server's own (scheme and ``Host`` of the request) is refused with 403. Requests
  without ``Origin`` (CLI clients, other programs) pass with the token.

The token is checked by the MCP library's bearer middleware (401 with a
``WWW-Authenticate`` header when it is missing or wrong) through
:class:`StaticTokenVerifier`, which compares in constant time
(:func:`hmac.compare_digest`). The token authenticates; it does not encrypt: plain
HTTP across an untrusted network needs a TLS proxy or an SSH tunnel.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import re
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from rubi.core.errors import RubiError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = [
    "MIN_TOKEN_LENGTH",
    "TOKEN_ENV",
    "HttpAccess",
    "SameOriginMiddleware",
    "StaticTokenVerifier",
    "announce",
    "bearer_auth",
    "http_app",
    "is_loopback",
    "plan_http_access",
    "run_http",
]

TOKEN_ENV = "RUBI_HTTP_TOKEN"
"""Environment variable holding the bearer token HTTP clients must send."""
MIN_TOKEN_LENGTH = 16
"""Shortest token accepted from ``RUBI_HTTP_TOKEN`` (a generated one has 43 characters)."""

_TOKEN_CHARS = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
"""RFC 6750 ``b64token``: what may follow ``Bearer `` in an Authorization header."""
_CLIENT_ID = "rubi-http-token"
_LOOPBACK_NAMES = frozenset({"localhost"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an IP literal or a name) only listens on this machine.

    ``localhost`` and addresses in ``127.0.0.0/8`` or ``::1`` are loopback; any other
    name is not (it is not resolved: a name can point anywhere), nor are the wildcard
    addresses ``0.0.0.0`` and ``::``.
    """
    name = host.strip().lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class HttpAccess:
    """How one HTTP server admits requests.

    Attributes:
        host: the bind address, as given.
        port: the TCP port.
        remote: ``host`` is not loopback (the Origin check is rubi's own then).
        token: the bearer token every request must carry, or None (loopback only).
        token_generated: ``token`` was made here (and printed once), not read from
            ``RUBI_HTTP_TOKEN``.
    """

    host: str
    port: int
    remote: bool
    token: str | None
    token_generated: bool = False

    @property
    def transport_security(self) -> TransportSecuritySettings:
        """The MCP library's Host/Origin settings: on for loopback (its own defaults
        plus ``host``), off for a remote bind (where :class:`SameOriginMiddleware`
        checks the Origin and the token stands in for the Host check)."""
        if self.remote:
            return TransportSecuritySettings(enable_dns_rebinding_protection=False)
        name = self.host.strip("[]")
        netloc = f"[{name}]" if ":" in name else name
        hosts = ["127.0.0.1", "localhost", "[::1]", netloc]
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[f"{h}:*" for h in dict.fromkeys(hosts)],
            allowed_origins=[f"http://{h}:*" for h in dict.fromkeys(hosts)],
        )


def _check_token(token: str) -> str:
    if len(token) < MIN_TOKEN_LENGTH:
        raise RubiError(
            f"{TOKEN_ENV} is {len(token)} characters long: use at least {MIN_TOKEN_LENGTH} "
            "random ones (python -c 'import secrets; print(secrets.token_urlsafe(32))'), "
            "or unset it"
        )
    if not _TOKEN_CHARS.fullmatch(token):
        raise RubiError(
            f"{TOKEN_ENV} holds characters a bearer token cannot carry: use letters, digits "
            "and - . _ ~ + / only (python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    return token


def plan_http_access(
    host: str,
    port: int,
    *,
    allow_remote: bool = False,
    environ: Mapping[str, str] | None = None,
) -> HttpAccess:
    """Decide how the HTTP server at ``host:port`` admits requests (module docstring).

    Args:
        host: the bind address (``--host``).
        port: the TCP port (``--port``).
        allow_remote: the user asked for a non-loopback bind (``--allow-remote``).
        environ: where ``RUBI_HTTP_TOKEN`` is read (default :data:`os.environ`).

    Returns:
        The access plan; a remote bind without ``RUBI_HTTP_TOKEN`` gets a generated
        token (``token_generated``).

    Raises:
        RubiError: a non-loopback ``host`` without ``allow_remote``, or a
            ``RUBI_HTTP_TOKEN`` that is set but too short or not a bearer token.
    """
    env = os.environ if environ is None else environ
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise RubiError(
            f"--host {host} is not a loopback address: anyone who can reach it could read "
            "and change this project's memory; add --allow-remote to serve it with a "
            f"bearer token ({TOKEN_ENV} or a generated one)"
        )
    raw = env.get(TOKEN_ENV)
    token = _check_token(raw) if raw is not None and raw != "" else None
    if token is None and remote:
        return HttpAccess(host, port, remote, secrets.token_urlsafe(32), token_generated=True)
    return HttpAccess(host, port, remote, token)


class StaticTokenVerifier:
    """The MCP library's ``TokenVerifier`` for one shared secret, compared in constant
    time (:func:`hmac.compare_digest`, on UTF-8 bytes so any header text compares)."""

    def __init__(self, token: str) -> None:
        self._expected = token.encode("utf-8")

    async def verify_token(self, token: str) -> AccessToken | None:
        """The access grant for the right token, None for any other."""
        given = token.encode("utf-8", "surrogatepass")
        if not hmac.compare_digest(given, self._expected):
            return None
        return AccessToken(token=token, client_id=_CLIENT_ID, scopes=[])


def bearer_auth(token: str | None) -> tuple[StaticTokenVerifier | None, AuthSettings | None]:
    """What :class:`~mcp.server.mcpserver.MCPServer` takes to require ``token``
    (``token_verifier=``, ``auth=``); ``(None, None)`` without a token.

    ``AuthSettings`` asks for an OAuth issuer URL; with no authorization server and no
    ``resource_server_url`` the library only uses the verifier, so a placeholder is
    given.
    """
    if token is None:
        return None, None
    settings = AuthSettings(issuer_url=AnyHttpUrl("http://127.0.0.1"), resource_server_url=None)
    return StaticTokenVerifier(token), settings


def _default_port(scheme: str) -> int | None:
    return {"http": 80, "https": 443}.get(scheme)


def _same_origin(origin: str, host: str) -> bool:
    """Whether the browser ``Origin`` names the server the request was sent to."""
    try:
        parts = urlsplit(origin)
        origin_port = parts.port or _default_port(parts.scheme)
        target = urlsplit(f"{parts.scheme}://{host}")
        host_port = target.port or _default_port(parts.scheme)
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and parts.hostname == target.hostname
        and origin_port == host_port
        and not parts.path
        and not parts.query
        and "@" not in parts.netloc
    )


class SameOriginMiddleware:
    """ASGI wrapper for a remote bind: a request whose ``Origin`` is not the server's
    own (same host and port as its ``Host`` header) gets 403; requests without
    ``Origin`` pass. The MCP library's Origin check only knows fixed lists, which a
    server reached by names unknown in advance cannot give."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            if origin is not None and not _same_origin(origin, headers.get("host", "")):
                response = PlainTextResponse("Invalid Origin header", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def http_app(server: MCPServer, access: HttpAccess) -> ASGIApp:
    """The ASGI app serving ``server`` at ``/mcp`` under ``access``.

    ``server`` must have been built with :func:`bearer_auth` of ``access.token`` (see
    :func:`rubi.mcp.server.build_server`), or the token is not required.
    """
    app: ASGIApp = server.streamable_http_app(
        transport_security=access.transport_security, host=access.host
    )
    return SameOriginMiddleware(app) if access.remote else app


def announce(access: HttpAccess, say: Callable[[str], None]) -> None:
    """Tell the user, on stderr, where the server listens and what it needs."""
    url = f"http://{access.host}:{access.port}/mcp"
    if access.remote:
        say(
            f"rubi: serving {url} to other machines over plain HTTP; "
            "across untrusted networks put it behind a TLS proxy or an SSH tunnel"
        )
    if access.token_generated:
        say(f"rubi: bearer token (shown once; set {TOKEN_ENV} to choose it): {access.token}")
    if access.token is not None:
        say('rubi: clients must send the header "Authorization: Bearer <token>"')


def run_http(
    server: MCPServer,
    access: HttpAccess,
    *,
    say: Callable[[str], None] | None = None,
) -> None:
    """Announce ``access`` on stderr, then serve until the process is stopped."""
    import uvicorn

    announce(access, say or (lambda line: print(line, file=sys.stderr, flush=True)))
    config = uvicorn.Config(
        http_app(server, access), host=access.host, port=access.port, log_level="warning"
    )
    uvicorn.Server(config).run()
