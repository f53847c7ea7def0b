"""The server's warm-up ends with a full collection (:func:`rubi.core.collector.settle`):
what it loaded is walked once while the server is idle, not by a middle collection in
the first client search after it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.core.collector import pause_collector, resident_collector, resume_collector
from rubi.core.paths import VaultPaths
from rubi.mcp.startup import warm_vault

from helpers import write


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations collected while the test runs, in order; the collector and its
    thresholds as they were afterwards."""
    was, threshold = gc.isenabled(), gc.get_threshold()
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        resume_collector()
        gc.set_threshold(*threshold)
        (gc.enable if was else gc.disable)()


def _vault(tmp_path: Path) -> VaultPaths:
    root = tmp_path / "vault"
    for i in range(40):
        write(root / f"note {i}.md", f"# Note {i}\n\nproject memory, part {i}: [[note {i + 1}]]\n")
    paths = app.locate(root)
    app.index(paths)
    return paths


def test_the_warm_up_ends_with_a_full_collection(tmp_path: Path, collections: list[int]) -> None:
    paths = _vault(tmp_path)
    gc.enable()
    resident_collector()  # as in a server: young collections every 10,000
    gc.collect()
    del collections[:]
    warm_vault(paths)
    assert collections, "nothing collected"
    assert collections[-1] == 2  # the last collection walked every generation
    # so nothing the warm-up made waits in the middle generation for a client's call
    assert gc.get_count()[1:] == (0, 0)


def test_a_paused_collector_stays_paused_through_the_warm_up(
    tmp_path: Path, collections: list[int]
) -> None:
    paths = _vault(tmp_path)
    gc.enable()
    pause_collector()
    del collections[:]
    warm_vault(paths)
    assert not gc.isenabled()
    assert collections == []
