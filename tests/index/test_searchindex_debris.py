"""What a killed index run leaves beside the index goes on the next run, and only that."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rubi import app
from rubi.core.atomic import DEBRIS_AGE_S, host_tag
from rubi.core.paths import cache_home
from rubi.index.searchindex import SearchIndex

from helpers import write

posix_only = pytest.mark.skipif(os.name == "nt", reason="kills and pids are POSIX here")

KILLED_REBUILD = """
import os, signal, sys
from pathlib import Path
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex
def docs():
    for i in range(50):
        yield IndexDoc(f"d{i}", "note", f"d{i}.md", "note", "active", {"body": "words " * 50})
    os.kill(os.getpid(), signal.SIGKILL)  # killed mid-build
SearchIndex(Path(sys.argv[1])).rebuild(docs())
"""


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=30)
    return proc.pid


def _beside(index: SearchIndex) -> list[str]:
    return sorted(p.name for p in index.directory.parent.iterdir())


@posix_only
@pytest.mark.timeout(60)
def test_a_killed_rebuild_leaves_a_named_folder_that_the_next_run_removes() -> None:
    index = SearchIndex(cache_home() / "v" / "whoosh")
    proc = subprocess.Popen([sys.executable, "-c", KILLED_REBUILD, str(index.directory)])
    assert proc.wait(timeout=30) == -signal.SIGKILL
    [left] = _beside(index)
    assert left.startswith(f"whoosh.building-{proc.pid}-{host_tag()}-")
    assert [p.name for p in index.sweep()] == [left]
    assert _beside(index) == []


@posix_only
def test_sweep_keeps_live_builds_and_what_is_not_its_own() -> None:
    index = SearchIndex(cache_home() / "v" / "whoosh")
    parent = index.directory.parent
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        host, dead = host_tag(), _dead_pid()
        folders = {
            "dead": f"whoosh.building-{dead}-{host}-ab12cd34",
            "dead_old_swap": f"whoosh.old-{dead}-{host}-ab12cd34",
            "live": f"whoosh.building-{live.pid}-{host}-ab12cd34",
            "legacy_fresh": "whoosh.building-k2j3h4g5",
            "legacy_aged": "whoosh.building-z9y8x7w6",
            "legacy_swap_dead": f"whoosh.old-{dead}",
            "other_index": f"other.building-{dead}-{host}-ab12cd34",
            "user": "whoosh-notes",
        }
        for name in folders.values():
            (parent / name).mkdir(parents=True)
            (parent / name / "f").write_text("x")
        old = time.time() - DEBRIS_AGE_S - 60
        os.utime(parent / folders["legacy_aged"], (old, old))
        removed = {p.name for p in index.sweep()}
        assert removed == {
            folders[k] for k in ("dead", "dead_old_swap", "legacy_aged", "legacy_swap_dead")
        }
        assert (parent / folders["live"] / "f").exists()
    finally:
        live.kill()
        live.wait(timeout=30)


@posix_only
def test_an_index_run_sweeps_what_a_dead_run_left(tmp_path: Path) -> None:
    write(tmp_path / "v" / "a.md", "# A\n\nwords\n")
    paths = app.locate(tmp_path / "v")
    app.index(paths)
    dead, host = _dead_pid(), host_tag()
    building = paths.whoosh_dir.parent / f"whoosh.building-{dead}-{host}-ab12cd34"
    building.mkdir()
    temp = paths.index_dir / f".manifest.pickle.rubi-{dead}-{host}-ab12cd34.tmp"
    temp.write_bytes(b"half")
    app.index(paths)
    assert not building.exists() and not temp.exists()
