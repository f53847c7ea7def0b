"""The stdio server's warm-up: the vault first (one search as the tool answers it), the
SDK's import after, and never while a tool call is being answered in the greeting; a
call that comes first loads what it needs itself."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from mcp_project import small_project
from rubi.core.paths import VaultPaths
from rubi.mcp import startup
from rubi.mcp.startup import Warmup, one_blas_thread

WAIT_S = 10.0


def test_the_vault_warms_before_the_sdk_loads_and_the_build_waits_for_a_call(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    order: list[str] = []
    inside, warming = threading.Event(), threading.Event()

    def warm(paths: Any) -> None:
        inside.set()
        warming.wait(WAIT_S)
        order.append("warm")

    monkeypatch.setattr(startup, "warm_vault", warm)

    def build(ready: Any) -> Any:
        order.append("build")
        return object()

    warmup = Warmup(VaultPaths(root=tmp_path, index_dir=tmp_path), build, build_after_s=0)
    warmup.start()
    assert inside.wait(WAIT_S)
    with warmup.serving():  # a call arrived in the greeting while the vault warmed
        warming.set()
        warmup.ready()
        assert order == ["warm"]
        assert not warmup.built.wait(0.2)  # the call is answered first
        order.append("call answered")
    assert warmup.built.wait(WAIT_S)
    assert order == ["warm", "call answered", "build"]
    assert warmup.server() is not None


def test_numpy_gets_one_blas_thread_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in startup.BLAS_THREADS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    one_blas_thread()
    assert startup.os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    one_blas_thread()
    assert "OPENBLAS_NUM_THREADS" not in startup.os.environ


def test_the_start_is_told_once_the_vault_is_warm_and_no_call_is_being_answered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    warming = threading.Event()
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warming.wait(WAIT_S))
    inside = threading.Event()
    monkeypatch.setattr(startup, "warm_vault", lambda paths: (inside.set(), warming.wait(WAIT_S)))
    warmup = Warmup(
        VaultPaths(root=tmp_path, index_dir=tmp_path), lambda ready: object(), build_after_s=0
    )
    warmup.start()
    assert inside.wait(WAIT_S)
    with warmup.serving():  # a call came in the greeting
        assert not startup.STARTED.wait(0.2)  # the vault is still warming
        warming.set()
        warmup.ready()
        assert not startup.STARTED.wait(0.2)  # warm, but the call is being answered
    assert startup.STARTED.wait(WAIT_S)
    assert warmup.built.wait(WAIT_S)  # its thread ends here, not in a later test


def test_a_call_before_the_warm_up_began_loads_itself_and_the_warm_up_skips_its_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    searched: list[str] = []
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: searched.append("warm"))
    built = threading.Event()
    warmup = Warmup(
        VaultPaths(root=tmp_path, index_dir=tmp_path),
        lambda ready: built.set() or object(),
        build_after_s=0,
    )
    with warmup.serving():  # the call came first
        warmup.start()
        warmup.ready()  # nothing under way to wait for
        assert not built.wait(0.2)  # the SDK's import waits for the call
    assert warmup.built.wait(WAIT_S)
    assert searched == []  # the call loaded what it needed; nothing searched twice
    assert startup.STARTED.is_set()


def test_a_call_waits_only_for_a_warm_up_search_under_way(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    inside, release = threading.Event(), threading.Event()
    monkeypatch.setattr(startup, "STARTED", threading.Event())  # never the process's own
    monkeypatch.setattr(startup, "warm_vault", lambda paths: (inside.set(), release.wait(WAIT_S)))
    warmup = Warmup(
        VaultPaths(root=tmp_path, index_dir=tmp_path), lambda ready: object(), build_after_s=0
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
    assert warmup.built.wait(WAIT_S)  # its thread ends here, not in a later test


WARMED = """
import sys
from rubi import app
from rubi.mcp.startup import warm_vault
from rubi.sync import vault_sync_for

paths = app.locate(sys.argv[1])
warm_vault(paths)
loaded = {"rubi.app.passageread", "rubi.search.render", "rubi.semantic.dense"}
print(sorted(loaded - set(sys.modules)))
print(vault_sync_for(paths)._code._code_map is not None)
"""


PLAIN = """
import sys
from rubi import app
from rubi.mcp.startup import warm_vault

warm_vault(app.locate(sys.argv[1]))
print("rubi.app.passageread" in sys.modules, "rubi.search.render" in sys.modules)
"""


@pytest.mark.slow
def test_a_plain_vault_s_warm_up_loads_no_code_reader(tmp_path: Path) -> None:
    """No code in a plain vault: its searches never name code symbols, and the note
    reader's module (markdown-it, YAML) stays unloaded."""
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
    code symbols from the code map, read through the note reader."""
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


def test_the_sdk_is_built_when_a_message_needs_it_or_a_while_after_the_first_answers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The greeting answers the handshake, the lists and plain calls without the SDK:
    its import (0.6-0.8 s of CPU) waits for a message that needs it, or until the
    session's busy first seconds are over."""
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: None)
    paths = VaultPaths(root=tmp_path, index_dir=tmp_path)
    asked = Warmup(paths, lambda ready: "server", build_after_s=3600).start()
    assert startup.STARTED.wait(WAIT_S)
    assert not asked.built.wait(0.3)  # nothing needs it yet
    assert asked.server() == "server"  # a message the greeting cannot answer
    unasked = Warmup(paths, lambda ready: "server", build_after_s=0.1).start()
    assert unasked.built.wait(WAIT_S)
