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
