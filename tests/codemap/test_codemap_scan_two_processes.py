"""A scan in two processes maps a repository exactly as one process does
(rubi.codemap.scan, rubi.core.forked)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codemap.codemap_helpers import git_init
from rubi.codemap import build_code_map
from rubi.codemap import scan as scan_module
from rubi.core import forked

pytestmark = pytest.mark.skipif(not forked.available(), reason="fork: Linux, 2 cores")

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "rubi"
"""rubi's own source: real Python files, with imports between them."""


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(SAMPLE, root / "rubi", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "rubi" / "broken.py").write_bytes(b"import os\x00\n")  # a warning, mid-list
    git_init(root)
    return root


def test_two_processes_map_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _repo(tmp_path)
    monkeypatch.setenv(forked.PROCS_ENV, "1")
    one = build_code_map(root, tmp_path / "one.sqlite")
    monkeypatch.delenv(forked.PROCS_ENV)
    monkeypatch.setattr(scan_module, "FORK_MIN_FILES", 10)
    pids: set[int] = set()
    real = forked.in_two

    def counting(child, here):  # type: ignore[no-untyped-def]
        pids.add(1)
        return real(child, here)

    monkeypatch.setattr(forked, "in_two", counting)
    done: list[tuple[int, int]] = []
    two = build_code_map(root, tmp_path / "two.sqlite", progress=lambda d, t: done.append((d, t)))
    assert pids, "the scan did not run in two processes"
    assert len(one.files) > 200
    assert two.files == one.files
    assert two.warnings == one.warnings
    assert two.modules == one.modules
    assert done[-1][0] == done[-1][1]  # the progress bar ends full
    # the second build reuses the cache the two processes wrote: nothing parsed again
    again = build_code_map(root, tmp_path / "two.sqlite")
    assert again.files == one.files
    assert again.stats.parsed == 0


def test_a_moved_tree_reuses_its_parses_in_both_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every path is new to the cache after ``git mv rubi lib`` but every content is
    known: the child, which cannot decode a cached parse, leaves those to this process
    instead of parsing its half again; the map, the warnings and the counts are one
    process's."""
    root = _repo(tmp_path)
    monkeypatch.setenv(forked.PROCS_ENV, "1")
    build_code_map(root, tmp_path / "one.sqlite")
    build_code_map(root, tmp_path / "two.sqlite")
    (root / "rubi").rename(root / "lib")
    git_init(root)
    one = build_code_map(root, tmp_path / "one.sqlite")
    monkeypatch.delenv(forked.PROCS_ENV)
    monkeypatch.setattr(scan_module, "FORK_MIN_FILES", 10)
    two = build_code_map(root, tmp_path / "two.sqlite")
    assert two.files == one.files
    assert two.warnings == one.warnings
    counts = ("parsed", "reused", "hashed", "skipped")
    assert [getattr(two.stats, c) for c in counts] == [getattr(one.stats, c) for c in counts]
    assert one.stats.reused > 200 and one.stats.parsed < 5
    again = build_code_map(root, tmp_path / "two.sqlite")  # the cache holds every parse
    assert again.files == one.files
    assert again.stats.parsed == 0


def test_a_cached_parse_that_does_not_decode_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child left a moved file's parse to this process, where the cached row turns
    out malformed: the file is parsed here, as one process would."""
    from rubi.codemap.cache import ParseCache

    root = _repo(tmp_path)
    monkeypatch.setenv(forked.PROCS_ENV, "1")
    fresh = build_code_map(root, tmp_path / "one.sqlite")
    build_code_map(root, tmp_path / "two.sqlite")
    (root / "rubi").rename(root / "lib")
    git_init(root)
    monkeypatch.setattr(ParseCache, "parses", lambda self, paths: {})  # every row malformed
    one = build_code_map(root, tmp_path / "one.sqlite")
    monkeypatch.delenv(forked.PROCS_ENV)
    monkeypatch.setattr(scan_module, "FORK_MIN_FILES", 10)
    two = build_code_map(root, tmp_path / "two.sqlite")
    assert two.files == one.files
    assert len(one.files) == len(fresh.files)
    assert two.warnings == one.warnings
    assert (two.stats.parsed, two.stats.reused) == (one.stats.parsed, one.stats.reused)
    assert one.stats.reused == 0
