"""Which requests a loopback-only HTTP server answers: the DNS-rebinding checks that
``rubi serve --http`` (through the MCP library's middleware) and ``rubi view`` share.

A page on an attacker's site can point its own name at ``127.0.0.1`` (DNS rebinding)
and then talk to a local server as if it were same-origin. The browser still sends
the attacker's name in ``Host`` and its page's origin in ``Origin``, so a loopback
server answers only when ``Host`` names a loopback address with a port (else 421) and
an ``Origin``, when present, is ``http://`` one of those names with a port (else 403):
the rule of the MCP library's ``TransportSecuritySettings`` with the lists of
:func:`loopback_names` (see :mod:`rubi.mcp.http_access`).
"""

from __future__ import annotations

import ipaddress

__all__ = ["is_loopback", "loopback_names", "refusal", "url_host"]

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


def loopback_names(bind_host: str) -> list[str]:
    """The ``Host`` names (without port) a loopback server bound to ``bind_host``
    answers to: ``127.0.0.1``, ``localhost``, ``[::1]`` and ``bind_host`` itself
    (bracketed when it is an IPv6 literal), without repeats."""
    return list(dict.fromkeys(["127.0.0.1", "localhost", "[::1]", url_host(bind_host)]))


def url_host(host: str) -> str:
    """``host`` as a URL's authority writes it: an IPv6 literal in brackets (``[::1]``,
    RFC 3986 section 3.2.2), any other name or address as it is."""
    name = host.strip("[]")
    return f"[{name}]" if ":" in name else name


def _with_port(value: str, base: str) -> bool:
    """``value`` is ``base:<port>`` with a decimal port."""
    prefix = base + ":"
    return value.startswith(prefix) and value[len(prefix) :].isdigit()


def refusal(host: str | None, origin: str | None, names: list[str]) -> tuple[int, str] | None:
    """Why a request with these ``Host`` and ``Origin`` headers is refused, or None.

    Args:
        host: the ``Host`` header (None when missing).
        origin: the ``Origin`` header (None when missing: not a cross-site browser
            request, which passes).
        names: the allowed names (:func:`loopback_names`).

    Returns:
        ``(421, "Invalid Host header")``, ``(403, "Invalid Origin header")`` or None.
    """
    if not host or not any(_with_port(host, name) for name in names):
        return 421, "Invalid Host header"
    if origin and not any(_with_port(origin, f"http://{name}") for name in names):
        return 403, "Invalid Origin header"
    return None
