"""What a killed or hostile neighbour leaves beside the fingerprint store
(:mod:`rubi.search.printstore`) neither blocks a search nor keeps the store unread: a
FIFO where SQLite keeps the store's rollback journal is refused (opening it would
block), a journal a killed update left goes when the next run makes the store anew,
and a killed full write's temp file is swept as every temp file is."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from rubi import app
from rubi.app.searching import searching_once
from rubi.core import atomic
from rubi.search import printstore, printwriter
from rubi.search.duplicates import forget_bodies
from rubi.search.printstore import PRINTS_FILE

from helpers import counted_bodies, write

NOTE = (
    "# Mental health\n\nWe offer every teammate free sessions with a licensed therapist or "
    "coach through our mental health partner. Sessions are confidential and the company "
    "never sees who used them.\n"
)


def _vault(root: Path) -> app.VaultPaths:
    write(root / "benefits/mental-health.md", NOTE)
    write(root / "people/mental-health.md", NOTE.replace("them.", "them at all."))
    write(root / "time-off.md", "# Time off\n\nTake the sessions off you need.\n")
    paths = app.locate(root)
    app.index(paths)
    return paths


def _plain(paths: app.VaultPaths) -> list[str]:
    forget_bodies()
    return [h.id for h in app.search(paths, "therapist sessions", refresh=False).hits]


def _once(paths: app.VaultPaths) -> list[str]:
    forget_bodies()
    with searching_once():
        return [h.id for h in app.search(paths, "therapist sessions", refresh=False).hits]


def _within(seconds: float, work: Callable[[], object], fifo: Path) -> None:
    """Run ``work``; fail (after releasing a reader blocked on ``fifo``) if it blocks."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # pragma: no cover - reported below
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():  # opened the FIFO and waits for a writer: give it one
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        thread.join(seconds)
        pytest.fail(f"blocked on the FIFO {fifo.name}")
    assert not failed, failed


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_for_the_journal_blocks_neither_a_search_nor_an_index_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    paths = _vault(tmp_path)
    plain = _plain(paths)
    fifo = paths.index_dir / f"{PRINTS_FILE}-journal"
    os.mkfifo(fifo, 0o600)
    monkeypatch.setattr(printstore, "_WARNED", False)
    shown: list[list[str]] = []
    with caplog.at_level(logging.WARNING, logger="rubi.search.printstore"):
        _within(20, lambda: shown.append(_once(paths)), fifo)
    assert shown == [plain]
    assert sum(r.name == "rubi.search.printstore" for r in caplog.records) == 1
    write(tmp_path / "time-off.md", "# Time off\n\nTwenty days a year.\n")
    _within(20, lambda: app.index(paths), fifo)
    assert not fifo.exists()  # the store was made anew, without it
    plain = _plain(paths)
    made = counted_bodies(monkeypatch)
    assert _once(paths) == plain and made == []  # read from the store again


def test_a_journal_a_killed_update_left_goes_with_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    store = paths.index_dir / PRINTS_FILE
    killed = (  # an index run's update, killed after its pages spilled: a hot journal
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        'c.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n '
        "WHERE i < 3000) INSERT INTO prints SELECT i, randomblob(16), 1, 'x' FROM n\")\n"
        "c.execute('PRAGMA cache_size=1')\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "c.execute(\"UPDATE prints SET vocabulary = vocabulary || ' zzz'\")\n"
        "os._exit(9)\n"
    )
    subprocess.run([sys.executable, "-c", killed, str(store)], check=False)
    assert (paths.index_dir / f"{PRINTS_FILE}-journal").exists()
    write(tmp_path / "time-off.md", "# Time off\n\nTwenty days a year.\n")
    app.index(paths)  # cannot update a file it may not read: makes it anew
    assert sorted(p.name for p in paths.index_dir.glob(f"*{PRINTS_FILE}*")) == [PRINTS_FILE]
    plain = _plain(paths)
    made = counted_bodies(monkeypatch)
    monkeypatch.setattr(printstore, "_WARNED", False)
    assert _once(paths) == plain and made == []  # the new store is read, not refused


def test_a_killed_full_write_leaves_a_temp_file_the_next_run_sweeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _vault(tmp_path)
    killed = (  # a full write of the store, killed half-way through its rows
        "import os, sys\n"
        "from pathlib import Path\n"
        "from rubi.search.printwriter import record_prints\n"
        "root = Path(sys.argv[2])\n"
        "def every():\n"
        "    yield 'time-off.md'\n"
        "    os._exit(9)\n"
        "record_prints(Path(sys.argv[1]), root, None, [], [], every, full=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run(
        [sys.executable, "-c", killed, str(paths.index_dir), str(tmp_path)], env=env, check=False
    )
    left = sorted(p.name for p in paths.index_dir.iterdir() if PRINTS_FILE in p.name)
    assert len(left) == 2  # the store, and the killed writer's temp file
    monkeypatch.setattr(atomic, "_last_sweep", {})  # this process swept a while ago
    write(tmp_path / "time-off.md", "# Time off\n\nTwenty days a year.\n")
    app.index(paths)
    assert sorted(p.name for p in paths.index_dir.iterdir() if PRINTS_FILE in p.name) == [
        PRINTS_FILE
    ]


@pytest.mark.parametrize("name", [PRINTS_FILE, f"{PRINTS_FILE}-journal"])
def test_a_folder_in_the_stores_place_is_not_written_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    paths = _vault(tmp_path)
    store = paths.index_dir / PRINTS_FILE
    store.unlink()
    (paths.index_dir / name).mkdir()
    read: list[str] = []
    real = printwriter.print_row

    def counted(text: str) -> tuple[bytes, int, str]:
        read.append(text)
        return real(text)

    monkeypatch.setattr(printwriter, "print_row", counted)
    write(tmp_path / "time-off.md", "# Time off\n\nTwenty days a year.\n")
    with caplog.at_level(logging.WARNING, logger="rubi.search.printwriter"):
        app.index(paths)
    assert read == []  # no note read for a store no rename could put in place
    assert [r for r in caplog.records if r.name == "rubi.search.printwriter"]
    assert (paths.index_dir / name).is_dir()  # a folder rubi did not make is left
