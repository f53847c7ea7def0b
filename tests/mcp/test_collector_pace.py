"""The cyclic collector's pace in ``rubi serve``: young collections every
``RESIDENT_YOUNG`` allocations, not CPython's 700 (a search allocates hundreds of
thousands of short-lived containers)."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi.core.collector import (
    RESIDENT_YOUNG,
    pause_collector,
    resident_collector,
    resume_collector,
)
from rubi.core.paths import VaultPaths
from rubi.mcp import server, startup

from helpers import write

WAIT_S = 10.0


@pytest.fixture
def threshold() -> Iterator[None]:
    kept = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*kept)


@pytest.mark.usefixtures("threshold")
def test_a_resident_process_collects_its_young_generation_less_often() -> None:
    gc.set_threshold(700, 10, 10)
    resident_collector()
    assert gc.get_threshold() == (RESIDENT_YOUNG, 10, 10)


@pytest.mark.usefixtures("threshold")
@pytest.mark.parametrize("chosen", [0, RESIDENT_YOUNG * 5])
def test_a_slower_pace_chosen_already_is_kept(chosen: int) -> None:
    gc.set_threshold(chosen, 7, 9)
    resident_collector()
    assert gc.get_threshold() == (chosen, 7, 9)


@pytest.mark.usefixtures("threshold")
def test_serve_sets_the_pace_before_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = tmp_path / "vault"
    write(vault / "note.md", "# Note\n\nText.\n")
    gc.set_threshold(700, 10, 10)
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(startup, "serve_stdio", lambda *a, **k: seen.append(gc.get_threshold()))
    server.serve(vault=vault)
    assert seen == [(RESIDENT_YOUNG, 10, 10)]


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The collector on at the start, and as it was after the test."""
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        resume_collector()
        (gc.enable if was else gc.disable)()


@pytest.mark.usefixtures("collector_on")
def test_a_paused_collector_is_resumed_and_one_turned_off_by_the_user_stays_off() -> None:
    pause_collector()
    assert not gc.isenabled()
    resume_collector()
    assert gc.isenabled()
    resume_collector()  # twice: nothing more
    assert gc.isenabled()
    gc.disable()  # the user's (or the process's) choice
    pause_collector()
    resume_collector()
    assert not gc.isenabled()


def _warmup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **kwargs: float) -> startup.Warmup:
    for name in ("STARTED", "QUIET", "UNASKED", "WATCH_WANTED"):
        monkeypatch.setattr(startup, name, threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: None)
    return startup.Warmup(
        VaultPaths(root=tmp_path, index_dir=tmp_path), lambda ready: object(), **kwargs
    )


@pytest.mark.usefixtures("collector_on")
def test_a_starting_server_collects_from_its_first_idle_spell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warmup = _warmup(tmp_path, monkeypatch, idle_s=0.3, unasked_after_s=3600)
    pause_collector()
    warmup.start()
    try:
        for _ in range(3):  # the session's hooks, without a pause
            with warmup.serving():
                time.sleep(0.05)
            assert not gc.isenabled()
        assert startup.QUIET.wait(WAIT_S)
        assert gc.isenabled()
        assert startup.WATCH_WANTED.is_set()  # the background watch may start now
    finally:
        warmup.stop()


@pytest.mark.usefixtures("collector_on")
def test_a_server_that_ends_before_an_idle_spell_leaves_the_collector_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warmup = _warmup(tmp_path, monkeypatch, idle_s=3600, unasked_after_s=3600)
    pause_collector()
    warmup.start()
    with warmup.serving():
        time.sleep(0.05)
    assert startup.STARTED.wait(WAIT_S)
    warmup.stop()
    assert not startup.QUIET.is_set()
    assert not startup.WATCH_WANTED.is_set()  # a short session's server never watched
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_calls_without_a_pause_get_the_collector_back_after_a_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warmup = _warmup(tmp_path, monkeypatch, idle_s=3600, collect_after_s=0.4)
    pause_collector()
    warmup.start()
    try:
        with warmup.serving():
            time.sleep(0.1)
        assert not gc.isenabled()
        deadline = time.monotonic() + WAIT_S
        while not gc.isenabled() and time.monotonic() < deadline:
            with warmup.serving():  # calls keep coming: no idle spell
                time.sleep(0.05)
        assert gc.isenabled()
        assert not startup.QUIET.is_set()
    finally:
        warmup.stop()


@pytest.mark.usefixtures("collector_on")
def test_a_bare_rubi_serve_collects_nothing_from_its_start_to_its_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Turned back on as it ends, the collector walked everything the session had
    allocated (the young generation) at the exit's last allocations."""
    from rubi.cli import servebare, serverun
    from rubi.core import quickexit

    seen: list[bool] = []
    monkeypatch.setattr(serverun, "run_serve", lambda options: seen.append(gc.isenabled()))
    monkeypatch.setattr(quickexit, "leave", lambda status: None)
    monkeypatch.setattr(servebare, "_keep_dataclass_code", lambda: None)
    monkeypatch.setattr(servebare, "_log_warnings", lambda: None)
    with pytest.raises(SystemExit):
        servebare.serve_bare()
    assert seen == [False]
    assert not gc.isenabled()  # the process exits next (the fixture turns it on)
