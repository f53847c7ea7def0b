"""Relative times resolved against the day a text was written, and spelled into the
indexed text of a note (never its file)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rubi import app
from rubi.dates.days import day_keys
from rubi.dates.relativedays import MAX_RESOLVED, resolve_relative, resolved_days

MONDAY = dt.date(2023, 5, 8)


@pytest.mark.parametrize(
    ("phrase", "spelled"),
    [
        ("yesterday", ["May 7, 2023"]),
        ("last night", ["May 7, 2023"]),
        ("the day before yesterday", ["May 6, 2023"]),
        ("today", ["May 8, 2023"]),
        ("this morning", ["May 8, 2023"]),
        ("tomorrow", ["May 9, 2023"]),
        ("the day after tomorrow", ["May 10, 2023"]),
        ("two days ago", ["May 6, 2023"]),
        ("3 days ago", ["May 5, 2023"]),
        ("a couple of days ago", ["May 6, 2023"]),
        ("ten days from now", ["May 18, 2023"]),
        ("last Friday", ["May 5, 2023"]),
        ("last Monday", ["May 1, 2023"]),  # on a Monday: the one a week before
        ("next Monday", ["May 15, 2023"]),
        ("this Friday", ["May 12, 2023"]),
        ("last weekend", ["May 6, 2023", "May 7, 2023"]),
        ("this weekend", ["May 13, 2023", "May 14, 2023"]),
        ("last week", ["week of May 1, 2023"]),
        ("two weeks ago", ["week of April 24, 2023"]),
        ("next week", ["week of May 15, 2023"]),
        ("last month", ["April 2023"]),
        ("next month", ["June 2023"]),
        ("five months ago", ["December 2022"]),
        ("last year", ["2022"]),
        ("a year ago", ["2022"]),
    ],
)
def test_each_phrase_resolves_against_the_anchor(phrase: str, spelled: list[str]) -> None:
    text = f"We spoke {phrase}, remember?"
    found = list(resolve_relative(text, MONDAY))
    assert [(text[s:e], days) for s, e, days in found] == [(phrase, spelled)]


def test_month_and_year_carry_across_the_new_year() -> None:
    jan = dt.date(2024, 1, 15)
    assert resolved_days("last month", jan) == "December 2023"
    assert resolved_days("in two months from now", jan) == "March 2024"


@pytest.mark.parametrize(
    "text",
    [
        "recently we met",
        "a few days ago",
        "on Friday we met",
        "the last weekday",
        "yesterdays",
        "this weekday",
        "monthly",
    ],
)
def test_open_or_unrelated_words_are_left_alone(text: str) -> None:
    assert resolved_days(text, MONDAY) == ""


def test_each_resolved_day_is_listed_once_in_order() -> None:
    text = "I went to a LGBTQ support group yesterday.\nLast week too, and last night."
    assert resolved_days(text, MONDAY) == "May 7, 2023\nweek of May 1, 2023"


def test_a_long_text_resolves_a_bounded_number_of_phrases() -> None:
    text = "yesterday " * (MAX_RESOLVED + 50)
    assert len(list(resolve_relative(text, MONDAY))) == MAX_RESOLVED


def test_dates_out_of_range_are_skipped() -> None:
    assert resolved_days("yesterday", dt.date(1, 1, 1)) == ""
    assert resolved_days("next year", dt.date(9999, 6, 1)) == ""
    assert resolved_days("next month", dt.date(9999, 12, 1)) == ""


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("2023-05-07", ["20230507"]),
        ("on May 7, 2023", ["20230507"]),
        ("on 7 May, 2023", ["20230507"]),
        ("on 8th December, 2023 and the 1st of Feb 2022", ["20231208", "20220201"]),
        ("Sept. 3 2021 then 2021-09-03", ["20210903"]),
        ("the week of May 1, 2023", []),  # a week's Monday is not a day it names
        ("May 32, 2023 or 2023-02-30", []),
        ("in May 2023, you may 10 times", []),
    ],
)
def test_day_keys_name_each_day_one_way(text: str, keys: list[str]) -> None:
    assert day_keys(text) == keys


def test_a_captured_turn_is_found_by_the_day_it_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question naming a day finds the session whose turn said "yesterday" (of
    sessions all in that month), and the record file keeps the words as written. The
    text match is tested: the dense channel is off (on three one-line records it
    ranks by the closest line, whatever the day)."""
    monkeypatch.setenv("RUBI_SEMANTIC", "0")
    project = tmp_path / "proj"
    project.mkdir()
    app.init_project(project)
    vault = app.locate(project / ".rubi")
    day = 86_400.0
    when = dt.datetime(2023, 5, 8, 13, 56, tzinfo=dt.UTC).timestamp()
    app.capture_turn(vault, "s1", "We went to the support group yesterday.", "Nice!", now=when)
    app.capture_turn(vault, "s2", "Back at the support group.", "Good.", now=when + 9 * day)
    app.capture_turn(vault, "s3", "The support group again.", "Fine.", now=when + 3 * day)
    app.index(vault)
    for question in ("the support group on 7 May, 2023", "support group on May 7th, 2023"):
        hits = app.search(vault, question, scope="sessions", top_k=3)
        assert hits.hits[0].id == "sessions/2023-05-08-s1"
        assert hits.terms == ()  # the day's word is the search's, not the caller's
    text = app.session_file(vault, "s1").read_text(encoding="utf-8")
    assert "yesterday." in text and "May 7" not in text and "20230507" not in text


def test_a_notes_days_field_holds_resolved_days_and_keys() -> None:
    from rubi.core.model import Note
    from rubi.index.documents import note_document

    def fields(metadata: dict[str, object]) -> dict[str, str]:
        note = Note(id="n", path="n.md", title="n", metadata=metadata, body="Fixed it yesterday.")
        return note_document(note).fields

    assert fields({})["days"] == ""
    assert fields({})["body"] == "Fixed it yesterday."
    updated = fields({"updated": "2024-02-01"})
    assert updated["days"] == "January 31, 2024\n20240201 20240131"
    assert updated["body"].startswith("Fixed it yesterday.\n")  # the body as before
    assert "January 31" not in updated["body"]
    created = fields({"created": "2024-03-01", "updated": "2024-02-01"})
    assert created["days"] == "February 29, 2024\n20240301 20240201 20240229"
