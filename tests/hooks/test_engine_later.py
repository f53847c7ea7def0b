"""A stdio ``rubi serve`` starts its engine once the session is past its first seconds
(:mod:`rubi.engine.later`): when its background watch may start, or after a while; a
session that ends first never starts it, nor imports the engine's modules."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rubi.core.latch import Latch
from rubi.core.paths import VaultPaths
from rubi.engine import later, server

pytestmark = pytest.mark.timeout(60)


class Calls:
    """A stand-in for :func:`rubi.engine.server.running`: what it was given, and whether
    the block it opened is still open."""

    def __init__(self) -> None:
        self.given: list[tuple[Any, ...]] = []
        self.open = threading.Event()
        self.closed = threading.Event()

    @contextlib.contextmanager
    def running(self, paths: Any, after: Any = None, on_demand: bool = False) -> Iterator[None]:
        self.given.append((paths, after, on_demand))
        self.open.set()
        try:
            yield None
        finally:
            self.closed.set()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    stand_in = Calls()
    monkeypatch.setattr(server, "running", stand_in.running)
    return stand_in


def _paths(tmp_path: Path) -> VaultPaths:
    return VaultPaths(root=tmp_path / ".rubi", index_dir=tmp_path / "index")


def test_a_block_that_ends_before_soon_never_starts_the_engine(
    tmp_path: Path, calls: Calls
) -> None:
    soon, after = Latch(), Latch()
    with later.running_later(_paths(tmp_path), after, soon, 30.0) as thread:
        assert thread is not None
        time.sleep(0.05)
    thread.join(2.0)
    assert not thread.is_alive()  # the stop woke it: no 30 s wait
    assert calls.given == []
    soon.set()
    time.sleep(0.05)
    assert calls.given == []  # nor once the block has ended


def test_soon_starts_the_engine_on_demand_and_the_block_s_end_stops_it(
    tmp_path: Path, calls: Calls
) -> None:
    soon, after = Latch(), Latch()
    paths = _paths(tmp_path)
    with later.running_later(paths, after, soon, 30.0):
        assert not calls.open.wait(0.05)
        soon.set()
        assert calls.open.wait(5.0)
        assert calls.given == [(paths, after, True)]
        assert not calls.closed.is_set()
    assert calls.closed.is_set()


def test_the_engine_starts_after_soon_s_without_soon(tmp_path: Path, calls: Calls) -> None:
    with later.running_later(_paths(tmp_path), Latch(), Latch(), 0.1):
        assert calls.open.wait(5.0)
    assert calls.closed.is_set()


def test_no_vault_no_thread(calls: Calls) -> None:
    with later.running_later(None, Latch(), Latch(), 0.0) as thread:
        assert thread is None
    assert calls.given == []


def test_an_engine_that_fails_to_start_leaves_the_block_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no engine today")

    monkeypatch.setattr(server, "running", broken)
    soon = Latch()
    soon.set()
    with later.running_later(_paths(tmp_path), Latch(), soon, 30.0) as thread:
        assert thread is not None
        thread.join(5.0)
    assert "could not start" in caplog.text


def test_a_handshake_only_server_never_imports_the_engine(tmp_path: Path) -> None:
    """The module itself imports nothing of the engine's: ``rubi serve`` imports it at
    start."""
    code = (
        "import sys\nimport rubi.engine.later\n"
        "print(sorted(m for m in sys.modules if m in "
        "('rubi.engine.server', 'socket', 'selectors', 'rubi.engine.warmup')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_an_http_server_starts_its_engine_once_its_warm_up_is_done_loading_at_once(
    tmp_path: Path, calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over HTTP nothing of the engine runs before the port listens: it starts at
    ``STARTED`` (the warm-up after the first answers), then loads without waiting for a
    request (``on_demand`` off)."""
    from rubi.cli import serverun
    from rubi.mcp import startup

    started = Latch()
    monkeypatch.setattr(startup, "STARTED", started)
    paths = _paths(tmp_path)
    with serverun._engine(paths, http=True):
        assert not calls.open.wait(0.1)
        started.set()
        assert calls.open.wait(5.0)
        assert calls.given == [(paths, started, False)]
    assert calls.closed.is_set()
