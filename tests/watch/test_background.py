"""``rubi serve``'s background watch: the process learns changes from file events,
so a refreshing search finds a new note without scanning the vault."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

import rubi.sync.vaultsync as session_module
from rubi import app
from rubi.cli.servewatch import in_background
from rubi.core.latch import Latch
from rubi.core.paths import VaultPaths
from rubi.sync import vault_sync_for
from rubi.sync.freshness import caught_up
from rubi.vault.scan import VaultListing

from helpers import write


@pytest.mark.timeout(60)
def test_a_watched_process_searches_without_scanning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = tmp_path / "vault"
    write(vault / "alpha.md", "# Alpha\n\nThe first note.\n")
    paths = app.locate(vault)
    app.index(paths)
    with in_background(paths):
        deadline = time.monotonic() + 30
        while not vault_sync_for(paths).watched and time.monotonic() < deadline:
            time.sleep(0.02)
        assert vault_sync_for(paths).watched
        scans: list[Path] = []
        real = session_module.scan_vault

        def counting_scan(root: Path, project: Path | None = None) -> VaultListing:
            scans.append(root)
            return real(root, project)

        monkeypatch.setattr(session_module, "scan_vault", counting_scan)
        write(vault / "beta.md", "# Beta\n\nA zanzibarish word.\n")
        found: list[str] = []
        while time.monotonic() < deadline:
            found = [h.id for h in app.search(paths, "zanzibarish").hits]
            if found:
                break
            time.sleep(0.05)
        assert found == ["beta"]
        assert scans == []  # the watcher read the one changed file; searches never scanned
    assert not vault_sync_for(paths).watched


def test_a_background_watch_given_an_event_starts_once_it_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import rubi.watch as watch_module

    started = threading.Event()

    def fake_watch(vault: object, *, stop_event: threading.Event, **kw: object) -> int:
        started.set()
        stop_event.wait(10)
        return 0

    monkeypatch.setattr(watch_module, "watch", fake_watch)
    after = Latch()
    with in_background(app.locate(tmp_path), after):
        assert not started.wait(0.3)  # the server is still starting: no catch-up yet
        after.set()
        assert started.wait(5)


def test_a_background_watch_stopped_before_its_event_never_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    import rubi.watch as watch_module

    calls: list[object] = []
    monkeypatch.setattr(watch_module, "watch", lambda vault, **kw: calls.append(vault))
    with in_background(app.locate(tmp_path), Latch()) as thread:
        pass
    assert thread is not None
    thread.join(5)
    assert not thread.is_alive() and calls == []


def test_a_server_s_background_watch_defers_the_code_memory_and_rubi_watch_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    import rubi.watch as watch_module

    waits: list[object] = []

    def fake_watch(vault: object, *, stop_event: threading.Event, **kw: object) -> int:
        waits.append(kw.get("prepare_after_s", 0.0))
        return 0

    monkeypatch.setattr(watch_module, "watch", fake_watch)
    after = Latch()
    after.set()
    for event in (after, None):
        with in_background(app.locate(tmp_path), event) as thread:
            assert thread is not None
            thread.join(5)
    assert waits == [watch_module.PREPARE_AFTER_S, 0.0]
    assert watch_module.PREPARE_AFTER_S >= 10  # past a short session's end


def _prepared_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prepare_after_s: float
) -> list[bool]:
    """Whether the code memory was made before the first batch of a scripted watch of
    a project (waiting up to 0.5 s), and once that batch was applied (up to 10 s)."""
    import threading

    import rubi.watch as watch_module

    from helpers import login_project

    project = login_project(tmp_path / "proj")
    paths = app.locate(project / ".rubi")
    made = threading.Event()

    def remember(vault: object) -> bool:
        made.set()
        return True

    monkeypatch.setattr(watch_module.app, "remember_code", remember)
    monkeypatch.setattr(watch_module.app, "import_ahead", lambda: None)
    seen: list[bool] = []

    def changes() -> object:
        seen.append(made.wait(0.5))
        write(project / "src" / "auth.py", "def login():\n    return 1\n")
        yield [(2, str(project / "src" / "auth.py"))]
        seen.append(made.wait(10))

    watch_module.watch(paths, changes=changes(), prepare_after_s=prepare_after_s)  # type: ignore[arg-type]
    return seen


@pytest.mark.timeout(60)
def test_a_deferred_code_memory_is_made_at_the_first_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _prepared_at(tmp_path, monkeypatch, 30.0) == [False, True]


@pytest.mark.timeout(60)
def test_an_undeferred_code_memory_is_made_right_after_the_catch_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _prepared_at(tmp_path, monkeypatch, 0.0) == [True, True]


def _old(root: Path) -> None:
    """Every file under ``root`` saved an hour ago (no edit too near the listing)."""
    import os

    when = time.time_ns() - 3600 * 10**9
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(when, when))


@pytest.mark.parametrize("edited", [False, True], ids=["unchanged", "edited"])
def test_a_server_s_watch_catches_up_only_what_changed_and_watches_from_its_idle_spell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edited: bool
) -> None:
    """Given an ``idle`` event (``rubi serve``), once the first answers are out the
    index is caught up by one run only when something changed since the last index
    run (a new note is then searchable without a watcher); the watcher itself starts
    only at the idle event."""
    paths, runs, started = _served_vault(tmp_path, monkeypatch)
    if edited:
        write(paths.root / "beta.md", "# Beta\n\nA zanzibarish word.\n")
    after, idle = Latch(), Latch()
    after.set()
    with in_background(paths, after, idle):
        assert not started.wait(0.5)  # no watcher before the idle spell
        deadline = time.monotonic() + 20
        while edited and not caught_up(paths) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(runs) == (1 if edited else 0)
        if edited:
            assert [h.id for h in app.search(paths, "zanzibarish", refresh=False).hits] == ["beta"]
        idle.set()
        assert started.wait(5)


def test_a_server_leaves_the_last_session_s_record_to_the_next_refreshing_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session record written or extended since the last index run (every session's
    Stop appends to one) makes no catch-up run at a server's start; a search that
    refreshes indexes it before it answers."""
    paths, runs, started = _served_vault(tmp_path, monkeypatch)
    write(paths.root / "sessions" / "2026-01-02-abc.md", "# Session\n\nA quokkaish turn.\n")
    decided: list[bool] = []
    done = threading.Event()
    real = app.catch_up_if_changed

    def deciding(*args: Any, **kw: Any) -> bool:
        decided.append(real(*args, **kw))
        done.set()
        return decided[-1]

    monkeypatch.setattr(app, "catch_up_if_changed", deciding)
    after, idle = Latch(), Latch()
    after.set()
    with in_background(paths, after, idle):
        assert done.wait(20)
        assert decided == [False]
        assert runs == []
        hits = app.search(paths, "quokkaish", scope="sessions").hits
        assert [h.id for h in hits] == ["sessions/2026-01-02-abc"]
        assert len(runs) == 1
        idle.set()
        assert started.wait(5)


def _served_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[VaultPaths, list[object], threading.Event]:
    """An indexed vault whose files are old, index runs counted, and a watcher that
    only says it started."""
    import rubi.sync as sync_module
    import rubi.watch as watch_module

    vault = tmp_path / "vault"
    write(vault / "alpha.md", "# Alpha\n\nThe first note.\n")
    _old(vault)
    paths = app.locate(vault)
    app.index(paths)
    _old(vault)
    app.index(paths)
    runs: list[object] = []
    real = sync_module.index_vault

    def counting(*args: object, **kw: object) -> object:
        runs.append(args[0])
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(sync_module, "index_vault", counting)
    started = threading.Event()

    def fake_watch(vault: object, *, stop_event: threading.Event, **kw: object) -> int:
        started.set()
        stop_event.wait(10)
        return 0

    monkeypatch.setattr(watch_module, "watch", fake_watch)
    return paths, runs, started


def test_a_background_watch_that_cannot_write_the_index_logs_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:

    import rubi.watch as watch_module
    from rubi.core.errors import RubiError

    vault = tmp_path / "vault"
    write(vault / "alpha.md", "# Alpha\n")
    read_only = RubiError("index.lock: cannot write rubi's index there (read-only)")

    def refused(*args: object, **kwargs: object) -> None:
        raise read_only

    monkeypatch.setattr(app, "catch_up_if_changed", refused)
    monkeypatch.setattr(watch_module, "watch", refused)
    idle = Latch()
    idle.set()
    with (
        caplog.at_level("WARNING", logger="rubi.cli.servewatch"),
        in_background(app.locate(vault), idle=idle) as thread,
    ):
        assert thread is not None
        thread.join(10)
    lines = [(r.getMessage(), r.exc_info) for r in caplog.records]
    assert [exc for _, exc in lines] == [None, None]
    assert all("cannot write rubi's index there" in message for message, _ in lines)


def test_a_server_s_watch_starts_before_its_idle_spell_once_scans_cost_what_watching_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server searched without pause (no idle spell) scans the vault on every search;
    once those scans cost what the watcher's start costs, the watcher starts."""
    import rubi.cli.servewatch as servewatch
    import rubi.core.scancost as scancost

    paths, _, started = _served_vault(tmp_path, monkeypatch)
    scans = scancost.ScanCost()
    monkeypatch.setattr(scancost, "_SCANS", scans)
    after, idle = Latch(), Latch()
    after.set()
    with in_background(paths, after, idle):
        assert not started.wait(0.5)  # no idle spell, scans cheap so far
        scans.add(servewatch.WATCH_AFTER_SCANS_S)  # what the searches' scans paid
        assert started.wait(5)
    assert not idle.is_set()


def test_a_server_searched_without_pause_from_its_start_watches_once_scans_cost_enough(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that never pauses gives the server neither its first idle spell after
    the first answers (``after``) nor a later one (``idle``): the scans' cost alone
    starts the watcher, within the first minute."""
    import rubi.cli.servewatch as servewatch
    import rubi.core.scancost as scancost

    paths, _, started = _served_vault(tmp_path, monkeypatch)
    scans = scancost.ScanCost()
    monkeypatch.setattr(scancost, "_SCANS", scans)
    after, idle = Latch(), Latch()
    with in_background(paths, after, idle):
        assert not started.wait(0.5)  # no idle spell, scans cheap so far
        scans.add(servewatch.WATCH_AFTER_SCANS_S)  # what the searches' scans paid
        assert started.wait(5)
    assert not after.is_set() and not idle.is_set()


def test_a_check_for_changed_files_counts_its_cpu_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.core.scancost as scancost
    import rubi.sync.freshness as freshness

    vault = tmp_path / "vault"
    write(vault / "alpha.md", "# Alpha\n\nThe first note.\n")
    paths = app.locate(vault)
    app.index(paths)
    monkeypatch.setattr(scancost, "_SCANS", scancost.ScanCost())
    assert app.scans_cpu_s() == 0.0
    assert freshness.scans_cpu_s() == 0.0
    freshness.files_unchanged(paths)
    first = freshness.scans_cpu_s()
    assert first > 0.0
    freshness.files_unchanged(paths)
    assert freshness.scans_cpu_s() > first


def test_a_background_watch_waiting_for_its_event_ends_as_soon_as_it_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread sleeps on its ``after`` event and its stop together (no timer): a
    server ending on Claude Code's SIGINT does not wait for it (the client sends
    SIGTERM 100 ms after SIGINT); the thread ends once the ``with`` block is left."""
    import rubi.watch as watch_module

    monkeypatch.setattr(watch_module, "watch", lambda vault, **kw: None)
    with in_background(app.locate(tmp_path), Latch(), Latch()) as thread:
        time.sleep(0.2)  # inside its wait
    assert thread is not None
    thread.join(30)
    assert not thread.is_alive()


def test_a_background_watch_waiting_for_its_events_sleeps_until_one_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While it waits for ``after`` and then ``idle``, the thread wakes only when one
    is set or a search's scan is counted: it looked at the scans' cost every 0.1 s
    (counted here through ``scans_cpu_s``), an idle server's wake-ups. Each event
    still moves it on, and the watcher starts at ``idle``."""
    import rubi.core.scancost as scancost
    import rubi.watch as watch_module

    looks: list[float] = []
    monkeypatch.setattr(scancost, "_SCANS", scancost.ScanCost())
    monkeypatch.setattr(app, "scans_cpu_s", lambda: looks.append(0.0) or 0.0)
    monkeypatch.setattr(app, "catch_up_if_changed", lambda vault, **kw: None)
    started = threading.Event()
    monkeypatch.setattr(watch_module, "watch", lambda vault, **kw: started.set())
    after, idle = Latch(), Latch()
    with in_background(app.locate(tmp_path), after, idle):
        time.sleep(0.5)  # five of the old 0.1 s looks
        assert len(looks) <= 1
        scancost._SCANS.add(0.001)  # a search's scan: one look, still cheap
        time.sleep(0.2)
        assert len(looks) <= 2 and not started.is_set()
        after.set()
        time.sleep(0.5)
        assert len(looks) <= 4 and not started.is_set()
        idle.set()
        assert started.wait(10)


@pytest.mark.parametrize("applying", [False, True])
def test_an_ending_server_waits_for_its_watcher_only_while_it_applies_a_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, applying: bool
) -> None:
    """A watcher waiting for file events has nothing to finish: the server ends
    without joining it (watchfiles looks at its stop every 50 ms, half of what Claude
    Code leaves between SIGINT and SIGTERM). One applying a batch is waited for."""
    import rubi.watch as watch_module

    vault = tmp_path / "vault"
    write(vault / "alpha.md", "# Alpha\n\nThe first note.\n")
    paths = app.locate(vault)
    app.index(paths)
    listening, inside, release = threading.Event(), threading.Event(), threading.Event()

    def source(
        vault: Any, watch_filter: Any, debounce_ms: int, stop: Any, told: Any, first: Any
    ) -> Any:
        if first is not None:
            first()  # the catch-up, once the source listens
        told(True)
        listening.set()
        if applying:
            yield {(2, str(paths.root / "alpha.md"))}
        stop.wait(30)
        release.wait(30)  # the next look at the stop, held back by the test

    def apply(vault: Any, batch: Any) -> Any:
        inside.set()
        release.wait(30)
        raise RuntimeError("the batch, cut short by the test")

    monkeypatch.setattr(watch_module, "_file_events", source)
    monkeypatch.setattr(watch_module, "_apply", apply)
    monkeypatch.setattr(watch_module, "PREPARE_AFTER_S", 3600.0)
    joins: list[float | None] = []
    with in_background(paths) as thread:
        assert thread is not None
        assert listening.wait(10) and (inside.wait(10) if applying else True)
        real_join = thread.join

        def join(timeout: float | None = None) -> None:
            joins.append(timeout)
            release.set()
            real_join(timeout)

        monkeypatch.setattr(thread, "join", join)
    assert len(joins) == (1 if applying else 0)
    release.set()
    thread.join(30)
    assert not thread.is_alive()
