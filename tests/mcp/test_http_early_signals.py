"""A signal that comes while ``rubi serve --http``'s early server runs
(:mod:`rubi.mcp.http_early`) stops the server, as it does once uvicorn serves: it is
taken as uvicorn takes it, not raised inside whatever task the event loop runs then
(a task that handles ``SystemExit``, as the SDK's task groups may, kept the process
serving)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from rubi.cli.terminated import Terminated, stopped_by_signals
    from rubi.mcp.http_admit import HttpAccess
    from rubi.mcp.http_listen import listen_early
    from rubi.mcp.httpfront import run_http

    async def swallow(running):  # a task that handles SystemExit, busy on the event loop
        running.set()
        while True:
            try:
                sum(range(100_000))  # where a signal's handler runs, mostly
                await asyncio.sleep(0)
            except SystemExit:
                pass

    async def app(scope, receive, send):
        running = asyncio.Event()
        asyncio.ensure_future(swallow(running))
        await running.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sockets = listen_early("127.0.0.1", 0)
    print(sockets[0].getsockname()[1], flush=True)
    access = HttpAccess("127.0.0.1", 0, False, None)
    try:
        with stopped_by_signals():  # as rubi serve runs it (rubi.cli.serverun)
            run_http(app, access, sockets=sockets, say=lambda line: None,
                     first_answered=lambda hand_over: None)  # early for good
    except Terminated as stop:
        print("terminated", stop.signum, flush=True)
        sys.exit(3)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_the_early_phase_stops_the_server(signum: int) -> None:
    import socket

    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert client.recv(1024).startswith(b"HTTP/1.1 200 ")
        time.sleep(0.2)
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if signum == signal.SIGTERM:
        assert proc.returncode == 3 and "terminated 15" in out
    else:
        assert proc.returncode != 0 and proc.returncode is not None


HANDOVER_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys
    from rubi.cli.terminated import Terminated, stopped_by_signals
    from rubi.mcp import httpfront
    from rubi.mcp.http_admit import HttpAccess
    from rubi.mcp.http_listen import listen_early

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})

    original = httpfront._uvicorn

    def uvicorn_signalled(*args):  # a signal while uvicorn is imported
        server = original(*args)
        os.kill(os.getpid(), signal.SIGTERM)
        return server

    httpfront._uvicorn = uvicorn_signalled
    sockets = listen_early("127.0.0.1", 0)
    access = HttpAccess("127.0.0.1", 0, False, None)
    try:
        with stopped_by_signals():
            httpfront.run_http(app, access, sockets=sockets, say=lambda line: None,
                               first_answered=lambda hand_over: hand_over())
    except Terminated as stop:
        print("terminated", stop.signum, flush=True)
        sys.exit(3)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_a_signal_during_the_hand_over_stops_the_server() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", HANDOVER_SCRIPT],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=30,
        check=False,
    )
    assert proc.returncode == 3 and "terminated 15" in proc.stdout
