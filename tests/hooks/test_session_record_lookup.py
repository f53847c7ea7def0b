"""A session's record is found by listing ``sessions/``, not by a glob holding the
session id: the glob made ``fnmatch`` compile one new pattern per session, which the
kept patterns' file (``rubi.core.regexcode``) kept, and rewrote (300 KB, an fsync) at
every server's and cold Stop hook's exit."""

from __future__ import annotations

import re
from pathlib import Path

from rubi import app
from rubi.app.sessionrecord import _records_of, session_file

NAMES = [
    "2026-12-07-abc.md",
    "2026-12-7-abc.md",
    "xxxx-yy-zz-abc.md",
    "2026-12-07-abc.md.bak",
    "2026-12-07-xabc.md",
    "2026-12-07-abc.MD",
    ".026-12-07-abc.md",
    "2026_12-07-abc.md",
    "2026-12_07-abc.md",
    "2026-12-07_abc.md",
    "2026-12-07-abc-d.md",
    "2026-12-07-.md",
    "abc.md",
    "2026-12-07-abc-def0-12.md",
    "1999-01-01-abc-def0-12.md",
]


def test_the_listing_finds_what_the_glob_found(tmp_path: Path) -> None:
    for name in NAMES:
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / "2026-12-08-abc.md.d").mkdir()
    (tmp_path / "2026-12-09-abc.md").mkdir()  # the glob lists folders too
    for short in ("abc", "abc-d", "", "abc-def0-12", "xabc", "zzz"):
        assert _records_of(tmp_path, short) == sorted(tmp_path.glob(f"????-??-??-{short}.md"))


def test_a_session_s_record_compiles_no_pattern_of_its_id(tmp_path: Path) -> None:
    vault = tmp_path / "proj" / ".rubi"
    (vault / "sessions").mkdir(parents=True)
    paths = app.locate(vault)
    session = "5f0c1e2a-9b7d-4c3e-8a1f-0d2b3c4e5f6a"
    record = vault / "sessions" / f"1970-01-01-{session}.md"
    record.write_text("---\ntype: note\n---\n", encoding="utf-8")
    re.purge()
    assert session_file(paths, session) == record  # found by the listing
    held = [key for key in re._cache if "5f0c1e2a" in str(key)]  # type: ignore[attr-defined]
    assert not held  # (fnmatch writes the id with its hyphens escaped)
