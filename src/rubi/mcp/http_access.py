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

from typing import TYPE_CHECKING

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from pydantic import AnyHttpUrl
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from rubi.core.loopback import is_loopback
from rubi.mcp.http_admit import HttpAccess, announce, plan_http_access, same_origin
from rubi.mcp.http_token import MIN_TOKEN_LENGTH, TOKEN_ENV, token_matches

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

_same_origin = same_origin  # the name the tests have used

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
]

_CLIENT_ID = "rubi-http-token"


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
