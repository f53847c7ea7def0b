"""Days as rubi shows and compares them: ISO ``YYYY-MM-DD`` strings (UTC).

Pure functions: a day from a frontmatter value or a file's modification time, the
dates of a text spelled out in words (``2023-10-13`` → ``October 13, 2023``) so
that a question naming the day in words finds a record that wrote it in digits, and
each day of a text as one word (``20231013``) that a question naming the day shares
with the text however each writes it.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Mapping
from pathlib import Path

from rubi.core.lazyregex import Rx

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "MAX_SPELLED_DAYS",
    "MONTHS",
    "NOTE_DAY_KEYS",
    "day_keys",
    "file_day",
    "name_day",
    "note_day",
    "parse_day",
    "spell_day",
    "spelled_days",
    "text_days",
]

MAX_SPELLED_DAYS = 200
"""Distinct dates of one text spelled out at most (a log full of dates adds no more)."""

_DAY = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")
_DAYS_IN_TEXT = re.compile(r"(\d)(?<![\d-]\d)(\d{3})-(\d{2})-(\d{2})(?!\d)")
"""``YYYY-MM-DD`` not after a digit or ``-``, not before a digit. The look behind comes
after the first digit so that the pattern starts with a digit class, which the regex
engine skips to (three times faster than a leading look behind)."""
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
"""Month names in English, January first."""


def _day(year: str, month: str, day: str) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def parse_day(value: Any) -> str:
    """``value`` as an ISO day, or "" when it is none: a ``date`` or ``datetime`` (as
    YAML gives them), or text starting ``YYYY-MM-DD`` (``2026-11-30T08:00:00Z``)."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        m = _DAY.match(value)
        found = _day(m[1], m[2], m[3]) if m else None
        return found.isoformat() if found else ""
    return ""


NOTE_DAY_KEYS = ("updated", "modified", "lastmod", "created", "date")
"""Frontmatter keys that date a note, the first holding a day wins: rubi's own
(``updated``, ``created``), and those of Obsidian templates and static-site
generators (``modified``; Hugo's ``lastmod``; ``date`` in Hugo, Jekyll and Obsidian
daily notes)."""


def note_day(metadata: Mapping[str, Any]) -> str:
    """A note's day from its frontmatter: the first of :data:`NOTE_DAY_KEYS` that holds
    a date ("" when none does)."""
    for key in NOTE_DAY_KEYS:
        found = parse_day(metadata.get(key))
        if found:
            return found
    return ""


_NAME_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?![\d])")


def name_day(path: str) -> str:
    """The day a note's file name starts with (``2024-01-05.md``, an Obsidian daily
    note; ``2019-11-26-release.md``, a Jekyll post), or ""."""
    m = _NAME_DAY.match(path.rsplit("/", 1)[-1])
    found = _day(m[1], m[2], m[3]) if m else None
    return found.isoformat() if found else ""


def file_day(path: Path) -> str:
    """The UTC day ``path`` was last modified ("" when it cannot be read)."""
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return ""
    return dt.datetime.fromtimestamp(mtime, dt.UTC).date().isoformat()


def spell_day(day: dt.date) -> str:
    """``day`` in words, as :func:`spelled_days` writes it (``October 13, 2023``)."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def text_days(text: str) -> list[dt.date]:
    """Each distinct valid ``YYYY-MM-DD`` date of ``text`` (not after a digit or
    ``-``, not before a digit), in order of first appearance; one scan of ``text``
    that :func:`spelled_days` and :func:`day_keys` can share."""
    seen: dict[dt.date, None] = {}
    for m in _DAYS_IN_TEXT.finditer(text):
        day = _day(m[1] + m[2], m[3], m[4])
        if day is not None:
            seen.setdefault(day)
    return list(seen)


def spelled_days(text: str, days: list[dt.date] | None = None) -> str:
    """Each distinct ``YYYY-MM-DD`` date of ``text`` in words, one a line
    (``October 13, 2023``), in order of first appearance, at most
    :data:`MAX_SPELLED_DAYS`; "" when there is none. ``days``: ``text_days(text)``
    when the caller has it (``text`` is then not scanned)."""
    if days is None:
        days = text_days(text)
    return "\n".join(spell_day(day) for day in days[:MAX_SPELLED_DAYS])


_MONTH_RE = "|".join(MONTHS) + "|" + "|".join(m[:3] for m in MONTHS) + "|Sept"
_ORD = r"(?:st|nd|rd|th)?"
_SPELLED_MD = Rx(
    rf"(?<!week of )\b(?P<m1>{_MONTH_RE})\.?\s+(?P<d1>\d{{1,2}}){_ORD},?\s+(?P<y1>\d{{4}})\Z"
    rf"|\b(?P<d2>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m2>{_MONTH_RE})\.?,?\s+(?P<y2>\d{{4}})\Z",
    re.IGNORECASE,
)
"""A date in words that ends where the search ends (at a year); compiled the first time
a text holds a year (0.5–0.7 ms of CPU, which every cold recall paid at import)."""
_YEAR = re.compile(r"\d(?<!\w\d)\d{3}\b")
"""Four digits between word boundaries (``\\b\\d{4}\\b``, written to start with a digit
class, as :data:`_DAYS_IN_TEXT`)."""
_SPELLED_REACH = 64
"""Characters before a year a date in words may start (``28th of September, 2023`` is 23)."""


def _month_number(name: str) -> int:
    return [m[:3].lower() for m in MONTHS].index(name[:3].lower()) + 1


def day_keys(text: str, iso_days: list[dt.date] | None = None) -> list[str]:
    """Each distinct day of ``text`` as one searchable word, ``YYYYMMDD``, in order
    of first appearance, at most :data:`MAX_SPELLED_DAYS`: ISO dates (``2023-05-07``)
    and dates in words (``May 7, 2023``, ``7 May 2023``, ``7th of May, 2023``; not
    the Monday of ``week of May 1, 2023``). A question naming a day and the text that
    holds it share the word, where the day's number alone (``7``) is too short to be
    indexed and its month and year are shared by every day of the month.
    ``iso_days``: ``text_days(text)`` when the caller has it (the ISO dates are then
    not looked for again)."""
    if iso_days is None:
        iso_days = text_days(text)
    seen: dict[str, None] = dict.fromkeys(day.strftime("%Y%m%d") for day in iso_days)
    for year in _YEAR.finditer(text):  # a date in words ends with its year: look there
        w = _SPELLED_MD.search(text, max(0, year.start() - _SPELLED_REACH), year.end())
        if w is None:
            continue
        month = _month_number(w["m1"] or w["m2"])
        day = _day(w["y1"] or w["y2"], str(month), w["d1"] or w["d2"])
        if day is not None:
            seen.setdefault(day.strftime("%Y%m%d"))
    return list(seen)[:MAX_SPELLED_DAYS]
