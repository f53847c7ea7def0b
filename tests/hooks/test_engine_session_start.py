"""SessionStart through the engine: the same context as cold; in a host whose watcher
applies every change to the vault it reads the map without indexing first (the host
caught up when it started), and without a watcher it indexes what changed, as cold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.engine.server import Engine

from .test_engine import cold
from helpers import engine_answer, serving

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("runtime")]

WORD = "quokkaborealis"
"""A word only the note written during the test holds."""


@pytest.fixture
def engine(project: Path) -> Iterator[Engine]:
    with serving(project) as running:
        yield running


def _indexed(project: Path) -> bool:
    paths = app.locate(project / ".rubi")
    found = app.search(paths, WORD, scope="notes", refresh=False, personal=False)
    return any(WORD in h.id or WORD in h.title.lower() for h in found.hits)


def test_session_start_through_the_engine_reads_the_map_and_indexes_only_without_a_watcher(
    project: Path, engine: Engine
) -> None:
    paths = app.locate(project / ".rubi")
    raw = json.dumps({"session_id": "s-start", "cwd": str(project), "source": "startup"})
    expected = cold("SessionStart", raw)
    assert "additionalContext" in expected
    assert engine_answer("SessionStart", raw) == expected

    note = project / ".rubi" / "notes" / f"{WORD}.md"
    note.write_text(f"---\ntype: note\ntitle: {WORD} habitat\n---\nWhere {WORD} live.\n")
    app.set_watched(paths, True)  # as `rubi serve` and `rubi watch` say once caught up
    try:
        assert engine_answer("SessionStart", raw) is not None
        assert not _indexed(project)  # the watcher's job: the hook did not index
    finally:
        app.set_watched(paths, False)
    assert engine_answer("SessionStart", raw) is not None
    assert _indexed(project)  # no watcher: the hook brought the index up to date
