"""The watcher, driven by scripted change batches (no real timing), plus one test on
the real file system with a bounded wait."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from watchfiles import Change

from codemap.codemap_helpers import git
from rubi import app
from rubi.sync import IndexReport, graph_for, vault_sync_for
from rubi.watch import Batch, classify, ignored, watch

from helpers import real_watcher, wait_until, write


def ids(vault: Path, query: str) -> list[str]:
    return [h.id for h in app.search(app.locate(vault), query, refresh=False).hits]


Batches = list[set[tuple[Change, str]]]


def run_batches(vault: Path, batches: Batches) -> list[tuple[Batch, IndexReport]]:
    """Apply scripted batches (no catch-up run): one report per applied batch."""
    seen: list[tuple[Batch, IndexReport]] = []
    watch(
        app.locate(vault),
        changes=batches,
        on_report=lambda b, r: seen.append((b, r)),
        catch_up=False,
    )
    return seen


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "v"
    write(v / "a.md", "# Alpha\n\nsee [[b]]\n")
    write(v / "b.md", "# Beta\n\nplain\n")
    app.index(app.locate(v))
    return v


def test_add_edit_rename_delete_in_batches(vault: Path) -> None:
    c = write(vault / "c.md", "# Gamma\n\nquokka [[a]]\n")
    write(vault / "b.md", "# Beta\n\nnow about wombats\n")
    seen = run_batches(vault, [{(Change.added, str(c)), (Change.modified, str(vault / "b.md"))}])
    assert len(seen) == 1
    batch, _ = seen[0]
    assert batch.vault_paths == {"c.md", "b.md"}
    assert ids(vault, "quokka")[0] == "c"
    assert ids(vault, "wombats")[0] == "b"

    (vault / "c.md").rename(vault / "c2.md")
    run_batches(vault, [{(Change.deleted, str(c)), (Change.added, str(vault / "c2.md"))}])
    assert ids(vault, "quokka")[0] == "c2"
    g = graph_for(app.locate(vault)).graph
    assert g.has_edge("c2", "a") and "c" not in g  # backlinks follow the rename

    (vault / "c2.md").unlink()
    run_batches(vault, [{(Change.deleted, str(vault / "c2.md"))}])
    assert "c2" not in ids(vault, "quokka")


def test_folder_move_falls_back_to_a_scan(vault: Path) -> None:
    write(vault / "sub" / "x.md", "xylophone")
    run_batches(vault, [{(Change.added, str(vault / "sub"))}])
    assert ids(vault, "xylophone") == ["sub/x"]
    (vault / "sub").rename(vault / "moved")
    run_batches(
        vault, [{(Change.deleted, str(vault / "sub")), (Change.added, str(vault / "moved"))}]
    )
    assert ids(vault, "xylophone") == ["moved/x"]


def test_a_burst_is_one_index_run(vault: Path) -> None:
    events = set()
    for i in range(1000):
        p = write(vault / "burst" / f"n{i}.md", f"# N{i}\n\nburstword{i}\n")
        events.add((Change.added, str(p)))
    seen = run_batches(vault, [events])
    assert len(seen) == 1 and seen[0][1].added == 1000
    assert ids(vault, "burstword999")[0] == "burst/n999"


def test_editor_files_and_own_writes_are_ignored(vault: Path) -> None:
    noise = [
        ".index/whoosh/MAIN_1.seg",
        ".obsidian/workspace.json",
        ".git/index",
        "a.md.swp",
        ".a.md.swx",
        "a.md~",
        ".#a.md",
        "#a.md#",
        "4913",
        "x.crswap",
        "a.md___jb_tmp___",
        ".a.md.k3j4.tmp",
    ]
    for rel in noise:
        assert ignored(rel), rel
    assert not ignored("notes/a.md")
    paths = app.locate(vault)
    assert classify([(Change.modified, str(vault / r)) for r in noise], paths) is None


def test_code_changes_refresh_the_code_map(tmp_path: Path) -> None:
    project = tmp_path / "p"
    write(project / "pkg" / "app.py", "def run():\n    pass\n")
    git(project, "init", "-q")
    app.init_project(project)
    vault = app.locate(project / ".rubi")
    app.index(vault)
    f = write(project / "pkg" / "util.py", "def SmartHelperThing():\n    pass\n")
    seen: list[tuple[Batch, IndexReport]] = []
    watch(
        vault,
        changes=[{(Change.added, str(f))}],
        on_report=lambda b, r: seen.append((b, r)),
        catch_up=False,
    )
    assert seen[0][0].code and seen[0][1].code_changed == 1
    assert app.search(vault, "SmartHelperThing", refresh=False).hits[0].id == "pkg/util.py"


def test_once_applies_pending_changes(vault: Path) -> None:
    write(vault / "d.md", "pending narwhal")
    assert watch(app.locate(vault), once=True) == 1
    assert ids(vault, "narwhal") == ["d"]


def test_a_failing_batch_is_logged_and_watching_goes_on(
    vault: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import rubi.watch as w

    calls = {"n": 0}
    real = w._apply

    def flaky(v: object, batch: Batch) -> IndexReport:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("disk hiccup")
        return real(v, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(w, "_apply", flaky)
    e = write(vault / "e.md", "okapi")
    seen = run_batches(vault, [{(Change.added, str(e))}, {(Change.modified, str(e))}])
    assert "disk hiccup" in caplog.text
    assert len(seen) == 1 and ids(vault, "okapi") == ["e"]


@pytest.mark.slow
def test_real_file_system(vault: Path) -> None:
    with real_watcher(vault):
        write(vault / "live.md", "# Live\n\nplatypus\n")
        assert wait_until(lambda: ids(vault, "platypus") == ["live"])


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="a name that is not UTF-8: Linux file systems")
def test_a_file_name_that_is_not_utf8_does_not_stop_the_watcher(
    vault: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with real_watcher(vault):
        fd = os.open(os.fsencode(str(vault)) + b"/bad_\xff.md", os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, b"# Bad name\n")
        os.close(fd)
        time.sleep(0.5)
        write(vault / "after.md", "# After\n\nquokka\n")
        assert wait_until(lambda: ids(vault, "quokka") == ["after"])
    assert "not UTF-8? Rename it" in caplog.text


@pytest.mark.skipif(sys.platform != "linux", reason="a name that is not UTF-8: Linux file systems")
def test_a_folder_name_that_is_not_utf8_is_reported_once_and_restarts_slow_down(
    vault: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder named in Latin-1 fails the event source at start, every start: the
    watcher says so once and restarts ever more slowly, still catching up each time."""
    os.mkdir(os.fsencode(str(vault)) + b"/caf\xe9")
    catch_ups: list[float] = []
    real_catch_up = app.catch_up

    def counted(*args: object, **kwargs: object) -> object:
        catch_ups.append(time.monotonic())
        return real_catch_up(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app, "catch_up", counted)
    with real_watcher(vault, seconds=0):  # the source never subscribes: no ready event
        write(vault / "later.md", "# Later\n\nwombat\n")
        time.sleep(3.6)  # restarts after 1 s, then 2 s more (a second apart before)
    warnings = [r for r in caplog.records if "file events failed" in r.getMessage()]
    assert len(warnings) == 1
    restarts = catch_ups[1:]  # the first is the watcher's start
    assert 1 <= len(restarts) <= 2
    assert ids(vault, "wombat") == ["later"]  # the catch-up after the failure saw it


@pytest.mark.skipif(sys.platform != "linux", reason="a name that is not UTF-8: Linux file systems")
def test_while_the_event_source_is_down_searches_refresh_themselves(vault: Path) -> None:
    """A folder named in Latin-1 fails the event source at every start: no file event
    reaches the watcher, so a search in its process scans for changes itself and finds
    a note written a moment ago, and the watcher never says it is listening."""
    os.mkdir(os.fsencode(str(vault)) + b"/caf\xe9")
    paths = app.locate(vault)
    stop, ready, caught_up = threading.Event(), threading.Event(), threading.Event()
    thread = threading.Thread(
        target=watch,
        args=(paths,),
        kwargs={
            "stop_event": stop,
            "ready": ready,
            "debounce_ms": 100,
            "on_report": lambda b, r: caught_up.set(),
        },
        daemon=True,
    )
    thread.start()
    try:
        assert caught_up.wait(20)
        write(vault / "fresh.md", "# Fresh\n\nnumbat\n")
        assert [h.id for h in app.search(paths, "numbat").hits] == ["fresh"]
        assert not ready.is_set()
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


@pytest.mark.slow
def test_the_watcher_is_ready_once_its_source_listens(vault: Path) -> None:
    """``ready`` is set once the event source has subscribed: a change made right after
    it is applied, with no wait in between."""
    paths = app.locate(vault)
    stop, ready = threading.Event(), threading.Event()
    applied: list[Batch] = []
    thread = threading.Thread(
        target=watch,
        args=(paths,),
        kwargs={
            "stop_event": stop,
            "ready": ready,
            "debounce_ms": 100,
            "on_report": lambda b, r: applied.append(b),
        },
        daemon=True,
    )
    thread.start()
    try:
        assert ready.wait(20)
        assert vault_sync_for(paths).watched
        write(vault / "quick.md", "# Quick\n\nbilby\n")
        assert wait_until(lambda: any("quick.md" in b.vault_paths for b in applied))
        assert ids(vault, "bilby") == ["quick"]
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not vault_sync_for(paths).watched


def test_a_catch_up_that_fails_is_not_reported_as_the_event_source_failing(
    vault: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The source's RuntimeError (a file name that is not UTF-8) is caught and watching
    restarts; one raised by the catch-up run after the source subscribed was caught
    with it, reported as "file events failed … not UTF-8?" and retried. It propagates."""
    import watchfiles

    import rubi.watch as watch_module

    monkeypatch.setattr(watchfiles, "watch", lambda *a, **kw: iter([set()]))

    def failing_catch_up() -> None:
        raise RuntimeError("the catch-up's own failure")

    events = watch_module._file_events(
        app.locate(vault),
        lambda c, p: True,
        100,
        threading.Event(),
        lambda on: None,
        failing_catch_up,
    )
    with pytest.raises(RuntimeError, match="catch-up's own failure"):
        next(events)
    assert "file events failed" not in caplog.text


def test_the_event_source_gets_the_batch_length_and_the_quiet_time(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--debounce-ms`` is watchfiles' ``debounce`` (the longest a batch gathers) and
    the quiet time that closes a batch sooner is ``step``: the help and docs say so."""
    import watchfiles

    import rubi.watch as watch_module

    seen: dict[str, object] = {}

    def fake_watch(*args: object, **kwargs: object) -> Iterator[set[tuple[Any, str]]]:
        seen.update(kwargs)
        return iter([{(Change.modified, str(vault / "a.md"))}])

    monkeypatch.setattr(watchfiles, "watch", fake_watch)
    events = watch_module._file_events(
        app.locate(vault), lambda c, p: True, 700, threading.Event(), lambda on: None
    )
    assert next(events) == {(Change.modified, str(vault / "a.md"))}
    assert seen["debounce"] == 700
    assert seen["step"] == watch_module.QUIET_MS < 700
