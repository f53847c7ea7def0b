"""A project with a vault, for the tests of what reaches the files a team commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app

from helpers import write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with ``.rubi/`` made by ``rubi init`` and indexed."""
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    app.index(app.locate(root / ".rubi"))
    return root
