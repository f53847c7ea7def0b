"""A timeline is newest first within a day too: a day's entries by when their file last
changed. Sorted by id alone, four captured sessions of one day (ids of random UUIDs)
were listed 14:10, 14:11, 14:11, 14:10."""

from __future__ import annotations

import os
from pathlib import Path

from rubi import app
from rubi.app.timeline import render_timeline, timeline

from helpers import write

DAY = 1_776_000_000  # 2026-04-12 13:20 UTC, in seconds


def test_a_day_s_entries_are_newest_first(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    changed = {"a-first": 60, "b-third": 180, "c-second": 120}  # seconds into the day
    for name, offset in changed.items():
        note = vault / "sessions" / f"2026-04-12-{name}.md"
        write(note, f"---\ncreated: '2026-04-12'\n---\n# Session {name}\n\nquokka\n")
        os.utime(note, ns=((DAY + offset) * 10**9,) * 2)
    write(vault / "notes" / "earlier.md", "---\ncreated: '2026-04-11'\n---\n# Earlier\n")
    paths = app.locate(vault)
    app.index(paths)
    t = timeline(paths, "2026-04-12", days=1)
    assert [e.id for e in t.entries] == [
        "sessions/2026-04-12-b-third",
        "sessions/2026-04-12-c-second",
        "sessions/2026-04-12-a-first",
        "notes/earlier",
    ]
    assert "newest first" in render_timeline(t)
