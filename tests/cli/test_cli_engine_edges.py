"""``rubi search``, ``rubi read`` and hooks through the engine when things go wrong: an
engine that accepts but never answers, one that answers oddly, a closed pipe, Ctrl-C.
Each falls back to the cold path or ends with one line, never a traceback or a long
wait."""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rubi import entry
from rubi.engine import client
from rubi.engine.address import address_for
from rubi.engine.protocol import ACK, LineReader

from helpers import engine_answer

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("runtime")]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a ``.rubi`` vault (empty: only fake engines answer here), the
    current folder."""
    root = tmp_path / "proj"
    (root / ".rubi").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


@contextlib.contextmanager
def fake_engine(project: Path, reply: Callable[[socket.socket], object]) -> Iterator[None]:
    """A listener on the project's engine socket: each connection's request line is
    read, then ``reply`` is called with the connection."""
    address = address_for(str(project / ".rubi"), create=True)
    assert address is not None
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address.socket)
    listener.listen(4)
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                LineReader(conn).line(1 << 24, time.monotonic() + 30)
                reply(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield
    done.set()
    listener.shutdown(socket.SHUT_RDWR)
    listener.close()
    thread.join(5)
    os.unlink(address.socket)


def test_an_engine_that_never_acknowledges_costs_the_ack_timeout(project: Path) -> None:
    """An engine suspended with Ctrl-Z still accepts connections; the command runs cold
    after the short acknowledgement timeout, not the whole reply timeout."""
    release = threading.Event()
    with fake_engine(project, lambda conn: release.wait(30)):
        result = client.cli_via_engine(["search", "x"], ack_timeout_s=0.2, reply_timeout_s=3600.0)
        release.set()
        assert result is None


def test_an_acknowledged_answer_is_read_after_the_ack(project: Path) -> None:
    answer = b'{"ok": true, "stdout": "hit\\n", "stderr": "", "code": 0}\n'
    with fake_engine(project, lambda conn: conn.sendall(ACK + answer)):
        assert client.cli_via_engine(["search", "x"]) == ("hit\n", "", 0)


def test_an_answer_without_an_ack_is_taken(project: Path) -> None:
    """An engine of the same build from before the acknowledgement answers at once."""
    answer = b'{"ok": true, "stdout": "hit\\n", "stderr": "", "code": 3}\n'
    with fake_engine(project, lambda conn: conn.sendall(answer)):
        assert client.cli_via_engine(["search", "x"]) == ("hit\n", "", 3)


@pytest.mark.parametrize(
    "answer",
    [
        b'{"ok": true, "stdout": "hit\\n", "stderr": "", "code": 99999999999}\n',
        b'{"ok": true, "stdout": "hit\\n", "stderr": "", "code": -1}\n',
        b'{"ok": true, "stdout": 5, "stderr": null, "code": 0}\n',
        b'{"ok": true, "stdout": "partial',
        b"\xff not json\n",
        ACK,
        ACK + ACK,
    ],
)
def test_a_strange_answer_runs_cold(project: Path, answer: bytes) -> None:
    with fake_engine(project, lambda conn: conn.sendall(answer)):
        assert client.cli_via_engine(["search", "x"]) is None


def test_line_reader_keeps_what_follows_a_newline() -> None:
    left, right = socket.socketpair()
    with left, right:
        right.sendall(b"one\ntwo\nthr")
        right.sendall(b"ee\n")
        reader = LineReader(left)
        lines = [reader.line(64, time.monotonic() + 30) for _ in range(3)]
    assert lines == [b"one", b"two", b"three"]


class _Stream(io.TextIOWrapper):
    """A UTF-8 text stream over ``raw``, as ``sys.stdout`` is."""

    def __init__(self, raw: io.RawIOBase | io.BufferedIOBase) -> None:
        super().__init__(raw, encoding="utf-8", errors="strict")  # type: ignore[arg-type]


def _stderr() -> tuple[_Stream, io.BytesIO]:
    raw = io.BytesIO()
    return _Stream(raw), raw


def test_a_closed_pipe_is_one_line_as_cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rubi search ... | head``: cold says ``Error: Broken pipe`` with status 1."""
    monkeypatch.setattr(client, "cli_via_engine", lambda *a, **k: ("hits\n", "", 0))
    read_fd, write_fd = os.pipe()
    os.close(read_fd)  # the reader is gone: writing raises BrokenPipeError
    stderr, err = _stderr()
    with open(write_fd, "wb", buffering=0) as raw, _Stream(raw) as stdout:
        assert entry._command(["search", "x"], stdout, stderr) == 1
    assert err.getvalue() == b"Error: Broken pipe\n"


def test_ctrl_c_while_the_engine_works_says_aborted(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(client, "cli_via_engine", interrupted)
    stdout, out = _stderr()
    stderr, err = _stderr()
    assert entry._command(["search", "x"], stdout, stderr) == 1
    assert err.getvalue() == b"\nAborted!\n" and out.getvalue() == b""


def _hook_input(project: Path) -> str:
    return json.dumps({"hook_event_name": "PreToolUse", "cwd": str(project), "tool_name": "x"})


def test_a_hook_waits_for_the_ack_not_the_whole_reply(project: Path) -> None:
    release = threading.Event()
    with fake_engine(project, lambda conn: release.wait(30)):
        result = engine_answer(
            "PreToolUse", _hook_input(project), ack_timeout_s=0.2, reply_timeout_s=3600.0
        )
        release.set()
    assert result is None
    answer = b'{"ok": true, "output": "said"}\n'
    with fake_engine(project, lambda conn: conn.sendall(ACK + answer)):
        assert engine_answer("PreToolUse", _hook_input(project)) == "said"
    with fake_engine(project, lambda conn: conn.sendall(answer)):  # no ack: taken too
        assert engine_answer("PreToolUse", _hook_input(project)) == "said"
