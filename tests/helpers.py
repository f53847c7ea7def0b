"""Helpers shared by tests: paths of the real data, copying vaults, writing files."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("RUBI_SHARED_DATA", REPO.parent / "shared" / "data"))
VAULTS = SHARED_DATA / "vaults"


def require_data(path: Path) -> Path:
    """``path`` from the shared data; a test without it is skipped on a developer's
    machine and fails in CI (``CI`` set), so the suite cannot shrink quietly."""
    if path.exists():
        return path
    message = f"{path} not present (set RUBI_SHARED_DATA to the shared data folder)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def copy_vault(name: str, dest: Path) -> Path:
    """Copy a real vault from the shared data into ``dest`` (writable)."""
    src = require_data(VAULTS / name)
    target = dest / name
    shutil.copytree(src, target)
    for p in [target, *target.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    return target


def write(path: Path, text: str | bytes) -> Path:
    """Write a file, creating folders (bytes as they are, text as UTF-8)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def rubi_project(root: Path, files: dict[str, str]) -> Path:
    """A committed git repository holding ``files`` (path → text), with ``rubi init``
    done: the shape of every project test."""
    from codemap.codemap_helpers import git
    from rubi import app

    for rel, text in files.items():
        write(root / rel, text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    app.init_project(root)
    return root
