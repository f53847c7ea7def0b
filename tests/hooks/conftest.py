from __future__ import annotations

from pathlib import Path

import pytest

from helpers import login_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return login_project(tmp_path / "proj")
