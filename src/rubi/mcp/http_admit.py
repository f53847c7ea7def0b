"""Who may reach ``rubi serve --http``, without the MCP SDK: the access plan (bind
address, bearer token), the same-origin rule of a remote bind, and the checks a request
must pass before the HTTP front (:mod:`rubi.mcp.httpfront`) may answer it itself.

The policy is :mod:`rubi.mcp.http_access`'s (its docstring); the SDK's app enforces
it for every request the front does not answer. :func:`front_admits` is the front's
side: it says yes only when every check the SDK's path makes on the request's headers
would pass too (the token, whole and in constant time; the loopback ``Host`` and
``Origin`` rules; the remote same-origin rule; ``Content-Type`` and ``Accept``; the
declared ``Content-Length`` within the body limit), and is stricter where that is
simpler (a header given twice, an empty ``Origin``): a request it refuses is not
refused here but handed to the SDK, which answers it as it always did (401, 403, 421,
413, ...), so a refusal is the SDK's by construction. A test compares its answers with
the SDK's own checks.

Only the stdlib is imported here (the SDK's ``TransportSecuritySettings`` only when
:attr:`HttpAccess.transport_security` is read).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from rubi.core.errors import RubiError
from rubi.core.loopback import is_loopback, loopback_names, url_host
from rubi.mcp.http_token import TOKEN_ENV, resolve_token, token_matches

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

__all__ = [
    "MAX_BODY_BYTES",
    "HttpAccess",
    "accepts_json_and_sse",
    "announce",
    "front_admits",
    "plan_http_access",
    "same_origin",
]

MAX_BODY_BYTES = 4 * 1024 * 1024
"""The SDK's limit on a request body (``DEFAULT_MAX_REQUEST_BODY_SIZE``; a test keeps
them equal): a longer body is the SDK's to refuse (413)."""


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
        from mcp.server.transport_security import TransportSecuritySettings

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


def _default_port(scheme: str) -> int | None:
    return {"http": 80, "https": 443}.get(scheme)


def same_origin(origin: str, host: str) -> bool:
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


def announce(access: HttpAccess, say: Callable[[str], None]) -> None:
    """Tell the user, on stderr, where the server listens and what clients need. The
    token itself is never printed (server logs are often read by others):
    ``rubi serve --show-token`` prints it on demand."""
    url = f"http://{url_host(access.host)}:{access.port}/mcp"
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


def accepts_json_and_sse(accept: str) -> bool:
    """The ``Accept`` header names both JSON and server-sent events (wildcards as
    RFC 9110 reads them), as the SDK's ``check_accept_headers`` reads it: what it asks
    of a POST when it answers in either form."""
    types = {part.strip().split(";")[0].strip().lower() for part in accept.split(",")}
    wild = "*/*" in types
    json_ok = wild or bool(types & {"application/json", "application/*"})
    sse_ok = wild or bool(types & {"text/event-stream", "text/*"})
    return json_ok and sse_ok


def _single(headers: list[tuple[bytes, bytes]]) -> dict[str, str] | None:
    """The headers by lower-case name, decoded as Latin-1 (as Starlette reads them);
    None when a header the checks read is given more than once, or any ``mcp-*``
    header is (first-copy and last-copy readers would disagree: the SDK's to judge)."""
    seen: dict[str, str] = {}
    for raw_name, raw_value in headers:
        name = raw_name.decode("latin-1").lower()
        if name in seen and (name in _CHECKED or name.startswith("mcp-")):
            return None
        seen.setdefault(name, raw_value.decode("latin-1"))
    return seen


_CHECKED = frozenset(
    {"authorization", "host", "origin", "content-type", "accept", "content-length"}
)


def front_admits(access: HttpAccess, scope: Mapping[str, object]) -> dict[str, str] | None:
    """The request's headers (lower-case names) when it is a POST to ``/mcp`` that
    every admission check of the SDK's path would let through (module docstring);
    None otherwise: the SDK's app then answers it, refusals included.

    Args:
        access: the server's access plan.
        scope: the ASGI scope of an HTTP request.
    """
    if scope.get("type") != "http" or scope.get("method") != "POST":
        return None
    if scope.get("path") != "/mcp" or scope.get("root_path", "") != "":
        return None
    raw = scope.get("headers")
    headers = _single(list(raw)) if isinstance(raw, list) else None
    if headers is None:
        return None
    if not _gates(access, headers):
        return None
    if not headers.get("content-type", "").lower().startswith("application/json"):
        return None  # the transport: 400
    if not accepts_json_and_sse(headers.get("accept", "")):
        return None  # 406
    if _declared_over(headers.get("content-length"), MAX_BODY_BYTES):
        return None  # 413 at once, before a byte of the body is read
    return headers


def stream_admits(access: HttpAccess, scope: Mapping[str, object]) -> dict[str, str] | None:
    """The request's headers (lower-case names) when it is a GET to ``/mcp`` that the
    SDK path's gates before its transport would let through (:func:`_gates`: the
    same-origin rule of a remote bind, the bearer token, the loopback Host and Origin
    rules); None otherwise. A GET stream has no body: its ``Accept`` is the
    transport's to judge, when the SDK answers it."""
    if scope.get("type") != "http" or scope.get("method") != "GET":
        return None
    if scope.get("path") != "/mcp" or scope.get("root_path", "") != "":
        return None
    raw = scope.get("headers")
    headers = _single(list(raw)) if isinstance(raw, list) else None
    return headers if headers is not None and _gates(access, headers) else None


def _gates(access: HttpAccess, headers: dict[str, str]) -> bool:
    """Whether the SDK path's gates before its transport let a request with these
    headers through: the same-origin rule of a remote bind (``SameOriginMiddleware``:
    403), the bearer token (401), the loopback Host and Origin rules of its DNS-rebinding
    protection (421 or 403)."""
    host, origin = headers.get("host"), headers.get("origin")
    if access.remote and origin is not None and not same_origin(origin, host or ""):
        return False
    if access.token is not None and not _bearer(headers.get("authorization", ""), access.token):
        return False
    return access.remote or _loopback_names_it(access.host, host, origin)


def _declared_over(length: str | None, limit: int) -> bool:
    """A ``Content-Length`` over ``limit``, as the SDK's body limit reads it (a value
    that is not an integer is not over): the SDK refuses such a request without
    reading its body; the front would wait for all of it first."""
    try:
        return length is not None and int(length) > limit
    except ValueError:
        return False


def _bearer(given: str, token: str) -> bool:
    """``Authorization: Bearer <token>``, the scheme in any case, the token whole."""
    return given.lower().startswith("bearer ") and token_matches(given[7:], token)


def _loopback_names_it(bind: str, host: str | None, origin: str | None) -> bool:
    """The ``Host`` names a loopback name of ``bind`` with a port, and a browser
    ``Origin``, when there is one, an ``http`` origin of such a name (an empty
    ``Origin`` is not, though the SDK lets that one pass)."""
    names = loopback_names(bind)
    if not host or not any(host.startswith(f"{name}:") for name in names):
        return False
    return origin is None or any(origin.startswith(f"http://{name}:") for name in names)
