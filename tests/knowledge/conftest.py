from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths

from helpers import rubi_project


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with two source files and a project vault."""
    return rubi_project(
        tmp_path / "repo",
        {"src/auth.py": "def login():\n    pass\n", "src/db.py": "def connect():\n    pass\n"},
    )


@pytest.fixture
def vault(repo: Path) -> VaultPaths:
    return app.locate(repo / ".rubi")
