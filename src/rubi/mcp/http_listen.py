"""``rubi serve --http``'s listening sockets, opened before the server's imports.

uvicorn binds its port once it has been imported and its event loop runs: about 0.15 s
of CPU after the process began, 50-70 ms of it the HTTP stack's modules (uvicorn, click,
h11, email, multiprocessing). Until then a client's connection is refused, and a
client that retries on a schedule of its own waits for its next try. Listening first
(here, right after the access plan) lets the kernel accept a connection while the
server imports; its request waits in the socket until the server serves it: first
:mod:`rubi.mcp.http_early` (before uvicorn is imported), then uvicorn, which is handed
these sockets (``uvicorn.Server.serve(sockets=...)``) instead of binding its own.

The sockets are the ones uvicorn's own bind makes (asyncio's ``create_server`` of a
host and port): every address ``getaddrinfo`` gives for the host (``localhost`` may
give both 127.0.0.1 and ::1), ``SO_REUSEADDR`` on POSIX, ``IPV6_V6ONLY`` on an IPv6
socket, listening with uvicorn's default backlog. An address whose family this machine
lacks is skipped, as asyncio skips it (a socket it cannot make; a bind refused with
``EADDRNOTAVAIL``, bpo-30945: ``localhost``'s ::1 on a host with IPv6 turned off), so
``localhost`` still listens on 127.0.0.1 there.
"""

from __future__ import annotations

import errno
import os
import socket
import sys

from rubi.core.errors import RubiError

__all__ = ["BACKLOG", "close_all", "listen_early"]

BACKLOG = 2048
"""Connections the kernel queues before the server accepts them (uvicorn's default)."""


def listen_early(host: str, port: int, backlog: int = BACKLOG) -> list[socket.socket]:
    """Bind and listen on every address of ``host`` at TCP ``port``, as asyncio's
    ``loop.create_server(host=host, port=port)`` does (module docstring).

    Args:
        host: the bind address (``--host``: an IP address or a name).
        port: the TCP port (``--port``; 0: one the system picks, per address).
        backlog: the listen queue's length.

    Returns:
        The listening sockets (blocking; the caller closes them, or uvicorn does at its
        shutdown), at least one.

    Raises:
        RubiError: ``host`` does not resolve, an address cannot be bound (the port
            taken, not allowed), or none of its addresses' families is available;
            nothing stays open then.
    """
    try:
        infos = socket.getaddrinfo(
            host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
        )
    except OSError as exc:
        raise RubiError(f"--host {host}: cannot be resolved ({exc})") from None
    sockets: list[socket.socket] = []
    seen: set[tuple[int, object]] = set()
    unavailable: OSError | None = None
    try:
        for family, kind, proto, _, address in infos:
            if (family, address) in seen:
                continue
            seen.add((family, address))
            try:
                sock = socket.socket(family, kind, proto)
            except OSError:
                continue  # a family this machine lacks (asyncio skips it too)
            sockets.append(sock)
            if os.name == "posix" and sys.platform != "cygwin":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRNOTAVAIL:
                    sockets.pop().close()  # the family is not enabled (bpo-30945)
                    unavailable = exc
                    continue
                raise RubiError(
                    f"cannot listen on {host} port {port}: "
                    f"{exc.strerror or exc} (another server there? pass another --port)"
                ) from None
            sock.listen(backlog)
        if not sockets:
            why = unavailable.strerror if unavailable is not None else "no usable address"
            raise RubiError(f"cannot listen on {host} port {port}: {why}")
    except BaseException:
        close_all(sockets)
        raise
    return sockets


def close_all(sockets: list[socket.socket]) -> None:
    """Close ``sockets`` (a server that will not start)."""
    for sock in sockets:
        sock.close()
