"""Frontmatter days that no calendar has (``updated: 2026-13-45``), read as their text.

PyYAML builds a value written like a day or time as a :class:`datetime.date` or
:class:`datetime.datetime`, and raises ``ValueError`` for one that does not exist, which
cost the note its whole frontmatter (title, aliases, tags) for one mistyped day.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TIMESTAMP_TAG", "KeepsImpossibleDays"]

TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
"""The YAML tag PyYAML resolves a plain day or time to."""


class KeepsImpossibleDays:
    """A mixin for a PyYAML loader class (listed before the loader): its days and times
    are built as PyYAML builds them, and one no calendar has is kept as its text."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.add_constructor(TIMESTAMP_TAG, cls.construct_day_or_text)  # type: ignore[attr-defined]

    def construct_day_or_text(self, node: Any) -> Any:
        """``node`` (a scalar) as a date or datetime, or as its text when it names a day
        or time that does not exist (month 13, day 45, hour 25)."""
        loader: Any = self
        try:
            return loader.construct_yaml_timestamp(node)
        except ValueError:
            return loader.construct_scalar(node)
