"""A client never waits on an engine longer than the hook would take cold: an engine
that is slow to acknowledge (starting, busy, stopped) loses a tool hook after about
its cold cost, while the recall, which costs far more cold, waits longer for it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi.engine import client
from rubi.engine.protocol import ACK

from .test_engine import address_of
from helpers import engine_answer

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("runtime")]

ACK_AFTER_S = 0.6
"""The fake engine's delay before it acknowledges: past a tool hook's bound, within
the recall's."""
ANSWER = "from the slow engine"


@pytest.fixture
def slow_engine(project: Path) -> Iterator[list[str]]:
    """A socket at the project's engine address that acknowledges each request
    :data:`ACK_AFTER_S` after it came and, once confirmed, answers :data:`ANSWER`;
    yields the events it answered."""
    path = address_of(project).socket
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(4)
    listener.settimeout(0.2)
    answered: list[str] = []
    stop = threading.Event()

    def handle(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            request = json.loads(conn.makefile("rb").readline())
            time.sleep(ACK_AFTER_S)
            try:
                conn.sendall(ACK)
                if conn.recv(64).strip() != b'{"go": true}':
                    return  # the client left: it runs the hook cold
                answered.append(request["event"])
                conn.sendall(json.dumps({"ok": True, "output": ANSWER}).encode() + b"\n")
            except OSError:
                return

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield answered
    stop.set()
    thread.join(5)
    listener.close()


def test_a_tool_hook_runs_cold_when_the_engine_is_slower_to_take_it_than_its_cold_path(
    project: Path, slow_engine: list[str]
) -> None:
    raw = json.dumps({"session_id": "s-slow", "cwd": str(project), "tool_name": "Grep"})
    started = time.monotonic()
    assert engine_answer("PostToolUse", raw) is None  # cold
    waited = time.monotonic() - started
    assert waited < ACK_AFTER_S
    assert client.SHORT_HOOK_ACK_TIMEOUT_S < ACK_AFTER_S <= client.HOOK_ACK_TIMEOUT_S
    time.sleep(ACK_AFTER_S)  # the engine finds the client gone and runs nothing
    assert slow_engine == []


def test_the_recall_waits_for_a_slow_engine_up_to_what_it_costs_cold(
    project: Path, slow_engine: list[str]
) -> None:
    raw = json.dumps({"session_id": "s-slow", "cwd": str(project), "prompt": "login tokens?"})
    assert engine_answer("UserPromptSubmit", raw) == ANSWER
    assert slow_engine == ["UserPromptSubmit"]
