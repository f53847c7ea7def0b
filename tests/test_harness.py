"""The harness itself: every test runs in its own working folder, HOME and cache, and
the repository check sees what a test would write into the tree."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import REPO, tree_changes, tree_state, write


def test_working_folder_home_and_cache_are_the_tests_own(
    tmp_path: Path, isolated_home: Path
) -> None:
    assert Path.cwd() == tmp_path
    assert REPO not in Path.cwd().parents and Path.cwd() != REPO
    assert os.environ["HOME"] == str(isolated_home)
    from rubi.core.paths import cache_home, config_home

    assert isolated_home in cache_home().parents
    assert isolated_home in config_home().parents


def test_the_repository_check_sees_writes(tmp_path: Path) -> None:
    tree = tmp_path / "repo"
    write(tree / ".rubi" / "map.md", "# Map\n")
    write(tree / "src" / "m.py", "x = 1\n")
    write(tree / "pyproject.toml", "[project]\n")
    write(tree / ".venv" / "lib.py", "")
    before = tree_state(tree)

    write(tree / ".rubi" / "map.md", "# Map, regenerated\n")
    write(tree / ".rubi" / ".index" / "hooks.log", "line\n")
    write(tree / "src" / "m.py", "x = 2\n")
    write(tree / "src" / "new.py", "")
    write(tree / "pyproject.toml", "[project]\nname = 'x'\n")
    write(tree / "build" / "out.txt", "")
    write(tree / ".venv" / "lib.py", "changed")  # a tool folder: never counted
    write(tree / ".coverage", "data")
    write(tree / "src" / "__pycache__" / "m.cpython-311.pyc", b"\x00")  # any import does this
    after = tree_state(tree)

    assert tree_changes(before, after, strict=False) == [
        "+ .rubi/.index",
        "+ .rubi/.index/hooks.log",
        "+ build/out.txt",
        "~ .rubi/map.md",
    ]
    strict = tree_changes(before, after, strict=True)
    assert "~ src/m.py" in strict and "+ src/new.py" in strict
    assert "~ pyproject.toml" in strict and "+ build" in strict
    assert not any(".venv" in line or ".coverage" in line for line in strict)
    assert "~ src" not in strict and not any("__pycache__" in line for line in strict)
    assert tree_changes(after, tree_state(tree), strict=True) == []
