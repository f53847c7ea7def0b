"""The dates of a note's text, scanned once for its body and its ``days`` field, give
what one scan per function gave (the reference scans below are the former ones)."""

from __future__ import annotations

import datetime as dt
import random
import re

from rubi.dates.days import (
    MAX_SPELLED_DAYS,
    day_keys,
    spell_day,
    spelled_days,
    text_days,
)
from rubi.dates.relativedays import resolved_days

_REF_ISO = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?!\d)")
_REF_YEAR = re.compile(r"\b\d{4}\b")

_PIECES = [
    "2023-10-13",
    "2024-02-29",
    "2023-02-30",
    "0999-01-05",
    "12023-10-13",
    "x2023-01-01",
    "_2023-01-01",
    "-2023-01-01",
    "2023-01-011",
    "\u0661\u0662\u0663\u0664-\u0660\u0661-\u0660\u0662",  # Arabic-Indic digits
    "2023",
    "May 7, 2023",
    "7 May 2023",
    "7th of May, 2023",
    "week of May 1, 2023",
    "Sept. 3 2021",
    "yesterday",
    "last week",
    "two days ago",
    " ",
    "\n",
    "-",
    "a",
    "\u00e9",
    "\u00b2",
    "0",
    "9",
    "12",
    ",",
    "_",
    "x",
    "de",
    "que",
    "n\u00e3o",
    "the",
    "and",
    "as",
]


def _ref_date(y: str, m: str, d: str) -> dt.date | None:
    try:
        return dt.date(int(y), int(m), int(d))
    except ValueError:
        return None


def _ref_spelled(text: str) -> str:
    seen: dict[str, None] = {}
    for m in _REF_ISO.finditer(text):
        day = _ref_date(m[1], m[2], m[3])
        if day is not None:
            seen.setdefault(spell_day(day))
            if len(seen) >= MAX_SPELLED_DAYS:
                break
    return "\n".join(seen)


def _ref_iso_keys(text: str) -> list[str]:
    days = (_ref_date(m[1], m[2], m[3]) for m in _REF_ISO.finditer(text))
    return list(dict.fromkeys(d.strftime("%Y%m%d") for d in days if d is not None))


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(_PIECES, k=rng.randint(0, 60))) for _ in range(count)]


def test_one_scan_gives_what_each_function_found() -> None:
    for text in _texts(3000, 16):
        iso = text_days(text)
        assert spelled_days(text) == spelled_days("", iso) == _ref_spelled(text)
        keys = day_keys(text, iso)
        assert keys == day_keys(text)
        assert keys[: len(_ref_iso_keys(text))] == _ref_iso_keys(text)[:MAX_SPELLED_DAYS]


def test_years_are_four_digits_between_word_boundaries() -> None:
    from rubi.dates import days

    for text in _texts(3000, 17):
        assert days._YEAR.findall(text) == _REF_YEAR.findall(text)


def test_what_a_note_appends_holds_no_iso_date() -> None:
    """The index document scans the title and body for ISO dates once and gives
    those to ``day_keys`` for a text that also holds the dates in words and the
    resolved relative days."""
    for i, text in enumerate(_texts(3000, 18)):
        anchor = dt.date(2023, 5, 1 + i % 28)
        whole = f"T\n{text}\n{spelled_days(text)}\n{resolved_days(text, anchor)}"
        assert text_days(whole) == text_days(f"T\n{text}")


def test_many_dates_are_capped_the_same() -> None:
    start = dt.date(2020, 1, 1)
    text = " ".join((start + dt.timedelta(days=i)).isoformat() for i in range(450))
    text += " " + text  # repeated: still 450 distinct
    assert spelled_days(text) == _ref_spelled(text)
    assert len(spelled_days(text).splitlines()) == MAX_SPELLED_DAYS
    assert day_keys(text) == _ref_iso_keys(text)[:MAX_SPELLED_DAYS]


_PHRASE_PIECES = [
    "Yesterday",
    "LAST night",
    "the Day Before yesterday",
    "Two days Ago",
    "12 weeks from now",
    "a Couple of months ago",
    "Next Friday",
    "this WEEKEND",
    "past Year",
    "coming monday",
    "Today",
    "tonight",
    "This Morning",
    " ",
    "\n",
    "x",
    "_",
    "1",
    ",",
    "\u00e9",
    "\u212a",  # KELVIN SIGN: matches k only ignoring case (non-ASCII text)
]


def _ref_resolve(text: str, anchor: dt.date) -> list[tuple[int, int, list[str]]]:
    from rubi.dates import relativedays as R

    out = []
    for i, m in enumerate(R._PHRASE.finditer(text)):
        if i >= R.MAX_RESOLVED:
            break
        try:
            out.append((m.start(), m.end(), R._resolve(m, anchor)))
        except (OverflowError, ValueError, IndexError):
            continue
    return out


def test_relative_phrases_of_ascii_text_are_found() -> None:
    from rubi.dates.relativedays import resolve_relative

    rng = random.Random(20)
    anchor = dt.date(2023, 5, 8)
    for _ in range(3000):
        text = "".join(rng.choices(_PHRASE_PIECES, k=rng.randint(0, 30)))
        assert list(resolve_relative(text, anchor)) == _ref_resolve(text, anchor), text
    many = "yesterday " * 700
    assert list(resolve_relative(many, anchor)) == _ref_resolve(many, anchor)
