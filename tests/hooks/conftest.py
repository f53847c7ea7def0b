from __future__ import annotations

from pathlib import Path

import pytest

from helpers import login_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return login_project(tmp_path / "proj")


@pytest.fixture(autouse=True)
def _one_shot_settings_stay_in_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hook run in process through ``rubi.entry`` applies the settings of a one-shot
    process (the vectors read on demand, the graph read frozen); they end with the test."""
    from rubi.graph import snapshot
    from rubi.semantic import dense

    monkeypatch.setattr(dense, "_ON_DEMAND", dense._ON_DEMAND)
    monkeypatch.setattr(snapshot, "_frozen", snapshot._frozen)
