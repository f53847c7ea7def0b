"""The cyclic collector's pace in ``rubi serve``: young collections every
``RESIDENT_YOUNG`` allocations, not CPython's 700 (a search allocates hundreds of
thousands of short-lived containers)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi.core.collector import RESIDENT_YOUNG, resident_collector
from rubi.mcp import server, startup

from helpers import write


@pytest.fixture
def threshold() -> Iterator[None]:
    kept = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*kept)


@pytest.mark.usefixtures("threshold")
def test_a_resident_process_collects_its_young_generation_less_often() -> None:
    gc.set_threshold(700, 10, 10)
    resident_collector()
    assert gc.get_threshold() == (RESIDENT_YOUNG, 10, 10)


@pytest.mark.usefixtures("threshold")
@pytest.mark.parametrize("chosen", [0, RESIDENT_YOUNG * 5])
def test_a_slower_pace_chosen_already_is_kept(chosen: int) -> None:
    gc.set_threshold(chosen, 7, 9)
    resident_collector()
    assert gc.get_threshold() == (chosen, 7, 9)


@pytest.mark.usefixtures("threshold")
def test_serve_sets_the_pace_before_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = tmp_path / "vault"
    write(vault / "note.md", "# Note\n\nText.\n")
    gc.set_threshold(700, 10, 10)
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(startup, "serve_stdio", lambda *a, **k: seen.append(gc.get_threshold()))
    server.serve(vault=vault)
    assert seen == [(RESIDENT_YOUNG, 10, 10)]
