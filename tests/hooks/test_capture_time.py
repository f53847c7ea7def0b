"""A captured turn stamped with a given time (a past conversation replayed)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rubi import app


def test_capture_turn_at_a_given_time(project: Path) -> None:
    vault = app.locate(project / ".rubi")
    when = dt.datetime(2023, 5, 8, 13, 56, tzinfo=dt.UTC).timestamp()
    assert app.capture_turn(
        vault, "past", "I went to a support group yesterday.", "How was it?", now=when
    )
    assert app.capture_turn(vault, "past", "Powerful.", None, now=when + 60)
    path = app.session_file(vault, "past")
    assert path.name == "2023-05-08-past.md"
    text = path.read_text(encoding="utf-8")
    assert "created: '2023-05-08T13:56:00Z'" in text
    assert "### 13:56\n\n**User:** I went to a support group yesterday." in text
    assert "### 13:57\n\n**User:** Powerful." in text
