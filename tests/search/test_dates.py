"""Every hit carries its day; --since/--until keep a window of days; a timeline lists
what happened around a hit; a date written in digits is found in
words."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.core.gitrepo import head
from rubi.dates.days import note_day, parse_day, spelled_days
from rubi.dates.hitdays import _COMMIT_DAYS, commit_days
from rubi.dates.window import DateWindow

from helpers import rubi_project, write


def _note(vault: Path, name: str, body: str, **meta: str) -> None:
    front = "".join(f"{k}: {v}\n" for k, v in meta.items())
    write(vault / "notes" / f"{name}.md", f"---\n{front}---\n# {name}\n\n{body}\n")


@pytest.fixture
def dated_vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    _note(vault, "Early quokka", "quokkas at the start", created="2026-01-05")
    _note(vault, "Middle quokka", "quokkas in spring", created="2026-03-01", updated="2026-04-10")
    _note(vault, "Late quokka", "quokkas in winter", updated="'2026-11-30T08:00:00Z'")
    undated = write(vault / "notes" / "Undated quokka.md", "# Undated quokka\n\nquokkas\n")
    stamp = dt.datetime(2025, 6, 1, 12, tzinfo=dt.UTC).timestamp()
    os.utime(undated, (stamp, stamp))
    return vault


def test_days_from_frontmatter_values_and_text() -> None:
    assert parse_day(dt.date(2023, 10, 13)) == "2023-10-13"
    assert parse_day("2023-10-13T09:00:00Z") == "2023-10-13"
    assert parse_day("2023-02-30") == parse_day("soon") == parse_day(3) == ""
    assert note_day({"created": "2023-01-01", "updated": "2023-02-01"}) == "2023-02-01"
    assert spelled_days("met on 2023-10-13, again 2023-10-13 and 2024-02-29; v1-2023-99-99") == (
        "October 13, 2023\nFebruary 29, 2024"
    )


def test_a_cloned_vault_dates_notes_by_their_date_field_or_their_name(tmp_path: Path) -> None:
    """A clone gives every file the day of the clone: the days the notes carry (Hugo's
    ``date`` and ``lastmod``, Obsidian's ``modified``, a daily note's or a post's file
    name) are theirs; a note with none keeps its file's day."""
    vault = tmp_path / "vault"
    _note(vault, "Hugo wombat", "wombats in hugo", date="2021-03-04")
    _note(vault, "Edited wombat", "wombats edited", date="2021-03-04", lastmod="2022-05-06")
    _note(vault, "Obsidian wombat", "wombats in obsidian", modified="2023-07-08")
    write(vault / "daily" / "2024-01-05.md", "# 2024-01-05\n\nwombats at dawn\n")
    write(vault / "blog" / "2019-11-26-wombat-release.md", "# Release\n\nwombats shipped\n")
    write(vault / "blog" / "2019-13-40-bad-day.md", "# Bad day\n\nwombats misdated\n")
    stamp = dt.datetime(2025, 6, 1, 12, tzinfo=dt.UTC).timestamp()
    for path in vault.rglob("*.md"):
        os.utime(path, (stamp, stamp))
    days = {h.id: h.date for h in app.search(app.locate(vault), "wombats", top_k=10).hits}
    assert days == {
        "notes/Hugo wombat": "2021-03-04",
        "notes/Edited wombat": "2022-05-06",
        "notes/Obsidian wombat": "2023-07-08",
        "daily/2024-01-05": "2024-01-05",
        "blog/2019-11-26-wombat-release": "2019-11-26",
        "blog/2019-13-40-bad-day": "2025-06-01",  # no such day: the file's
    }


def test_a_window_is_checked() -> None:
    assert DateWindow.of(None, "").open
    assert DateWindow.of("2026-01-01", None).holds("2026-01-01")
    assert not DateWindow.of("2026-01-01", None).holds("")
    for since, until in (("2026-1-1", None), (None, "yesterday"), ("2026-02-01", "2026-01-01")):
        with pytest.raises(ValueError):
            DateWindow.of(since, until)


def test_hits_carry_their_day_and_a_window_keeps_some(dated_vault: Path) -> None:
    paths = app.locate(dated_vault)
    days = {h.id: h.date for h in app.search(paths, "quokkas").hits}
    assert days == {
        "notes/Early quokka": "2026-01-05",
        "notes/Middle quokka": "2026-04-10",  # updated before created
        "notes/Late quokka": "2026-11-30",
        "notes/Undated quokka": "2025-06-01",  # the file's time
    }
    kept = app.search(paths, "quokkas", since="2026-01-05", until="2026-04-10").hits
    assert {h.id for h in kept} == {"notes/Early quokka", "notes/Middle quokka"}
    assert [h.id for h in app.search(paths, "quokkas", since="2026-05-01").hits] == [
        "notes/Late quokka"
    ]
    with pytest.raises(RubiError, match="since"):
        app.search(paths, "quokkas", since="May")


def test_the_cli_shows_days_and_filters(dated_vault: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(
        cli, ["search", "quokkas", "--until", "2026-01-31", "--vault", str(dated_vault)]
    )
    assert out.exit_code == 0, out.output
    assert "Early quokka — notes/Early quokka.md · 2026-01-05" in out.stdout
    assert "Late quokka" not in out.stdout
    got = runner.invoke(
        cli, ["search", "quokkas", "--json", "--since", "2026-11-01", "--vault", str(dated_vault)]
    )
    assert [h["date"] for h in json.loads(got.stdout)["hits"]] == ["2026-11-30"]
    bad = runner.invoke(
        cli, ["search", "quokkas", "--since", "2026-13-01", "--vault", str(dated_vault)]
    )
    assert bad.exit_code != 0 and "YYYY-MM-DD" in bad.output


def test_a_day_in_digits_is_found_in_words(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write(
        vault / "sessions" / "2023-10-13-abc.md",
        "# Session\n\n### 10:00\n**User:** picnic plans on 2023-10-13\n",
    )
    write(vault / "notes" / "Other.md", "# Other\n\nOctober plans for a picnic in 2022\n")
    paths = app.locate(vault)
    hits = app.search(paths, "picnic on October 13, 2023", scope="sessions").hits
    assert [h.id for h in hits] == ["sessions/2023-10-13-abc"]


def test_a_code_file_is_dated_by_its_last_commit(tmp_path: Path) -> None:
    from codemap.codemap_helpers import git

    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "def route_zebra():\n    return 1\n"})
    write(root / "pkg" / "router.py", "def route_zebra():\n    return 2\n")
    env = {
        "GIT_COMMITTER_DATE": "2024-02-03T10:00:00+00:00",
        "GIT_AUTHOR_DATE": "2024-02-03T10:00:00+00:00",
    }
    os.environ.update(env)
    try:
        git(root, "commit", "-qam", "change")
    finally:
        for key in env:
            os.environ.pop(key)
    hits = app.search(app.locate(root / ".rubi"), "route zebra", scope="code").hits
    assert [(h.id, h.date) for h in hits] == [("pkg/router.py", "2024-02-03")]


def test_commit_days_keep_one_head_per_work_tree(tmp_path: Path) -> None:
    """A new commit is answered afresh, and the days read for the older HEAD are let go."""
    from codemap.codemap_helpers import git

    root = rubi_project(tmp_path / "proj", {"pkg/a.py": "A = 1\n"})
    first = commit_days(root, ["pkg/a.py"])
    write(root / "pkg" / "a.py", "A = 2\n")
    os.environ["GIT_COMMITTER_DATE"] = os.environ["GIT_AUTHOR_DATE"] = "2024-02-03T10:00:00Z"
    try:
        git(root, "commit", "-qam", "change")
    finally:
        os.environ.pop("GIT_COMMITTER_DATE")
        os.environ.pop("GIT_AUTHOR_DATE")
    assert commit_days(root, ["pkg/a.py"]) == {"pkg/a.py": "2024-02-03"} != first
    assert [k for k in _COMMIT_DAYS if k[0] == str(root)] == [(str(root), head(root))]


def test_a_timeline_lists_the_days_around_a_hit(dated_vault: Path) -> None:
    from rubi.app.timeline import render_timeline, timeline

    write(
        dated_vault / "sessions" / "2026-04-11-s1.md",
        "---\ncreated: '2026-04-11T09:00:00Z'\n---\n# Session\n\n### 09:00\n"
        "**User:** why do quokkas smile\n\n**Claude:** they do not\n```\n### 10:00\n```\n\n"
        "### 09:05\n**User:** ok\n",
    )
    write(
        dated_vault / "handoffs" / "2026-04-09-1200.md",
        "---\ncreated: '2026-04-09'\n---\n# Handoff\n\nquokka survey next\n",
    )
    paths = app.locate(dated_vault)
    app.index(paths)
    t = timeline(paths, "notes/Middle quokka", days=2)
    assert (t.centre, t.since, t.until) == ("2026-04-10", "2026-04-08", "2026-04-12")
    assert [(e.day, e.kind, e.id) for e in t.entries] == [
        ("2026-04-11", "session", "sessions/2026-04-11-s1"),
        ("2026-04-10", "note", "notes/Middle quokka"),
        ("2026-04-09", "handoff", "handoffs/2026-04-09-1200"),
    ]
    assert t.entries[0].turns == ("09:00 why do quokkas smile", "09:05 ok")
    assert "2026-04-11  [session]" in render_timeline(t)
    assert [e.id for e in timeline(paths, "2026-01-06", days=1).entries] == ["notes/Early quokka"]
    with pytest.raises(RubiError):
        timeline(paths, "no such note")
    out = CliRunner().invoke(
        cli, ["timeline", "Early quokka", "--json", "--vault", str(dated_vault)]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["centre"] == "2026-01-05"


def test_a_hit_says_where_its_day_comes_from(tmp_path: Path) -> None:
    """A copied vault's or a fresh clone's undated notes carry the day they were
    copied: the header marks a file's time, so it does not read as written that day; a
    code file's last commit day is shown unmarked (the JSON says ``commit``: an
    uncommitted edit is newer) and a note's own day as it is."""
    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "def route_zebra():\n    return 1\n"})
    vault = root / ".rubi"
    _note(vault, "Dated zebra", "zebras routed", updated="2026-04-10")
    write(vault / "notes" / "Copied zebra.md", "# Copied zebra\n\nzebras routed\n")
    write(vault / "daily" / "2024-01-05.md", "# 2024-01-05\n\nzebras routed\n")
    write(root / "pkg" / "router.py", "def route_zebra():\n    return 2  # zebras routed\n")
    paths = app.locate(vault)
    hits = app.search(paths, "zebras routed route_zebra", top_k=10).hits
    sources = {h.id: h.date_source for h in hits}
    assert {k: v for k, v in sources.items() if not k.startswith("modules/")} == {
        "notes/Dated zebra": "frontmatter",
        "notes/Copied zebra": "file time",
        "daily/2024-01-05": "file name",
        "pkg/router.py": "commit",  # the edit above is not committed
    }
    runner = CliRunner()
    out = runner.invoke(cli, ["search", "zebras routed route_zebra", "--vault", str(vault)])
    assert out.exit_code == 0, out.output
    day = dt.datetime.now(dt.UTC).date().isoformat()
    assert f"notes/Copied zebra.md · {day} (file time)\n" in out.stdout
    committed = next(h.date for h in hits if h.kind == "file")
    assert f"pkg/router.py · {committed}\n" in out.stdout
    assert "notes/Dated zebra.md · 2026-04-10\n" in out.stdout
    got = runner.invoke(cli, ["search", "zebras", "--json", "--vault", str(vault)])
    sources = {h["id"]: h["date_source"] for h in json.loads(got.stdout)["hits"]}
    assert sources["notes/Copied zebra"] == "file time"
