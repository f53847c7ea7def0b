"""A starting engine takes a request only once what it needs is loaded: before, the
engine refuses it unacknowledged and the hook (or command) runs cold in its own process
at once, never in the engine as well; afterwards the engine answers it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.app import commandanswers
from rubi.core.commandcalls import SearchArgs
from rubi.core.latch import Latch
from rubi.engine import server, warmup
from rubi.engine.client import call_via_engine, hook_request
from rubi.engine.protocol import PROTOCOL, build_id, environment
from rubi.engine.server import Engine, Slot, answer
from rubi.engine.warmup import Warmup

from .test_engine import address_of, cold, send
from helpers import engine_answer

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("runtime")]

HOOK = "import sys\nfrom rubi.entry import main\nsys.argv = ['rubi', 'hook', sys.argv[1]]\nmain()\n"
"""``rubi hook EVENT`` as the console script runs it, in a process of its own."""


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Engines started in the test stop in the middle of their warm-up (hook modules
    loaded, the vault's first search not run) until the event is set."""
    gate = threading.Event()

    def prime(paths: Any) -> None:
        gate.wait(60)

    monkeypatch.setattr(warmup, "prime_search", prime)
    yield gate
    gate.set()


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The hooks the engine ran, in order."""
    calls: list[str] = []
    real = server._run_hook

    def spy(event: str, *args: Any) -> str:
        calls.append(event)
        return real(event, *args)

    monkeypatch.setattr(server, "_run_hook", spy)
    return calls


@pytest.fixture
def starting(
    project: Path, held: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Engine]:
    monkeypatch.setattr(commandanswers, "answer_call", _no_commands)
    running = Engine(app.locate(project / ".rubi")).start()
    assert running.serving.wait(10) and running.warmup.hooks.wait(30)
    yield running
    held.set()  # its loading goes on to the end, which the stop waits for
    running.stop()


def _no_commands(*args: Any) -> Any:
    raise AssertionError("the engine ran a command while warming up")


def _hook_process(project: Path, event: str, raw: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", HOOK, event],
        input=raw,
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _ping(project: Path) -> dict[str, Any]:
    reply = json.loads(send(address_of(project).socket, b'{"rubi": "ping", "protocol": 2}\n')[0])
    assert isinstance(reply, dict) and reply["ok"] is True
    return reply


def _prompt(project: Path) -> str:
    return json.dumps(
        {"session_id": "s-warm", "cwd": str(project), "prompt": "when do login tokens expire?"}
    )


def test_a_recall_the_starting_engine_has_not_loaded_runs_cold_in_the_hook_process(
    project: Path, starting: Engine, held: threading.Event, ran: list[str]
) -> None:
    raw = _prompt(project)
    expected = cold("UserPromptSubmit", raw)
    assert "Login tokens expire" in expected
    assert _hook_process(project, "UserPromptSubmit", raw) == expected
    assert ran == []  # refused before any acknowledgement: never run in the engine
    assert _ping(project)["ready"] is False
    held.set()
    assert starting.ready.wait(30)
    assert _ping(project)["ready"] is True
    assert _hook_process(project, "UserPromptSubmit", raw) == expected
    assert ran == ["UserPromptSubmit"]


def test_the_tool_hooks_go_to_the_engine_once_their_modules_are_loaded(
    project: Path, starting: Engine, ran: list[str], tmp_path: Path
) -> None:
    big = tmp_path / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    raw = json.dumps(
        {
            "session_id": "s-warm",
            "cwd": str(project),
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(big)},
        }
    )
    output = _hook_process(project, "PreToolUse", raw)
    assert '"permissionDecision": "deny"' in output
    assert ran == ["PreToolUse"]
    assert not starting.ready.is_set()  # the search is still loading


def test_a_command_the_starting_engine_has_not_loaded_answers_itself(
    project: Path, starting: Engine
) -> None:
    args = SearchArgs("login tokens").wire()
    assert call_via_engine([str(project / ".rubi"), str(project)], "search", args) is None


def test_a_request_before_its_part_is_loaded_is_refused_unacknowledged(project: Path) -> None:
    vault = app.locate(project / ".rubi")
    loading = Warmup(vault)
    acked: list[str] = []

    class Peer:
        def ack(self) -> None:
            acked.append("ack")

        def commit(self) -> bool:
            acked.append("commit")
            return True

    def request(**fields: Any) -> bytes:
        base = {
            "protocol": PROTOCOL,
            "build": build_id(),
            "env": environment(),
            "vault": str(Path(vault.root).resolve()),
        }
        return json.dumps({**base, **fields}).encode()

    vault_path = str(Path(vault.root).resolve())
    hook = json.dumps(hook_request(vault_path, "UserPromptSubmit", _prompt(project))).encode()
    command = request(
        rubi="call",
        paths=[str(vault.root), str(vault.project_root)],
        name="search",
        args=SearchArgs("x").wire(),
    )
    vault_dir = str(Path(vault.root).resolve())
    for line in (hook, command):
        reply = answer(line, vault_dir, Slot(), None, vault, Peer(), loading)  # type: ignore[arg-type]
        assert reply == {"ok": False, "error": "warming up"}
    assert acked == []
    loading.hooks.set()
    reply = answer(hook, vault_dir, Slot(), None, None, Peer(), loading)  # type: ignore[arg-type]
    assert reply == {"ok": False, "error": "warming up"}  # the recall needs the search


def test_an_engine_whose_host_is_starting_loads_nothing_and_every_hook_runs_cold(
    project: Path, ran: list[str]
) -> None:
    """In ``rubi serve`` the engine loads once the MCP server's first answers are out:
    meanwhile it serves its socket, loads nothing beside the server's warm-up, and its
    hooks run cold at once (refused unacknowledged), even those whose modules would
    load in a moment."""
    first_answers = Latch()
    waiting = Engine(app.locate(project / ".rubi"), after=first_answers).start()
    raw = json.dumps({"session_id": "s-warm", "cwd": str(project), "tool_name": "Grep"})
    try:
        assert waiting.serving.wait(10)
        assert engine_answer("PostToolUse", raw) is None  # cold
        assert not waiting.warmup.hooks.wait(0.3)
        assert _ping(project)["ready"] is False
        first_answers.set()
        assert waiting.ready.wait(30)
        assert engine_answer("PostToolUse", raw) == ""  # answered by the engine
        assert ran == ["PostToolUse"]
    finally:
        waiting.stop()


def test_an_engine_whose_host_never_says_it_started_loads_after_a_while(
    project: Path,
) -> None:
    loading = Warmup(
        app.locate(project / ".rubi"),
        prime=lambda paths: None,
        after=Latch(),
        after_wait_s=0.2,
    )
    loading.start()
    assert loading.search.wait(30)


def test_a_stopped_engine_never_loads_what_it_was_still_waiting_to_load(project: Path) -> None:
    """An engine stopped while its loading waits for the host's first answers loads
    nothing afterwards: its thread ends instead of loading the vault into a process
    that no longer serves it."""
    primed: list[object] = []
    loading = Warmup(
        app.locate(project / ".rubi"),
        prime=primed.append,
        after=Latch(),
        after_wait_s=0.5,
    )
    loading.start()
    loading.stop()
    time.sleep(1.0)
    assert primed == []
    assert not loading.hooks.is_set()


def test_a_stopped_engine_s_loading_waiting_for_a_request_ends_at_once(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An on-demand loading no request has asked for sleeps on its demand event (no
    timer); the stop sets it, so a server ending does not wait for the thread."""
    primed: list[object] = []
    loading = Warmup(app.locate(project / ".rubi"), prime=primed.append, on_demand=True)
    loading.start()
    time.sleep(0.2)  # inside its wait for a request
    loading.stop(timeout_s=30)
    assert loading._thread is not None and not loading._thread.is_alive()
    assert primed == [] and not loading.hooks.is_set()


def test_a_stopped_engine_waits_for_its_loading_to_end(
    project: Path, held: threading.Event
) -> None:
    """A first search under way cannot be cut short: the stop waits for it (within its
    timeout), so no loading thread of a stopped engine runs on in the process."""
    engine = Engine(app.locate(project / ".rubi")).start()
    assert engine.serving.wait(10) and engine.warmup.hooks.wait(30)
    threading.Timer(1.0, held.set).start()  # the search under way ends meanwhile
    engine.stop(timeout_s=30)
    assert engine.warmup.search.is_set()
    assert not [t for t in threading.enumerate() if t.name == "rubi-engine-warm"]


def test_an_on_demand_engine_loads_only_once_a_request_needed_it(project: Path) -> None:
    """The engine of ``rubi serve``: its host's first answers are out, yet it loads
    nothing until a request finds what it needs unloaded (that request is refused and
    runs cold); then it loads, and the next one is answered."""
    primed: list[object] = []
    started = Latch()
    started.set()
    loading = Warmup(
        app.locate(project / ".rubi"), prime=primed.append, after=started, on_demand=True
    )
    loading.start()
    try:
        time.sleep(0.5)
        assert not loading.hooks.is_set() and primed == []
        assert loading.ready("hook", "posttooluse") is False  # refused: it runs cold
        assert loading.search.wait(30)
        assert len(primed) == 1 and loading.ready("hook", "posttooluse") is True
    finally:
        loading.stop()


def test_a_stopped_engine_s_thread_ends_and_removes_its_socket_whatever_its_idle_timeout(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping wakes the accept loop with a connection of its own, which is not
    answered as a request (a shutdown of the listening socket ended the loop too, but
    only after ``accept`` spun at full CPU for 0.1-0.2 s: measured, not asserted)."""
    monkeypatch.setattr(server, "IDLE_S", 60.0)
    engine = Engine(app.locate(project / ".rubi")).start()
    assert engine.serving.wait(10)
    engine.stop(timeout_s=5.0)
    assert engine._thread is not None and not engine._thread.is_alive()
    assert not os.path.exists(address_of(project).socket)  # removed on its way out
