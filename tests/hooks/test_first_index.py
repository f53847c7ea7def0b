"""A vault never indexed (a fresh clone of a project whose ``.rubi/`` is committed):
SessionStart answers at once with the committed map and one line saying the index is
being built, and one detached ``rubi index --first-only`` builds it; two starts never
build it twice; a first ``rubi index`` or ``rubi search`` on a pipe says once what it
is indexing."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.app import firstindex
from rubi.app.firstindex import (
    FIRST_LOCK_WAIT_S,
    INDEX_BUILDING_LINE,
    build_first_index,
    first_index_line,
    first_index_size,
    index_run_under_way,
    never_indexed,
)
from rubi.cli.main import cli

from helpers import login_project, write


def _fresh_clone(tmp_path: Path) -> Path:
    """A project whose vault and map page are there but whose index is not, as after
    a ``git clone`` on another machine."""
    project = login_project(tmp_path / "fresh")
    shutil.rmtree(app.locate(project / ".rubi").index_dir)
    return project


def _wait_indexed(paths: app.VaultPaths, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while never_indexed(paths):
        assert time.monotonic() < deadline, "the detached run never built the index"
        time.sleep(0.1)


@pytest.mark.timeout(120)
def test_session_start_answers_with_the_committed_map_and_builds_the_index_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT", raising=False)
    project = _fresh_clone(tmp_path)
    paths = app.locate(project / ".rubi")
    started: list[int | None] = []
    real_start = firstindex.start_first_index
    monkeypatch.setattr(
        firstindex, "start_first_index", lambda p: started.append(real_start(p)) or started[-1]
    )
    out = hook("SessionStart", base(project, "SessionStart", source="startup"))
    assert out is not None
    context = out["hookSpecificOutput"]["additionalContext"]
    assert "# Code map" in context  # the committed .rubi/map.md, read without an index
    assert context.endswith(INDEX_BUILDING_LINE)
    assert len(started) == 1 and isinstance(started[0], int)
    _wait_indexed(paths)
    found = app.search(paths, "login tokens", scope="notes", refresh=False, personal=False)
    assert found.hits
    started.clear()  # the next session start finds it indexed: nothing started, no line
    out = hook("SessionStart", base(project, "SessionStart", source="startup"))
    assert out is not None and INDEX_BUILDING_LINE not in json_text(out)
    assert started == []


def json_text(out: object) -> str:
    import json

    return json.dumps(out)


def test_a_session_start_in_a_vault_with_no_map_says_only_that_the_index_is_being_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT", raising=False)
    project = tmp_path / "new"
    write(project / "src" / "a.py", "def a():\n    pass\n")
    app.init_project(project)
    calls: list[Path] = []
    monkeypatch.setattr(firstindex, "start_first_index", lambda p: calls.append(p.root) or 1)
    out = hook("SessionStart", base(project, "SessionStart", source="startup"))
    assert out is not None
    assert out["hookSpecificOutput"]["additionalContext"] == INDEX_BUILDING_LINE
    assert calls == [project.resolve() / ".rubi"]


def test_the_first_index_is_built_once_and_leaves_it_to_a_run_under_way(tmp_path: Path) -> None:
    from filelock import FileLock

    project = _fresh_clone(tmp_path)
    paths = app.locate(project / ".rubi")
    paths.index_dir.mkdir(parents=True)
    with FileLock(str(paths.lock_file)):  # another run builds it
        assert index_run_under_way(paths)
        began = time.monotonic()
        assert build_first_index(paths) is False
        assert time.monotonic() - began < FIRST_LOCK_WAIT_S + 4.0
        assert never_indexed(paths)
    assert not index_run_under_way(paths)
    assert build_first_index(paths) is True
    assert not never_indexed(paths)
    assert build_first_index(paths) is False  # indexed: nothing to do


def test_a_recall_while_the_first_index_is_built_stays_silent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _fresh_clone(tmp_path)
    payload = base(project, "UserPromptSubmit", prompt="why do login tokens expire at midnight")
    began = time.monotonic()
    assert hook("UserPromptSubmit", payload) is None
    assert time.monotonic() - began < 5.0
    assert never_indexed(app.locate(project / ".rubi"))  # the recall built nothing


def test_the_first_index_size_counts_notes_and_code_files_outside_the_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _fresh_clone(tmp_path)
    write(project / "README.md", "# not code\n")
    write(project / "src" / "b.py", "def b():\n    pass\n")
    paths = app.locate(project / ".rubi")
    notes = sum(1 for _ in paths.root.rglob("*.md"))
    assert first_index_size(paths) == (notes, 2)
    assert first_index_line(paths) is None  # a second's work: nothing to say
    monkeypatch.setattr(firstindex, "NOTICE_AFTER_FILES", notes + 2)
    line = first_index_line(paths)
    assert line == (
        f"rubi: indexing 2 code files and {notes} notes for the first time (this run reads "
        "every one; later runs read only what changed)…"
    )
    assert "second" not in line and "minute" not in line  # no duration a slow machine breaks
    app.index(paths)
    assert first_index_line(paths) is None


@pytest.mark.parametrize("command", [["index"], ["search", "login tokens"]])
def test_a_first_run_on_a_pipe_says_once_what_it_indexes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    project = _fresh_clone(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.setattr(firstindex, "NOTICE_AFTER_FILES", 3)  # the fixture's size
    first = CliRunner().invoke(cli, command)
    assert first.exit_code == 0, first.output
    assert first.stderr.count("for the first time") == 1
    assert "rubi: indexing 1 code file and " in first.stderr
    again = CliRunner().invoke(cli, command)
    assert again.exit_code == 0 and "for the first time" not in again.stderr


def test_a_servers_catch_up_that_meets_the_first_index_logs_one_info_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The plugin's ``rubi serve`` catches up while the detached run holds the lock:
    one info line, no traceback; its watcher's own catch-up runs later."""
    import logging

    import filelock

    from rubi.cli import servewatch

    paths = app.locate(_fresh_clone(tmp_path) / ".rubi")

    def held(*args: object, **kwargs: object) -> bool:
        raise filelock.Timeout(str(paths.lock_file))

    monkeypatch.setattr(app, "catch_up_if_changed", held)
    with caplog.at_level(logging.INFO, logger=servewatch.__name__):
        servewatch._catch_up_once(paths)
    assert [r.levelno for r in caplog.records] == [logging.INFO]
    assert "another index run holds the lock" in caplog.records[0].getMessage()


def test_a_first_run_on_a_pipe_that_waits_for_another_run_says_only_that(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the detached run builds the index, ``rubi search`` waits for it: it says
    that it waits, not that it indexes."""
    from rubi.cli import common

    project = _fresh_clone(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.setattr(firstindex, "NOTICE_AFTER_FILES", 3)
    monkeypatch.setattr(firstindex, "index_run_under_way", lambda p: True)
    said: list[str] = []
    monkeypatch.setattr(common, "echo", lambda message="", **kw: said.append(message))
    common.say_first_index(app.locate(project / ".rubi"))
    assert said == []


def test_the_detached_run_s_log_is_emptied_once_it_grows_past_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a first index failing at every session start appended its traceback each time:
    # the log grew without end
    import subprocess

    project = _fresh_clone(tmp_path)
    paths = app.locate(project / ".rubi")
    log = paths.index_dir / firstindex.FIRST_INDEX_LOG
    started: list[list[str]] = []

    class Child:
        pid = 4242

        def __init__(self, command: list[str], **options: object) -> None:
            started.append(command)
            options["stderr"].write(b"Traceback: the build failed\n")  # type: ignore[attr-defined]

        def wait(self) -> int:
            return 1

    monkeypatch.setattr(subprocess, "Popen", Child)
    assert firstindex.start_first_index(paths) == 4242
    assert firstindex.start_first_index(paths) == 4242
    assert log.read_bytes() == b"Traceback: the build failed\n" * 2  # appended
    with log.open("ab") as grown:
        grown.write(b"x" * firstindex.FIRST_INDEX_LOG_MAX_BYTES)
    assert firstindex.start_first_index(paths) == 4242
    assert log.read_bytes() == b"Traceback: the build failed\n"
    assert len(started) == 3 and started[0][-2:] == ["index", "--first-only"]
