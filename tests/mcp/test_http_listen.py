"""``rubi serve --http`` listens before its HTTP stack is imported
(:mod:`rubi.mcp.http_listen`), starts NumPy's BLAS with one thread and collects no
cycles until its warm-up, as stdio does."""

from __future__ import annotations

import gc
import os
import socket
from pathlib import Path
from typing import Any

import pytest

from rubi.core.errors import RubiError
from rubi.mcp import server as mcp_server
from rubi.mcp.http_admit import plan_http_access
from rubi.mcp.http_listen import listen_early


def test_the_port_accepts_a_connection_before_anything_serves_it() -> None:
    sockets = listen_early("127.0.0.1", 0)
    try:
        assert len(sockets) == 1
        port = sockets[0].getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            client.sendall(b"GET / HTTP/1.1\r\n\r\n")  # waits in the socket, unread
            conn, _ = sockets[0].accept()
            with conn:
                assert conn.recv(64).startswith(b"GET / HTTP/1.1")
    finally:
        for sock in sockets:
            sock.close()


def test_a_taken_port_is_refused_in_one_line_and_nothing_stays_open() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(RubiError, match=f"cannot listen on 127.0.0.1 port {port}"):
            listen_early("127.0.0.1", port)


def test_an_ipv6_loopback_socket_is_v6_only() -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    try:
        sockets = listen_early("::1", 0)
    except RubiError:
        pytest.skip("no IPv6 loopback here")
    try:
        assert [s.family for s in sockets] == [socket.AF_INET6]
        assert sockets[0].getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
    finally:
        for sock in sockets:
            sock.close()


def test_serving_http_starts_one_blas_thread_and_no_collector_until_it_ends(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import rubi.mcp.httpfront as httpfront

    seen: dict[str, Any] = {}

    def run_http(app: Any, access: Any, **kwargs: Any) -> None:
        seen["blas"] = os.environ.get("OPENBLAS_NUM_THREADS")
        seen["sockets"] = kwargs["sockets"]
        seen["collecting"] = gc.isenabled()

    monkeypatch.setattr(httpfront, "run_http", run_http)
    access = plan_http_access("127.0.0.1", 0, no_token=True)
    paths, instructions = mcp_server.open_vault(None, vault=tmp_path)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "")  # restored (removed) after the test
        monkeypatch.delenv(name)
    marker = [socket.socket()]
    try:
        assert gc.isenabled()
        mcp_server._serve_http(paths, access, instructions, marker)
        assert seen == {"blas": "1", "sockets": marker, "collecting": False}
        assert gc.isenabled()  # on again once the server stopped
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
        mcp_server._serve_http(paths, access, instructions, marker)
        assert seen["blas"] == "4"
    finally:
        marker[0].close()


def _localhost_with_ipv6_off(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """``localhost`` resolving to ::1 then 127.0.0.1 on a machine whose IPv6 is off:
    ``how`` is "socket" (no IPv6 sockets at all: EAFNOSUPPORT) or "bind" (an IPv6
    socket, but ::1 not assigned: EADDRNOTAVAIL)."""
    import errno

    def getaddrinfo(host: Any, port: Any, *args: Any) -> list[tuple[Any, ...]]:
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", port, 0, 0)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
        ]

    class NoIpv6Bind(socket.socket):
        def bind(self, address: Any) -> None:
            if self.family == socket.AF_INET6:
                raise OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")
            super().bind(address)

    def make(family: int = socket.AF_INET, *args: Any) -> socket.socket:
        if family == socket.AF_INET6 and how == "socket":
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return NoIpv6Bind(family, *args)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "socket", make)


@pytest.mark.parametrize("how", ["socket", "bind"])
def test_localhost_listens_on_ipv4_when_ipv6_is_off(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _localhost_with_ipv6_off(monkeypatch, how)
    sockets = listen_early("localhost", 0)
    try:
        assert [s.family for s in sockets] == [socket.AF_INET]
        assert sockets[0].getsockname()[0] == "127.0.0.1"
    finally:
        for sock in sockets:
            sock.close()


def test_an_ipv6_host_without_ipv6_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def getaddrinfo(host: Any, port: Any, *args: Any) -> list[tuple[Any, ...]]:
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", port, 0, 0))]

    def make(*args: Any) -> socket.socket:
        raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "socket", make)
    with pytest.raises(RubiError, match="cannot listen on ::1 port 8765"):
        listen_early("::1", 8765)
