"""A FIFO, socket or device made while the watcher runs, where rubi would read a file
(a note, a code file), is skipped without being opened (opening a FIFO waits for a
writer) and said once, in one line naming it and what to do; a symlink made while it
runs that leads outside the project is skipped as the index skips it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from watchfiles import Change

from codemap.codemap_helpers import git
from rubi import app
from rubi.watch import watch

from helpers import real_watcher, wait_until, write

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX")

RUBI = (sys.executable, "-c", "from rubi.entry import main; main()")

FIFO_LINE = "is a FIFO (named pipe), not a regular file; rubi does not read it: remove it"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "v"
    write(v / "a.md", "# Alpha\n\nplain\n")
    app.index(app.locate(v))
    return v


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "p"
    write(p / "pkg" / "app.py", "def run():\n    pass\n")
    git(p, "init", "-q")
    app.init_project(p)
    app.index(app.locate(p / ".rubi"))
    return p


def _ids(paths: app.VaultPaths, query: str) -> list[str]:
    return [h.id for h in app.search(paths, query, refresh=False).hits]


@pytest.mark.slow
def test_a_fifo_made_while_watching_is_said_once_and_never_opened(
    vault: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with real_watcher(vault):
        os.mkfifo(vault / "pipe.md")
        write(vault / "after.md", "# After\n\nquokka\n")
        # a watcher that opened the FIFO would wait for a writer and index nothing more
        assert wait_until(lambda: _ids(app.locate(vault), "quokka") == ["after"])
        os.utime(vault / "pipe.md")  # another event on it
        write(vault / "later.md", "# Later\n\nwombat\n")
        assert wait_until(lambda: _ids(app.locate(vault), "wombat") == ["later"])
    said = [r.getMessage() for r in caplog.records if "pipe.md" in r.getMessage()]
    assert said == [f"pipe.md: {FIFO_LINE}"]


def test_special_files_where_rubi_reads_files_are_said_once_each(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    os.mkfifo(project / "pkg" / "pipe.py")
    os.mkfifo(project / "pkg" / "feed")  # no code file: the map never reads it
    os.mkfifo(project / "fifo")
    os.symlink(project / "fifo", project / ".rubi" / "linked.md")
    made = [project / "pkg" / "pipe.py", project / "pkg" / "feed", project / ".rubi" / "linked.md"]
    events = {(Change.added, str(p)) for p in made}
    refused: list[tuple[str, str]] = []
    runs = watch(
        paths,
        changes=[events, {(Change.modified, str(p)) for p in made}],
        on_refused=lambda path, reason: refused.append((path, reason)),
        catch_up=False,
    )
    assert runs == 2  # both batches applied: nothing waited on a FIFO
    assert sorted(refused) == [
        (
            "linked.md",
            "a symlink to a FIFO (named pipe), not a regular file; rubi does not read it: "
            "remove the link",
        ),
        ("pkg/pipe.py", FIFO_LINE),
    ]


def test_symlinks_made_while_watching_that_lead_outside_the_project_are_skipped(
    project: Path, tmp_path: Path
) -> None:
    paths = app.locate(project / ".rubi")
    outside_note = write(tmp_path / "outside.md", "# Outside\n\nsecretword\n")
    outside_code = write(tmp_path / "outside.py", "def LeakedHelperName():\n    pass\n")
    note_link, code_link = project / ".rubi" / "leak.md", project / "pkg" / "leak.py"
    os.symlink(outside_note, note_link)
    os.symlink(outside_code, code_link)
    refused: list[tuple[str, str]] = []
    reports: list[app.IndexReport] = []
    watch(
        paths,
        changes=[{(Change.added, str(note_link)), (Change.added, str(code_link))}],
        on_report=lambda b, r: reports.append(r),
        on_refused=lambda path, reason: refused.append((path, reason)),
        catch_up=False,
    )
    assert _ids(paths, "secretword") == []
    assert _ids(paths, "LeakedHelperName") == []
    assert refused == []  # not a special file: the index run says why, as `rubi index` does
    assert [str(w) for w in reports[0].warnings] == [
        "leak.md: a symlink to a file outside the project; rubi does not read it: "
        "replace the link with the file itself"
    ]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_rubi_watch_prints_one_warning_line_for_a_fifo_made_while_it_runs(vault: Path) -> None:
    proc = subprocess.Popen(
        [*RUBI, "watch", "--debounce-ms", "100", "--vault", str(vault)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    assert proc.stderr is not None
    reader = threading.Thread(
        target=lambda: lines.extend(x.rstrip("\n") for x in proc.stderr), daemon=True
    )
    reader.start()
    try:
        assert wait_until(lambda: "Listening for changes." in lines, 60)
        os.mkfifo(vault / "pipe.md")
        assert wait_until(lambda: any(re.search(r" \d+ changes?: ", x) for x in lines), 30)
        write(vault / "after.md", "# After\n\nquokka\n")
        assert wait_until(lambda: _ids(app.locate(vault), "quokka") == ["after"], 30)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=5)
        proc.stderr.close()
    assert [x for x in lines if "pipe.md" in x] == [f"warning: pipe.md: {FIFO_LINE}"]
