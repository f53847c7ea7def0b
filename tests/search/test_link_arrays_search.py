"""A link changed between two searches of one process is walked by the second: the
graph's kept successor rows (rubi.graph.linkarrays) are made again for the changed
graph, and the answer is the one the graph's dicts give."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.graph import linkarrays
from rubi.search import ppr

from helpers import write

pytest.importorskip("numpy")  # loaded: the walk runs on arrays

QUESTION = "roll back a bad release of the payment service"


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "v"
    write(vault / "a.md", "# Deploy checklist\n\nRun the migrations first. See [[Rollback]].\n")
    write(
        vault / "b.md",
        "# Rollback\n\nHow to roll back a bad release of the payment service.\n"
        "See [[Deploy checklist]].\n",
    )
    write(vault / "c.md", "# Payment outage\n\nThe payment service release went bad.\n")
    write(vault / "d.md", "# Cafe\n\nThe office cafe and its lunch menu.\n")
    return vault


def _answer(paths: Any) -> tuple[list[str], list[list[str]]]:
    result = app.search(paths, QUESTION)
    return [h.id for h in result.hits], [list(map(str, h.why)) for h in result.hits]


def test_a_link_changed_between_two_searches_is_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(linkarrays, "BUILD_SHARE", 0.0)  # rows on a version's first walk
    monkeypatch.setattr(ppr, "ARRAY_NODES", 1)
    made: list[int] = []
    make = linkarrays._make

    def counted(*args: Any) -> Any:
        made.append(1)
        return make(*args)

    monkeypatch.setattr(linkarrays, "_make", counted)
    vault = _vault(tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    first = _answer(paths)
    assert made and "a" in first[0]  # linked to the rollback note
    assert _answer(paths) == first and len(made) == 1  # the same version: rows kept
    # the deploy checklist no longer links; a new note and the outage note do
    write(vault / "a.md", "# Deploy checklist\n\nRun the migrations first.\n")
    write(vault / "e.md", "# Incident review\n\nWhat we learnt. See [[Rollback]].\n")
    write(vault / "d.md", "# Cafe\n\nThe office cafe. See [[Payment outage]].\n")
    second = _answer(paths)
    assert len(made) >= 2  # made again for the changed graph
    monkeypatch.setattr(linkarrays, "link_arrays", lambda *args: None)  # the dicts alone
    assert _answer(paths) == second
    assert second != first
