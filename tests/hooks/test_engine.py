"""The resident engine: hooks answered through it print what the cold path prints,
one engine per vault, stale sockets, hostile requests, and the client's fallback."""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hooks.hookhelpers import transcript
from hooks.test_event import PAYLOADS, RECORDED, recorded
from rubi import app
from rubi.claude.hooks.entry import main as cold_main
from rubi.core.paths import VaultPaths
from rubi.engine import server
from rubi.engine.address import Address, address_for
from rubi.engine.client import hook_request
from rubi.engine.protocol import ENGINE_EVENTS, environment
from rubi.engine.server import Engine, answer
from rubi.entry import _run_hook

from helpers import engine_answer

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("runtime")]


def vault_of(project: Path) -> VaultPaths:
    return app.locate(project / ".rubi")


def address_of(project: Path) -> Address:
    address = address_for(str(project / ".rubi"), create=True)
    assert address is not None
    return address


@pytest.fixture
def engine(project: Path) -> Iterator[Engine]:
    running = Engine(vault_of(project)).start()
    assert running.serving.wait(10) and running.ready.wait(30)
    yield running
    running.stop()


def cold(event: str, raw: str) -> str:
    out = io.StringIO()
    assert cold_main([event], io.StringIO(raw), out) == 0
    return out.getvalue()


def through_entry(event: str, raw: str) -> str:
    """``rubi hook EVENT`` as the console script runs it (engine first, else cold)."""
    out = io.StringIO()
    assert _run_hook([event], io.StringIO(raw), out)[0] == 0
    return out.getvalue()


def send(path: str, data: bytes, timeout_s: float = 10.0) -> list[bytes]:
    """Raw bytes to a socket; the lines of the reply, read to the end."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        sock.connect(path)
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).splitlines()


def request(project: Path, name: str, raw: str, **changes: Any) -> dict[str, Any]:
    return {**hook_request(os.path.realpath(project / ".rubi"), name, raw), **changes}


def session_cases(project: Path, t: Path, big: Path) -> list[tuple[str, str]]:
    """(event, stdin) of a session: the recorded payloads the engine answers, a prompt
    that recalls a note, a guarded read, explorations until Stop asks for notes."""
    cases = []
    for path in sorted(PAYLOADS.glob("*.json")):
        payload = recorded(path.stem, project, t)
        if payload["hook_event_name"].lower() in ENGINE_EVENTS:
            cases.append((payload["hook_event_name"], json.dumps(payload)))
    base = recorded("user_prompt_submit", project, t)
    ask = {**base, "prompt": "when do the login tokens expire? the session drops at midnight"}
    cases.append(("UserPromptSubmit", json.dumps(ask)))
    read = {
        **recorded("pre_tool_use_bash", project, t),
        "tool_name": "Read",
        "tool_input": {"file_path": str(big)},
    }
    cases.append(("PreToolUse", json.dumps(read)))
    small = {**read, "tool_input": {"file_path": str(project / "README.md")}}
    cases += [("PreToolUse", json.dumps(small))] * 6  # reads that go ahead, counted
    explore = {
        **recorded("post_tool_use_bash", project, t),
        "tool_name": "Grep",
        "tool_input": {"pattern": "token"},
    }
    cases += [("PostToolUse", json.dumps(explore))] * 6
    cases.append(("Stop", json.dumps(recorded("stop", project, t))))
    return cases


def twin_session(project: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of ``project`` (indexed) to run the same session on, the recorded
    session's transcript and a 5,000-line log to read: ``(twin, transcript, log)``."""
    twin = tmp_path / "twin" / "proj"
    shutil.copytree(project, twin)
    app.index(vault_of(twin))
    t = transcript(tmp_path, RECORDED)
    big = tmp_path / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    return twin, t, big


def check_twin_session(shown: list[str], project: Path, twin: Path) -> None:
    """The session run on ``project`` and ``twin`` showed a recall, the guard's denial
    and Stop's request for notes (``shown``: the hooks' outputs), logged no hook error
    on either side and left the same session state files on both."""
    assert any("Login tokens expire at midnight UTC" in s for s in shown)  # recall ran
    assert any('"permissionDecision": "deny"' in s for s in shown)  # the guard ran
    assert any('"decision": "block"' in s for s in shown)  # Stop asked for notes
    for side in (project, twin):
        assert not (vault_of(side).index_dir / "hooks.log").exists()
    states = [sorted((vault_of(p).index_dir / "hooks").glob("*.json")) for p in (project, twin)]
    assert [p.name for p in states[0]] == [p.name for p in states[1]] != []
    for a, b in zip(*states, strict=True):
        assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_engine_and_cold_print_the_same(project: Path, tmp_path: Path) -> None:
    """The same session, hook by hook, on two identical projects: cold on one, through
    the engine on the other. Every output and the session state end equal."""
    twin, t, big = twin_session(project, tmp_path)
    running = Engine(vault_of(twin)).start()
    try:
        assert running.serving.wait(10) and running.ready.wait(30)
        shown = []
        for (event, raw_cold), (_, raw_twin) in zip(
            session_cases(project, t, big), session_cases(twin, t, big), strict=True
        ):
            expected = cold(event, raw_cold)
            got = engine_answer(event, raw_twin)
            assert got is not None, f"{event}: the engine did not answer"
            assert got == expected, event
            shown.append(expected)
    finally:
        running.stop()
    check_twin_session(shown, project, twin)


def test_the_console_entry_goes_through_the_engine(project: Path, engine: Engine) -> None:
    raw = json.dumps(
        {
            "session_id": "s1",
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "when do login tokens expire at midnight",
        }
    )
    via = engine_answer("UserPromptSubmit", raw)
    assert via is not None and "Login tokens expire" in via
    assert through_entry("UserPromptSubmit", raw) == via


def test_a_hook_process_imports_no_search_stack(project: Path, engine: Engine) -> None:
    """A hook answered by the engine loads neither Whoosh, networkx, click nor rich, nor
    the stdlib modules its client avoids (typing, socket, hashlib: ~8 ms a hook; pathlib,
    which only the cold path needs)."""
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "login tokens expire"})
    script = (
        "import io, json, sys\n"
        "before = set(sys.modules)\n"
        "from rubi.entry import _run_hook\n"
        "out = io.StringIO()\n"
        "_run_hook(['UserPromptSubmit'], sys.stdin, out)\n"
        "heavy = sorted({m.split('.')[0] for m in set(sys.modules) - before} & "
        "{'whoosh', 'networkx', 'click', 'rich', 'yaml', 'markdown_it', 'typing', 'socket', "
        "'hashlib', '_hashlib', 'pathlib', 'urllib'})\n"
        "print(json.dumps([out.getvalue(), heavy]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=raw,
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
        check=True,
    )
    output, heavy = json.loads(done.stdout)
    assert heavy == []
    assert "Login tokens expire" in output


_LEAVES = """
import atexit, sys
mark = sys.argv[1]
atexit.register(lambda: open(mark + "-atexit", "w").write("ran"))


class TornDown:
    def __del__(self, open=open, mark=mark) -> None:  # runs as the modules are torn down
        open(mark + "-teardown", "w").write("ran")


kept = TornDown()
sys.argv = ["rubi", "hook", "PreToolUse"]
from rubi.entry import main
main()
"""


def test_a_hook_the_engine_answered_leaves_without_the_interpreters_teardown(
    project: Path, engine: Engine, tmp_path: Path
) -> None:
    """The console script's process ends at once once the engine's answer is printed:
    the answer whole, status 0, the ``atexit`` functions run, and no teardown of
    modules (a few ms of CPU a hook, for a process that loaded the client alone)."""
    big = tmp_path / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    read = {"tool_name": "Read", "tool_input": {"file_path": str(big)}}
    raw = json.dumps({"session_id": "s1", "cwd": str(project), **read})
    mark = tmp_path / "mark"
    done = subprocess.run(
        [sys.executable, "-c", _LEAVES, str(mark)],
        input=raw,
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert (tmp_path / "mark-atexit").read_text() == "ran"
    assert not (tmp_path / "mark-teardown").exists()
    assert not (vault_of(project).index_dir / "hooks.log").exists()


def test_a_second_engine_for_the_vault_stands_by_and_takes_over(
    project: Path, engine: Engine
) -> None:
    second = Engine(vault_of(project), standby_s=0.05).start()
    try:
        assert not second.serving.wait(0.5)
        reply = json.loads(
            send(address_of(project).socket, b'{"rubi": "ping", "protocol": 2}\n')[0]
        )
        assert reply["ok"] is True
        engine.stop()
        assert second.serving.wait(10)  # the first engine went away: the second serves
        assert not engine.serving.is_set()
    finally:
        second.stop()


def test_a_stale_socket_means_cold_then_is_replaced(project: Path) -> None:
    address = address_of(project)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(address.socket)
    dead.close()  # the file stays: an engine that died without cleaning up
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "login tokens expire"})
    assert engine_answer("UserPromptSubmit", raw) is None
    assert through_entry("UserPromptSubmit", raw) == cold("UserPromptSubmit", raw)
    running = Engine(vault_of(project)).start()
    try:
        assert running.serving.wait(10) and running.ready.wait(30)
        assert engine_answer("UserPromptSubmit", raw) == cold("UserPromptSubmit", raw)
    finally:
        running.stop()
    assert not os.path.exists(address.socket)  # removed on the way out


def test_a_socket_someone_answers_on_is_left_alone(project: Path) -> None:
    address = address_of(project)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as other:
        other.bind(address.socket)
        other.listen(8)
        before = os.stat(address.socket).st_ino
        running = Engine(vault_of(project), standby_s=0.05).start()
        try:
            assert not running.serving.wait(0.5)
            assert os.stat(address.socket).st_ino == before
        finally:
            running.stop()


def test_an_oversized_request_is_refused_with_one_line(
    project: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "MAX_REQUEST_BYTES", 4096)
    lines = send(address_of(project).socket, b"x" * 10_000)
    assert len(lines) == 1
    reply = json.loads(lines[0])
    assert reply["ok"] is False and "4,096 bytes" in reply["error"]


@pytest.mark.parametrize(
    "line",
    [
        b"not json\n",
        b"[1, 2]\n",
        b'{"rubi": "hook", "protocol": 99}\n',
        b'{"rubi": "shell", "protocol": 2}\n',
        b'{"rubi": "hook", "protocol": 2, "event": ["x"], "input": 3}\n',
        b"\xff\xfe\n",
    ],
)
def test_a_malformed_request_is_refused_with_one_line(
    project: Path, engine: Engine, line: bytes
) -> None:
    lines = send(address_of(project).socket, line)
    assert len(lines) == 1
    assert json.loads(lines[0])["ok"] is False


@pytest.mark.parametrize(
    "changes",
    [
        {"build": "0.0.1 /elsewhere"},
        {"env": {"RUBI_CONTEXT_WINDOW": "1"}},
        {"vault": "/somewhere/else/.rubi"},
        {"event": "PreCompact"},
        {"event": "x" * 100},
        {"input": "{not json"},
    ],
)
def test_a_request_the_engine_would_answer_differently_is_refused(
    project: Path, changes: dict[str, Any]
) -> None:
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "login tokens"})
    if "env" in changes:
        changes = {"env": {**environment(), **changes["env"]}}
    line = json.dumps(request(project, "UserPromptSubmit", raw, **changes)).encode()
    reply = answer(line, os.path.realpath(project / ".rubi"), threading.Lock())
    assert reply["ok"] is False and reply["error"]


def test_a_hook_from_another_project_is_refused(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "other-project"
    elsewhere.mkdir()
    raw = json.dumps({"session_id": "s1", "cwd": str(elsewhere), "prompt": "login tokens"})
    line = json.dumps(request(project, "UserPromptSubmit", raw)).encode()
    reply = answer(line, os.path.realpath(project / ".rubi"), threading.Lock())
    assert reply == {"ok": False, "error": "the hook's folder is not this engine's project"}
    inside = json.dumps({"session_id": "s1", "cwd": str(project / "src"), "prompt": "x"})
    line = json.dumps(request(project, "UserPromptSubmit", inside)).encode()
    assert answer(line, os.path.realpath(project / ".rubi"), threading.Lock())["ok"] is True


def test_json_nested_past_the_recursion_limit_is_refused(project: Path) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    reply = answer(deep, os.path.realpath(project / ".rubi"), threading.Lock())
    assert reply["ok"] is False


def test_the_engine_runs_one_hook_at_a_time_and_says_busy(project: Path) -> None:
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "tool_name": "Grep"})
    line = json.dumps(request(project, "PostToolUse", raw)).encode()
    held = threading.Lock()
    held.acquire()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(server, "HOOK_WAIT_S", 0.05)
            assert answer(line, os.path.realpath(project / ".rubi"), held) == {
                "ok": False,
                "error": "busy",
            }
    finally:
        held.release()
    assert answer(line, os.path.realpath(project / ".rubi"), held)["ok"] is True


def _fake_engine(path: str, behaviour: str) -> threading.Thread:
    """A listener at ``path`` that reads one request and then hangs up, never answers,
    or answers garbage."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def run() -> None:
        conn, _ = listener.accept()
        with conn, listener:
            conn.recv(1 << 20)
            if behaviour == "hang":
                conn.recv(1)  # until the client gives up and closes
            elif behaviour == "garbage":
                conn.sendall(b'{"ok": true, "output": 42}\n')

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("behaviour", ["close", "hang", "garbage"])
def test_the_client_falls_back_when_the_engine_fails_mid_request(
    project: Path, behaviour: str
) -> None:
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "login tokens expire"})
    thread = _fake_engine(address_of(project).socket, behaviour)
    assert engine_answer("UserPromptSubmit", raw, reply_timeout_s=0.5) is None
    thread.join(5)
    expected = cold("UserPromptSubmit", raw)
    assert "Login tokens expire" in expected
    assert through_entry("UserPromptSubmit", raw) == expected


def test_no_engine_for_events_it_does_not_answer_or_payloads_without_cwd(
    project: Path, engine: Engine
) -> None:
    compact = json.dumps({"session_id": "s1", "cwd": str(project), "trigger": "auto"})
    assert engine_answer("PreCompact", compact) is None
    relative = json.dumps({"session_id": "s1", "cwd": "proj", "prompt": "login tokens"})
    assert engine_answer("UserPromptSubmit", relative) is None
    assert engine_answer("UserPromptSubmit", "not json") is None
    named = json.dumps({"cwd": str(project), "hook_event_name": "PostToolUse"})
    assert engine_answer("", named) == ""  # the payload names an event it answers


def test_rubi_engine_off_means_cold(
    project: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = json.dumps({"session_id": "s1", "cwd": str(project), "prompt": "login tokens"})
    monkeypatch.setenv("RUBI_ENGINE", "0")
    assert engine_answer("UserPromptSubmit", raw) is None


def test_a_runtime_folder_others_may_enter_is_not_used(runtime: Path) -> None:
    folder = runtime / "rubi"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    assert address_for(str(runtime), create=True) is None
    folder.chmod(0o700)
    assert address_for(str(runtime), create=True) is not None
