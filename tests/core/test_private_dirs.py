"""The user's derived-data folders are private from their first missing parent down:
another local user cannot even list which projects have an index."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import cache_home, ensure_private_dir

from helpers import rubi_project

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_missing_folder_is_created_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        leaf = ensure_private_dir(tmp_path / "a" / "b" / "c")
    finally:
        os.umask(old)
    assert [_mode(p) for p in (tmp_path / "a", tmp_path / "a" / "b", leaf)] == [0o700] * 3


def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir(mode=0o755)
    os.chmod(tmp_path / "shared", 0o755)
    ensure_private_dir(tmp_path / "shared" / "mine")
    assert _mode(tmp_path / "shared") == 0o755
    assert _mode(tmp_path / "shared" / "mine") == 0o700


def test_the_index_folders_of_a_first_index_are_private(tmp_path: Path) -> None:
    root = rubi_project(tmp_path / "proj", {"src/app.py": "x = 1\n"})
    assert not cache_home().exists()
    old = os.umask(0o022)
    try:
        app.index(app.locate(root / ".rubi"))
    finally:
        os.umask(old)
    assert _mode(cache_home()) == 0o700
    assert _mode(cache_home() / "indexes") == 0o700
