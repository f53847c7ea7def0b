from __future__ import annotations

from pathlib import Path

import pytest

from codemap.codemap_helpers import git
from rubi import app
from rubi.paths import VaultPaths

from helpers import write


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with two source files and a project vault."""
    root = tmp_path / "repo"
    write(root / "src" / "auth.py", "def login():\n    pass\n")
    write(root / "src" / "db.py", "def connect():\n    pass\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    app.init_project(root)
    return root


@pytest.fixture
def vault(repo: Path) -> VaultPaths:
    return app.locate(repo / ".rubi")
