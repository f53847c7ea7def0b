"""Helpers to build small repositories in ``tmp_path`` (imported by the code map tests)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from rubi.codemap import CodeMap

from helpers import rubi_project, write

Files = Mapping[str, str | bytes]

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def write_files(root: Path, files: Files) -> Path:
    """Write ``{relative path: text or bytes}`` under ``root``."""
    for rel, content in files.items():
        write(root / rel, content)
    return root


def git(root: Path, *args: str) -> str:
    """Run git in ``root`` with a clean, local identity."""
    proc = subprocess.run(
        ["git", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **_GIT_ENV},
    )
    return proc.stdout


def git_init(root: Path, *, commit: bool = False) -> Path:
    """Make ``root`` a git repository (files added; committed when asked)."""
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    if commit:
        git(root, "commit", "-q", "-m", "init")
    return root


def edges_of(code_map: CodeMap) -> set[tuple[str, str]]:
    """The import graph as a set of (importer, imported)."""
    return set(code_map.edges)


HOUR_NS = 3600 * 1_000_000_000


def age_files(root: Path) -> None:
    """Date every file an hour back, as files are unless just edited (so a file written
    in the same clock tick as the cache still counts as changed)."""
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            st = path.stat()
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - HOUR_NS))


def indexed_code_project(root: Path, files: Mapping[str, str]) -> Path:
    """A rubi project of ``files`` at ``root``, its files dated an hour back
    (:func:`age_files`) and indexed once."""
    from rubi import app

    rubi_project(root, dict(files))
    age_files(root)
    app.index(app.locate(root / ".rubi"))
    return root
