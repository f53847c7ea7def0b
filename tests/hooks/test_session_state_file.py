"""The per-session state file the hooks keep: read back field by field, so a file an
older rubi wrote (with keys it no longer keeps) loads, and loses those keys when the
state is next written."""

from __future__ import annotations

import json
from pathlib import Path

from hooks.hookhelpers import base
from rubi.claude.hooks.context import open_context


def test_a_state_file_from_an_older_rubi_loads_and_drops_the_keys_no_hook_reads(
    project: Path,
) -> None:
    context = open_context(base(project, "PostToolUse", tool_name="Grep"), "PostToolUse")
    path = context.state_path()
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"explorations": 3, "meter_asked": True, "harvest_asked": True}),
        encoding="utf-8",
    )
    with context.session_state() as state:
        assert (state.explorations, state.meter_asked) == (3, True)
        state.explorations += 1
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["explorations"] == 4 and saved["meter_asked"] is True
    assert "harvest_asked" not in saved


def test_saving_the_session_state_writes_it_whole_without_an_fsync(
    project: Path, monkeypatch
) -> None:
    import os

    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    context = open_context(base(project, "PostToolUse", tool_name="Grep"), "PostToolUse")
    path = context.state_path()
    assert path is not None
    for n in range(3):
        with context.session_state() as state:
            state.explorations += 1
        assert json.loads(path.read_text(encoding="utf-8"))["explorations"] == n + 1
    assert synced == []
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_damaged_or_empty_state_file_reads_as_a_fresh_state(project: Path) -> None:
    context = open_context(base(project, "PostToolUse", tool_name="Grep"), "PostToolUse")
    path = context.state_path()
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in ("", '{"explorations": 2', "[]"):
        path.write_text(text, encoding="utf-8")
        assert context.load_state().explorations == 0
