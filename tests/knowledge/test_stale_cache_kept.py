"""A long-lived process reads ``stale.pickle`` once while its stamp holds
(:func:`rubi.knowledge.stale._load`): the file holds the history of every folder
checked, and a server read it again for every search whose hits name files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codemap.codemap_helpers import git
from rubi.knowledge import stale as stale_module
from rubi.knowledge.stale import NoteFiles, stale_files

from helpers import rubi_project, write

CTX = "src/ctx.py"
NOTE = ".rubi/notes/bug-teardown.md"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A committed project whose note names one file that changed after it."""
    root = rubi_project(tmp_path / "p", {CTX: "class AppContext:\n    pass\n"})
    write(root / NOTE, "---\ntype: bug\nfiles: [src/ctx.py]\n---\n# Teardown\n\nAppContext.\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "note")
    write(root / CTX, "class Other:\n    pass\n")
    git(root, "commit", "-qam", "AppContext renamed")
    return root


def _age(path: Path) -> None:
    """Date ``path`` a minute back, so its stat vouches for it."""
    old = os.stat(path).st_mtime_ns - 60_000_000_000
    os.utime(path, ns=(old, old))


def test_the_cache_is_read_once_while_its_stamp_holds(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "rubi" / "stale.pickle"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache.parent.mkdir(parents=True)
    notes = [NoteFiles("bug-teardown", (CTX,), project / NOTE)]
    first = stale_files(project, notes, cache)
    assert first == {"bug-teardown": (CTX,)}
    _age(cache)
    reads: list[Path] = []
    real = stale_module.load_pickle

    def counted(path: Path) -> object:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(stale_module, "load_pickle", counted)
    answers = [stale_files(project, notes, cache) for _ in range(3)]
    assert answers == [first] * 3
    assert len(reads) == 1  # read once, then kept

    # another process replaces the file: read again
    data = cache.read_bytes()
    cache.unlink()
    cache.write_bytes(data)
    os.chmod(cache, 0o600)
    _age(cache)
    assert stale_files(project, notes, cache) == first
    assert len(reads) == 2
    assert stale_files(project, notes, cache) == first
    assert len(reads) == 2


def test_a_cache_written_just_now_is_read_every_time(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache" / "rubi" / "stale.pickle"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache.parent.mkdir(parents=True)
    notes = [NoteFiles("bug-teardown", (CTX,), project / NOTE)]
    first = stale_files(project, notes, cache)
    reads: list[Path] = []
    real = stale_module.load_pickle
    monkeypatch.setattr(stale_module, "load_pickle", lambda p: reads.append(p) or real(p))
    for _ in range(2):  # its stat cannot vouch for it yet (racily clean)
        assert stale_files(project, notes, cache) == first
    assert len(reads) == 2
