"""Who may reach ``rubi serve --http``: the bind address, the bearer token and the
Host/Origin checks.

The MCP server can write notes into the project vault, so anything that can reach
its HTTP port can change the project's memory. Host and Origin checks stop a web page,
not another program: on a shared machine every local user can connect to a loopback
port. So every server requires a bearer token by default (:mod:`rubi.mcp.http_token`:
``RUBI_HTTP_TOKEN``, or the one kept in a 0600 file in the user's state folder). The
policy:

* **Loopback** (``127.0.0.0/8``, ``::1``, ``localhost``): the token, plus the MCP
  library's DNS-rebinding protection
  (:class:`~mcp.server.transport_security.TransportSecuritySettings`): the ``Host``
  header must name a loopback address (else 421) and a browser ``Origin`` must be a
  loopback origin (else 403). ``no_token`` (``--no-token``) drops the token on
  loopback only, with a warning: every local user and process can then use the server.
* **Any other address** needs an explicit ``allow_remote`` (``--allow-remote``) and
  always the token. The ``Host`` header is not checked (the names a remote server is
  reached by are not known in advance, and a DNS-rebinding page cannot know the
  token), but a browser ``Origin`` that is not the server's own (scheme and ``Host`` of
  the request) is refused with 403. Requests without ``Origin`` (CLI clients, other
  programs) pass with the token.

The token is checked by the MCP library's bearer middleware (401 with a
``WWW-Authenticate`` header when it is missing or wrong) through
:class:`StaticTokenVerifier` (:func:`~rubi.mcp.http_token.token_matches`: whole, in
constant time). The scheme name ``Bearer`` is matched in any case, as RFC 9110 wants;
the token itself exactly. Whitespace around a header value is not part of it (RFC 9110
§5.5): the HTTP parser drops it before any check. The token authenticates; it does not
encrypt: plain HTTP across an untrusted network needs a TLS proxy or an SSH tunnel.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
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
from rubi.core.loopback import is_loopback, loopback_names
from rubi.mcp.http_token import MIN_TOKEN_LENGTH, TOKEN_ENV, resolve_token, token_matches

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

_CLIENT_ID = "rubi-http-token"


@dataclass(frozen=True)
class HttpAccess:
    """How one HTTP server admits requests.

    Attributes:
        host: the bind address, as given.
        port: the TCP port.
        remote: ``host`` is not loopback (the Origin check is rubi's own then).
        token: the bearer token every request must carry; None only with ``--no-token``
            on loopback.
        token_file: the file ``token`` is kept in, or None (``RUBI_HTTP_TOKEN``, or no
            token).
        token_created: the token file was made just now.
    """

    host: str
    port: int
    remote: bool
    token: str | None
    token_file: Path | None = None
    token_created: bool = False

    @property
    def transport_security(self) -> TransportSecuritySettings:
        """The MCP library's Host/Origin settings: on for loopback (its own defaults
        plus ``host``), off for a remote bind (where :class:`SameOriginMiddleware`
        checks the Origin and the token stands in for the Host check). The names are
        :func:`rubi.core.loopback.loopback_names`, shared with ``rubi view``."""
        if self.remote:
            return TransportSecuritySettings(enable_dns_rebinding_protection=False)
        hosts = loopback_names(self.host)
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[f"{h}:*" for h in hosts],
            allowed_origins=[f"http://{h}:*" for h in hosts],
        )


def plan_http_access(
    host: str,
    port: int,
    *,
    allow_remote: bool = False,
    no_token: bool = False,
    environ: Mapping[str, str] | None = None,
    token_file: Path | None = None,
) -> HttpAccess:
    """Decide how the HTTP server at ``host:port`` admits requests (module docstring).

    Args:
        host: the bind address (``--host``).
        port: the TCP port (``--port``).
        allow_remote: the user asked for a non-loopback bind (``--allow-remote``).
        no_token: the user asked for no token (``--no-token``; loopback only).
        environ: where ``RUBI_HTTP_TOKEN`` is read (default :data:`os.environ`).
        token_file: where the token is kept when ``RUBI_HTTP_TOKEN`` is not set
            (default :func:`~rubi.mcp.http_token.default_token_file`).

    Returns:
        The access plan: with a token (``RUBI_HTTP_TOKEN``, else the token file's, made
        when missing), or without one for ``no_token``.

    Raises:
        RubiError: a non-loopback ``host`` without ``allow_remote``; ``no_token`` with
            a non-loopback ``host`` or with ``RUBI_HTTP_TOKEN`` set; a bad
            ``RUBI_HTTP_TOKEN`` or token file (see
            :func:`~rubi.mcp.http_token.resolve_token`).
    """
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise RubiError(
            f"--host {host} is not a loopback address: anyone who can reach it could read "
            "and change this project's memory; add --allow-remote to serve it with a "
            "bearer token"
        )
    if no_token:
        if remote:
            raise RubiError(
                f"--no-token is for a loopback --host only: {host} would let anyone who can "
                "reach it read and change this project's memory; drop --no-token"
            )
        if (os.environ if environ is None else environ).get(TOKEN_ENV):
            raise RubiError(f"--no-token and {TOKEN_ENV} contradict each other: drop one")
        return HttpAccess(host, port, remote, None)
    token, path, created = resolve_token(environ, token_file)
    return HttpAccess(host, port, remote, token, token_file=path, token_created=created)


class StaticTokenVerifier:
    """The MCP library's ``TokenVerifier`` for one shared secret, matched whole and in
    constant time (:func:`~rubi.mcp.http_token.token_matches`)."""

    def __init__(self, token: str) -> None:
        self._expected = token

    async def verify_token(self, token: str) -> AccessToken | None:
        """The access grant for the right token, None for any other."""
        if not token_matches(token, self._expected):
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
    """Tell the user, on stderr, where the server listens and what clients need. The
    token itself is never printed (server logs are often read by others):
    ``rubi serve --show-token`` prints it on demand."""
    url = f"http://{access.host}:{access.port}/mcp"
    if access.remote:
        say(
            f"rubi: serving {url} to other machines over plain HTTP; "
            "across untrusted networks put it behind a TLS proxy or an SSH tunnel"
        )
    if access.token is None:
        say(
            f"rubi: warning: --no-token: every user and program on this machine can search, "
            f"read and change this project's memory through {url}"
        )
        return
    if access.token_created:
        say(f"rubi: made a new bearer token in {access.token_file} (readable by you alone)")
    if access.token_file is None:
        say(f'rubi: clients of {url} must send the header "Authorization: Bearer ${TOKEN_ENV}"')
        return
    say(
        f'rubi: clients of {url} must send the header "Authorization: Bearer '
        f'$(rubi serve --show-token)" (the token kept in {access.token_file})'
    )


def run_http(
    server: MCPServer,
    access: HttpAccess,
    *,
    say: Callable[[str], None] | None = None,
    listening: Callable[[], None] | None = None,
) -> None:
    """Announce ``access`` on stderr, then serve until the process is stopped;
    ``listening`` is called once the port accepts connections (not when it could not
    be bound)."""
    import uvicorn

    announce(access, say or (lambda line: print(line, file=sys.stderr, flush=True)))
    config = uvicorn.Config(
        http_app(server, access), host=access.host, port=access.port, log_level="warning"
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if listening is not None and self.started:
                listening()

    Server(config).run()
