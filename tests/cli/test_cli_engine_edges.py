"""``rubi search``, ``rubi read`` and hooks through the engine when things go wrong: an
engine that accepts but never answers, one that answers oddly, an error in the engine,
Ctrl-C. Each falls back to the cold path or ends with one line, never a traceback or a
long wait."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.engineroute import answered
from rubi.cli.main import cli
from rubi.core.commandcalls import Answer, SearchArgs
from rubi.core.errors import RubiError
from rubi.core.paths import find_vault
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


def call(project: Path, **kwargs: float) -> dict[str, object] | None:
    """A ``rubi search x`` call to the project's engine."""
    args = SearchArgs("x").wire()
    return client.call_via_engine([str(project / ".rubi"), str(project)], "search", args, **kwargs)


def test_an_engine_that_never_acknowledges_costs_the_ack_timeout(project: Path) -> None:
    """An engine suspended with Ctrl-Z still accepts connections; the command answers
    itself after the short acknowledgement timeout, not the whole reply timeout."""
    release = threading.Event()
    with fake_engine(project, lambda conn: release.wait(30)):
        result = call(project, ack_timeout_s=0.2, reply_timeout_s=3600.0)
        release.set()
        assert result is None


ANSWER = b'{"ok": true, "answer": {"text": "hit"}}\n'


def test_an_acknowledged_answer_is_read_after_the_ack(project: Path) -> None:
    with fake_engine(project, lambda conn: conn.sendall(ACK + ANSWER)):
        assert call(project) == {"ok": True, "answer": {"text": "hit"}}


def test_an_answer_without_an_ack_is_taken(project: Path) -> None:
    """An engine of the same build from before the acknowledgement answers at once."""
    with fake_engine(project, lambda conn: conn.sendall(ANSWER)):
        assert call(project) == {"ok": True, "answer": {"text": "hit"}}


@pytest.mark.parametrize(
    "answer",
    [
        b'{"ok": true, "answer": {"text": 5}}\n',
        b'{"ok": true, "answer": {"text": "a", "json": 1}}\n',
        b'{"ok": true, "answer": null}\n',
        b'{"ok": true}\n',
        b'{"ok": true, "error": {"kind": "crash", "message": "x"}}\n',
        b'{"ok": true, "error": {"kind": "error", "message": 5}}\n',
        b'{"ok": false, "error": "busy"}\n',
        b'{"ok": true, "answer": {"text": "partial',
        b"\xff not json\n",
        ACK,
        ACK + ACK,
    ],
)
def test_a_strange_answer_is_answered_here(
    project: Path, answer: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anything but an answer or an error of the command's shape: the command answers
    itself (and prints what it finds)."""
    paths = find_vault(None, project)
    here = Answer(False, "answered here")
    with fake_engine(project, lambda conn: conn.sendall(answer)):
        assert answered(paths, SearchArgs("x"), lambda: here) is here


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        ({"kind": "error", "message": "bad day"}, RubiError),
        ({"kind": "usage", "message": "no"}, ValueError),
    ],
)
def test_an_error_the_engine_saw_is_raised_here(
    project: Path, error: dict[str, str], kind: type[Exception]
) -> None:
    """The command's error handler shows the engine's error as its own (same line,
    same status): the engine sends it as data and the route raises it again."""
    line = json.dumps({"ok": True, "error": error}).encode() + b"\n"
    paths = find_vault(None, project)
    engine = fake_engine(project, lambda conn: conn.sendall(ACK + line))
    with engine, pytest.raises(kind, match=error["message"]) as raised:
        answered(paths, SearchArgs("x"), lambda: Answer(False, "here"))
    assert type(raised.value) is kind


def test_line_reader_keeps_what_follows_a_newline() -> None:
    left, right = socket.socketpair()
    with left, right:
        right.sendall(b"one\ntwo\nthr")
        right.sendall(b"ee\n")
        reader = LineReader(left)
        lines = [reader.line(64, time.monotonic() + 30) for _ in range(3)]
    assert lines == [b"one", b"two", b"three"]


def test_ctrl_c_while_the_engine_works_says_aborted(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the engine works stops the command as cold: ``Aborted!``, status
    130."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(client, "call_via_engine", interrupted)
    result = CliRunner().invoke(cli, ["search", "x"])
    assert result.exit_code == 130 and "Aborted!" in result.output


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
