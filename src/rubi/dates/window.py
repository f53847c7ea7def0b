"""The days a search keeps (``--since/--until``): a window of ISO days compared as
strings (:mod:`rubi.dates.hitdays` finds a hit's day). Apart from the hits' days so a
search without a window (the recall hook) makes no class for it."""

from __future__ import annotations

from dataclasses import dataclass

from rubi.dates.days import parse_day

__all__ = ["DateWindow"]


@dataclass(frozen=True, slots=True)
class DateWindow:
    """The days a search keeps, both ends included ("" leaves an end open)."""

    since: str = ""
    until: str = ""

    @classmethod
    def of(cls, since: str | None, until: str | None) -> DateWindow:
        """A window from two ``YYYY-MM-DD`` strings (either may be None or "").

        Raises:
            ValueError: a value that is not a day, or ``since`` after ``until``.
        """
        ends = []
        for name, value in (("since", since), ("until", until)):
            day = parse_day(value) if value else ""
            if value and (not day or value.strip() != day):
                raise ValueError(f"{name} must be a day as YYYY-MM-DD, got {value!r}")
            ends.append(day)
        if ends[0] and ends[1] and ends[0] > ends[1]:
            raise ValueError(f"since ({ends[0]}) is after until ({ends[1]})")
        return cls(ends[0], ends[1])

    @property
    def open(self) -> bool:
        """True when the window keeps every day."""
        return not self.since and not self.until

    def holds(self, day: str) -> bool:
        """Whether ``day`` lies in the window (an unknown day "" only in an open one)."""
        if self.open:
            return True
        if not day:
            return False
        return (not self.since or day >= self.since) and (not self.until or day <= self.until)
