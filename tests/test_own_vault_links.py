"""The project's own notes (``.rubi/``) link only to notes they have: a literal
wikilink in an example (``- by [[author]]`` written as prose, not code) is a dangling
link every ``rubi doctor`` of the project reports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rubi import app

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(300)
def test_the_projects_own_notes_have_no_dangling_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    vault = tmp_path / "vault"
    shutil.copytree(ROOT / ".rubi" / "notes", vault / "notes")
    paths = app.locate(vault)
    app.index(paths)
    assert app.status(paths).dangling == 0
