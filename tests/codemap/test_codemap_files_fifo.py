"""A FIFO where git reads its excludes (an archive can carry one): git would block
opening it until its timeout. The listing does not ask git when the FIFO is one rubi
can see first, and after one timeout rubi does not ask git about that tree again."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codemap.codemap_helpers import git
from rubi import app
from rubi.codemap import files
from rubi.codemap.files import list_files
from rubi.core import gitrepo

from helpers import rubi_project, write

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs: POSIX")

TIMEOUT_S = 3.0
"""The git timeout the tests inject (the real ones are 10 and 30 s)."""


def _count_timeouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every git call that timed out from here on (by ``subprocess.run``'s timeout or
    a killed streaming call), by its arguments."""
    timed_out: list[str] = []
    real_run: Callable[..., Any] = subprocess.run

    def run(cmd: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return real_run(cmd, *args, **kwargs)
        except subprocess.TimeoutExpired:
            timed_out.append(" ".join(map(str, cmd)))
            raise

    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setattr(files, "GIT_TIMEOUT_S", TIMEOUT_S)
    monkeypatch.setattr(gitrepo, "GIT_TIMEOUT_S", TIMEOUT_S)
    return timed_out


@pytest.mark.timeout(60)
@pytest.mark.parametrize("where", [".gitignore", ".git/info/exclude", "core.excludesFile"])
def test_a_fifo_among_the_top_excludes_is_seen_before_git_is_asked(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "unpacked"
    write(root / "src" / "app.py", "x = 1\n")
    write(root / "build" / "out.py", "y = 2\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "one")
    fifo = {
        ".gitignore": root / ".gitignore",
        ".git/info/exclude": root / ".git" / "info" / "exclude",
        "core.excludesFile": root / ".hang",
    }[where]
    fifo.unlink(missing_ok=True)  # git init writes an exclude file
    os.mkfifo(fifo)
    if where == "core.excludesFile":
        git(root, "config", "core.excludesFile", str(fifo))
    timed_out = _count_timeouts(monkeypatch)
    started = time.monotonic()
    listing = list_files(root)
    assert time.monotonic() - started < TIMEOUT_S
    assert timed_out == []
    assert "src/app.py" in listing.paths and not listing.used_git
    named = [w for w in listing.warnings if where in w.path]
    assert len(named) == 1, listing.warnings
    assert "FIFO" in named[0].message


@pytest.mark.timeout(120)
def test_a_fifo_gitignore_deeper_down_costs_one_timeout_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = rubi_project(tmp_path / "proj", {"src/app.py": "def serve():\n    pass\n"})
    write(root / "vendor" / "lib.py", "z = 3\n")  # untracked: git walks into vendor/
    os.mkfifo(root / "vendor" / ".gitignore")
    timed_out = _count_timeouts(monkeypatch)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    app.search(paths, "serve")
    app.index(paths)
    assert len(timed_out) == 1, timed_out
    said = [r.getMessage() for r in caplog.records if "did not answer" in r.getMessage()]
    assert len(said) == 1 and str(root) in said[0]


def _forget_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new process knows of stalled trees: nothing."""
    monkeypatch.setattr(gitrepo, "_stalled", {})
    monkeypatch.setattr(gitrepo, "_looked_up", {})


@pytest.mark.timeout(120)
def test_a_fifo_gitignore_found_after_a_timeout_spares_later_processes_the_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = rubi_project(tmp_path / "proj", {"src/app.py": "def serve():\n    pass\n"})
    write(root / "vendor" / "deep" / "lib.py", "z = 3\n")
    os.mkfifo(root / "vendor" / "deep" / ".gitignore")
    timed_out = _count_timeouts(monkeypatch)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    assert len(timed_out) == 1, timed_out

    # a later process: the hook of the next prompt, a CLI call
    proc = subprocess.run(
        [sys.executable, "-c", "from rubi.entry import main; main()", "index"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "vendor/deep/.gitignore is not a regular file" in proc.stderr
    assert "did not answer" not in proc.stderr

    # mended: git is asked again, and the note of it is gone
    _forget_this_process(monkeypatch)
    (root / "vendor" / "deep" / ".gitignore").unlink()
    write(root / "vendor" / "deep" / ".gitignore", "*.log\n")
    assert not gitrepo.stalled(root)
    assert list_files(root).used_git
    assert len(timed_out) == 1


def test_a_timeout_without_a_blocking_file_is_not_remembered_for_other_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = rubi_project(tmp_path / "proj", {"src/app.py": "x = 1\n"})
    monkeypatch.setattr(gitrepo, "_stalled", {})
    gitrepo._stall(root, ("status",), 0.1)  # as a loaded machine's slow git would
    assert gitrepo.stalled(root)
    _forget_this_process(monkeypatch)
    assert not gitrepo.stalled(root)
    assert list_files(root).used_git
