"""The stdio server's start: nothing loaded beside the first answers (each call loads
what it needs itself), the start told once they are out; the work no message asked
for (the warm-up search) only once the server has lived a while and is idle, never
while a call is being answered; the SDK built only when a message needs it, and then
at once."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mcp_project import small_project
from rubi.core.paths import VaultPaths
from rubi.mcp import startup
from rubi.mcp.startup import Warmup, one_blas_thread

WAIT_S = 10.0


def _paths(tmp_path: Path) -> VaultPaths:
    return VaultPaths(root=tmp_path, index_dir=tmp_path)


def test_nothing_is_loaded_beside_the_first_answers_and_the_start_is_told_after_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warmed.append("warm"))
    warmup = Warmup(_paths(tmp_path), lambda ready: object(), first_call_wait_s=3600)
    warmup.start()
    with warmup.serving():  # the session's first hook, answered in the greeting
        warmup.ready()  # no warm-up search under way: nothing to wait for
        assert not startup.STARTED.wait(0.3)
    assert startup.STARTED.wait(WAIT_S)
    assert not warmup.built.wait(0.3)
    assert warmed == []  # a short session never pays for the warm-up search
    warmup.stop()  # a server that ends gives up the unasked work
    assert warmup.built.is_set() and warmed == []


def test_the_first_answers_count_as_out_after_a_while_without_a_call(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: None)
    warmup = Warmup(_paths(tmp_path), lambda ready: object(), first_call_wait_s=0.2).start()
    assert startup.STARTED.wait(WAIT_S)
    warmup.stop()


def test_unasked_work_waits_until_the_server_has_lived_a_while_and_is_idle(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    order: list[str] = []
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: order.append("warm"))
    warmup = Warmup(
        _paths(tmp_path),
        lambda ready: order.append("build") or object(),
        unasked_after_s=0.5,
        idle_s=0.4,
    )
    warmup.start()
    for _ in range(8):  # calls keep coming, 0.1 s apart, for longer than 0.5 s
        with warmup.serving():
            time.sleep(0.05)
        time.sleep(0.1)
        assert order == []
    assert warmup.warm.wait(WAIT_S)
    assert order == ["warm"]
    warmup.stop()


def test_the_sdk_is_built_only_when_a_message_needs_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    order: list[str] = []
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: order.append("warm"))
    build = lambda ready: order.append("build") or "server"  # noqa: E731
    warmup = Warmup(_paths(tmp_path), build, unasked_after_s=0.2, idle_s=0.1).start()
    assert warmup.warm.wait(WAIT_S)
    assert not warmup.built.wait(1.0)  # idle, warm, and still no SDK: no message needs it
    assert order == ["warm"]
    assert warmup.server() == "server"  # a register call, say
    assert order == ["warm", "build"]


def test_a_server_that_ends_without_needing_the_sdk_never_builds_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    order: list[str] = []
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: order.append("warm"))
    build = lambda ready: order.append("build") or "server"  # noqa: E731
    warmup = Warmup(_paths(tmp_path), build, unasked_after_s=0.2, idle_s=0.1).start()
    assert warmup.warm.wait(WAIT_S)
    warmup.stop()
    assert warmup.built.is_set() and order == ["warm"]


def test_a_message_that_needs_the_sdk_has_it_built_at_once_without_a_warm_up_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    warmed: list[str] = []
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warmed.append("warm"))
    warmup = Warmup(_paths(tmp_path), lambda ready: "server", unasked_after_s=3600).start()
    with warmup.serving():  # a call being answered: the build waits for it
        done = threading.Event()
        threading.Thread(target=lambda: (warmup.server(), done.set()), daemon=True).start()
        assert not done.wait(0.3)
    assert done.wait(WAIT_S)
    assert warmup.server() == "server" and warmed == []
    assert startup.STARTED.is_set()


def test_numpy_gets_one_blas_thread_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in startup.BLAS_THREADS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    one_blas_thread()
    assert startup.os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    one_blas_thread()
    assert "OPENBLAS_NUM_THREADS" not in startup.os.environ


def test_a_call_waits_only_for_a_warm_up_search_under_way(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    inside, release = threading.Event(), threading.Event()
    monkeypatch.setattr(startup, "warm_vault", lambda paths: (inside.set(), release.wait(WAIT_S)))
    warmup = Warmup(
        _paths(tmp_path),
        lambda ready: object(),
        unasked_after_s=0,
        idle_s=0,
        first_call_wait_s=0,
    )
    warmup.start()
    assert inside.wait(WAIT_S)
    answered = threading.Event()

    def call() -> None:
        with warmup.serving():
            warmup.ready()
            answered.set()

    threading.Thread(target=call, daemon=True).start()
    assert not answered.wait(0.2)  # the search under way loads what the call needs
    release.set()
    assert answered.wait(WAIT_S)
    warmup.stop()


WARMED = """
import sys
from rubi import app
from rubi.mcp.startup import warm_vault
from rubi.sync import vault_sync_for

paths = app.locate(sys.argv[1])
warm_vault(paths)
loaded = {"rubi.app.codesymbols", "rubi.search.render", "rubi.semantic.dense"}
print(sorted(loaded - set(sys.modules)))
print(vault_sync_for(paths)._code._code_map is not None)
"""


PLAIN = """
import sys
from rubi import app
from rubi.mcp.startup import warm_vault

warm_vault(app.locate(sys.argv[1]))
print("rubi.app.codesymbols" in sys.modules, "rubi.search.render" in sys.modules)
"""


@pytest.mark.slow
def test_a_plain_vault_s_warm_up_loads_no_code_reader(tmp_path: Path) -> None:
    """No code in a plain vault: its searches never name code symbols, and the code
    map's reader stays unloaded."""
    vault = tmp_path / "notes"
    vault.mkdir()
    (vault / "routing.md").write_text("# Routing\n\nPrefix tries route paths.\n")
    done = subprocess.run(
        [sys.executable, "-c", PLAIN, str(vault)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.slow
def test_the_warm_up_loads_what_a_search_answer_reads(tmp_path: Path) -> None:
    """The first call's own search then loads nothing more: the hits' passages name
    code symbols from the code map."""
    project = small_project(tmp_path / "proj")
    done = subprocess.run(
        [sys.executable, "-c", WARMED, str(project / ".rubi")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[]", "True"]


def test_the_catch_up_waits_for_an_idle_spell_after_the_first_answers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Calls without a pause (a short session's hooks) hold the catch-up back; the
    first spell of ``idle_s`` without a call lets it go, long before unasked work."""
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "QUIET", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: None)
    warmup = Warmup(
        _paths(tmp_path), lambda ready: object(), unasked_after_s=3600, idle_s=0.4
    ).start()
    for _ in range(6):  # calls 0.1 s apart for 0.6 s: never idle 0.4 s
        with warmup.serving():
            time.sleep(0.02)
        time.sleep(0.1)
        assert not startup.QUIET.is_set()
    assert startup.STARTED.is_set()
    assert startup.QUIET.wait(WAIT_S)
    assert not warmup.built.is_set()  # unasked work still waits
    warmup.stop()


def test_a_server_that_ends_without_an_idle_spell_never_catches_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "QUIET", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: None)
    warmup = Warmup(_paths(tmp_path), lambda ready: object(), idle_s=3600).start()
    with warmup.serving():
        pass
    assert startup.STARTED.wait(WAIT_S)
    warmup.stop()
    assert not startup.QUIET.is_set()


def test_the_wait_for_the_first_answers_sleeps_until_a_call_ends(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Before the first answers are out the thread wakes when a call ends (or its
    deadline comes), not every 0.1 s as it did (counted through its wait)."""
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: None)
    waits: list[float | None] = []
    real = Warmup._wait

    def counting(self: Warmup, due: float | None) -> None:
        waits.append(due)
        real(self, due)

    monkeypatch.setattr(Warmup, "_wait", counting)
    warmup = Warmup(_paths(tmp_path), lambda ready: object(), first_call_wait_s=3600).start()
    try:
        time.sleep(0.5)  # five of the old 0.1 s waits
        assert len(waits) <= 1 and not startup.STARTED.is_set()
        with warmup.serving():
            pass
        assert startup.STARTED.wait(WAIT_S)  # the first call's end moved it on
    finally:
        warmup.stop()


class _CallAtUnasked:
    """A stand-in for :data:`startup.UNASKED` whose ``set`` has a client call arrive at
    that very moment (the warm-up has decided to search, its search not begun) and
    gives it up to 0.5 s to get past ``ready()`` before the warm-up goes on."""

    def __init__(self, call: threading.Thread) -> None:
        self._call = call

    def set(self) -> None:
        self._call.start()
        self._call.join(0.5)

    def is_set(self) -> bool:
        return self._call.ident is not None


def test_a_call_arriving_as_the_warm_up_begins_waits_for_its_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 29: the warm-up thread decided to search under the call lock but took the
    search's lock only after releasing it, so a call arriving between ran beside the
    warm-up's search (two searches loading side by side, the shared readers swapped
    under the call); the decision and the search's lock are now taken together."""
    order: list[str] = []

    def call() -> None:
        with warmup.serving():
            warmup.ready()
            order.append("call")

    monkeypatch.setattr(startup, "UNASKED", _CallAtUnasked(threading.Thread(target=call)))
    monkeypatch.setattr(startup, "warm_vault", lambda paths: order.append("warm"))
    warmup = Warmup(
        _paths(tmp_path),
        lambda ready: object(),
        unasked_after_s=0,
        idle_s=0,
        first_call_wait_s=0,
    )
    warmup.start()
    assert warmup.warm.wait(WAIT_S)
    deadline = time.monotonic() + WAIT_S
    while len(order) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert order == ["warm", "call"]
    warmup.stop()
