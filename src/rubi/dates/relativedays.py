"""Relative times of a text ("yesterday", "last week", "two days ago", "last Friday",
"next month", "this weekend") resolved against the day the text was written, so a
question that names the day in words ("on May 7, 2023", "in June 2023") finds the
record that said "yesterday" or "last month".

Pure functions on English text; nothing is guessed where the words leave the day open
("recently", "a few days ago", a weekday alone). Weeks run Monday to Sunday. What a
phrase resolves to is spelled the way :func:`rubi.dates.days.spelled_days` spells
dates:

- a day: ``May 7, 2023`` (today, tonight, yesterday, last night, the day before
  yesterday, tomorrow, the day after tomorrow, N days ago, N days from now, last /
  this / next <weekday>);
- a weekend: its Saturday and Sunday (last / this / next weekend);
- a week: ``week of May 1, 2023`` (its Monday; last / this / next week, N weeks
  ago);
- a month: ``April 2023`` (last / this / next month, N months ago);
- a year: ``2022`` (last / this / next year, N years ago).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from rubi.core.lazyregex import Rx
from rubi.dates.days import MONTHS, spell_day

__all__ = ["MAX_RESOLVED", "resolve_relative", "resolved_days"]

MAX_RESOLVED = 500
"""Relative phrases of one text resolved at most (a long log adds no more)."""

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "a couple of": 2,
    "a couple": 2,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_COUNT = (
    r"(?P<n>\d{1,2}|a couple of|a couple|an|a|one|two|three|four|five|six|seven|eight|nine|ten)"
)
_PHRASE = Rx(
    r"\b(?:"
    r"(?P<before>the day before yesterday)"
    r"|(?P<after>the day after tomorrow)"
    r"|(?P<yesterday>yesterday|last night)"
    r"|(?P<today>today|tonight|this (?:morning|afternoon|evening))"
    r"|(?P<tomorrow>tomorrow)"
    rf"|{_COUNT}\s+(?P<unit>day|week|month|year)s?\s+(?P<dir>ago|from now)"
    r"|(?P<rel>last|this|next|past|coming)\s+"
    r"(?P<what>weekend|week|month|year|" + "|".join(_WEEKDAYS) + r")"
    r")\b",
    re.IGNORECASE,
)
_PHRASE_LOWER = Rx(_PHRASE.pattern)
""":data:`_PHRASE` without ``IGNORECASE``, for ASCII text lower-cased: the same matches
at the same places (an ASCII letter matches its other case alone, and lower-casing
ASCII keeps every length), found twice as fast. :func:`_resolve` reads every group
in lower case."""
_SHIFT = {"last": -1, "past": -1, "this": 0, "next": 1, "coming": 1}


def _year(year: int) -> str:
    if not dt.MINYEAR <= year <= dt.MAXYEAR:
        raise ValueError(f"year {year} out of range")
    return str(year)


def _month(year: int, month: int) -> str:
    """``month`` of ``year`` (month may run past 1-12: it carries into the year)."""
    y, m = divmod(year * 12 + month - 1, 12)
    return f"{MONTHS[m]} {_year(y)}"


def _monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def _weekday(anchor: dt.date, rel: str, weekday: int) -> dt.date:
    """``last Friday``: the latest before the anchor; ``next Friday``: the first after
    it; ``this Friday``: the one of the anchor's week."""
    if rel in ("last", "past"):
        return anchor - dt.timedelta(days=(anchor.weekday() - weekday - 1) % 7 + 1)
    if rel in ("next", "coming"):
        return anchor + dt.timedelta(days=(weekday - anchor.weekday() - 1) % 7 + 1)
    return _monday(anchor) + dt.timedelta(days=weekday)


def _resolve(m: re.Match[str], anchor: dt.date) -> list[str]:
    days = dt.timedelta
    if m["before"]:
        return [spell_day(anchor - days(2))]
    if m["after"]:
        return [spell_day(anchor + days(2))]
    if m["yesterday"]:
        return [spell_day(anchor - days(1))]
    if m["today"]:
        return [spell_day(anchor)]
    if m["tomorrow"]:
        return [spell_day(anchor + days(1))]
    if m["unit"]:
        n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[" ".join(m["n"].lower().split())]
        n = -n if m["dir"].lower() == "ago" else n
        unit = m["unit"].lower()
        if unit == "day":
            return [spell_day(anchor + days(n))]
        if unit == "week":
            return ["week of " + spell_day(_monday(anchor + days(7 * n)))]
        if unit == "month":
            return [_month(anchor.year, anchor.month + n)]
        return [_year(anchor.year + n)]
    shift, what = _SHIFT[m["rel"].lower()], m["what"].lower()
    if what in _WEEKDAYS:
        return [spell_day(_weekday(anchor, m["rel"].lower(), _WEEKDAYS.index(what)))]
    if what == "weekend":
        saturday = _monday(anchor) + days(5 + 7 * shift)
        return [spell_day(saturday), spell_day(saturday + days(1))]
    if what == "week":
        return ["week of " + spell_day(_monday(anchor) + days(7 * shift))]
    if what == "month":
        return [_month(anchor.year, anchor.month + shift)]
    return [_year(anchor.year + shift)]


def resolve_relative(text: str, anchor: dt.date) -> Iterator[tuple[int, int, list[str]]]:
    """Each relative phrase of ``text`` as ``(start, end, spelled)``: its character span
    and what it resolves to against ``anchor`` (the day the text was written), in
    order, at most :data:`MAX_RESOLVED`. Dates that fall outside years 1-9999 are
    skipped."""
    found = _PHRASE_LOWER.finditer(text.lower()) if text.isascii() else _PHRASE.finditer(text)
    for i, m in enumerate(found):
        if i >= MAX_RESOLVED:
            return
        try:
            spelled = _resolve(m, anchor)
        except (OverflowError, ValueError, IndexError):
            continue
        yield m.start(), m.end(), spelled


def resolved_days(text: str, anchor: dt.date) -> str:
    """What the relative phrases of ``text`` resolve to against ``anchor``, each
    distinct day, week, month or year once, one a line, in order of first appearance;
    "" when there is none."""
    seen: dict[str, None] = {}
    for _start, _end, spelled in resolve_relative(text, anchor):
        for s in spelled:
            seen.setdefault(s)
    return "\n".join(seen)
