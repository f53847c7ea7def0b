"""``rubi serve`` ended by ``SIGTERM`` or ``SIGHUP`` (its process group killed, the
terminal closed under a running agent) stops cleanly before it ends by that signal,
and ``rubi watch`` on ``SIGHUP`` as on ``SIGTERM``: the engine's socket file is
removed and its lock released, with no traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rubi.engine import sockets
from rubi.engine.address import address_for

from helpers import login_project

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.usefixtures("runtime"),
    pytest.mark.skipif(os.name != "posix", reason="SIGTERM, SIGHUP, engines: POSIX"),
]


def _address(root: Path) -> tuple[str, str]:
    address = address_for(os.path.realpath(root / ".rubi"), create=True)
    assert address is not None
    return address.socket, address.lock


def _wait_for(path: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"{path}: not within {seconds} s"
        time.sleep(0.05)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_terminated_server_removes_its_socket_and_ends_by_the_signal(
    tmp_path: Path, signum: int
) -> None:
    root = login_project(tmp_path / "proj")
    sock, lock = _address(root)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from rubi.entry import main; main()", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    hello = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    try:
        proc.stdin.write(json.dumps(hello) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 0
        _wait_for(sock)
        proc.send_signal(signum)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        errors = proc.stderr.read()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    assert code == -signum, errors
    assert "Traceback" not in errors, errors
    assert not os.path.exists(sock)
    fd = sockets.try_lock(lock)
    assert fd is not None, "the engine's lock is still held"
    os.close(fd)


def test_a_watcher_whose_terminal_closed_stops_cleanly(tmp_path: Path) -> None:
    root = login_project(tmp_path / "proj")
    sock, lock = _address(root)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from rubi.entry import main; main()", "watch"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    seen: list[str] = []
    try:
        for line in iter(proc.stderr.readline, ""):
            seen.append(line)
            if "Listening for changes." in line:
                break
        _wait_for(sock)
        proc.send_signal(signal.SIGHUP)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        errors = "".join(seen) + proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    assert code == 0, errors
    assert errors.rstrip().endswith("Stopped."), errors
    assert not os.path.exists(sock)
    fd = sockets.try_lock(lock)
    assert fd is not None, "the engine's lock is still held"
    os.close(fd)
