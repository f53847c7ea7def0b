"""A search of code alone never loads the dense index: only notes are embedded, so
its dense list was always empty (NumPy, the vectors and every note's cosine for
nothing). Searches that may rank notes still load it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.semantic import dense, separation

from helpers import rubi_project


@pytest.mark.parametrize(("scope", "loads"), [("code", False), ("notes", True), ("all", True)])
def test_only_searches_that_may_rank_notes_load_the_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scope: str, loads: bool
) -> None:
    root = rubi_project(tmp_path / "proj", {"src/settings.py": "def read_settings():\n    pass\n"})
    paths = app.locate(root / ".rubi")
    app.index(paths)
    asked: list[Any] = []
    monkeypatch.setattr(separation, "list_may_vote", lambda index_dir, query: True)
    monkeypatch.setattr(
        dense, "dense_index_for", lambda index_dir, on_demand=None: asked.append(index_dir)
    )
    hits = app.search(paths, "read settings", scope=scope, top_k=3).hits
    assert asked == ([paths.index_dir] if loads else [])
    if scope == "code":
        assert [h.id for h in hits] == ["src/settings.py"]
