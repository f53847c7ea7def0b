"""Progress of a sync run: the facade's ``progress(done, total, stage)`` callback, one
stage at a time."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "stage"]

Progress = Callable[[int, int, str], None]
"""Called as ``progress(done, total, stage)``; stages: ``Reading notes``, ``Indexing
notes`` (a streamed full build), ``Mapping code``, ``Indexing text``."""


def stage(progress: Progress | None, name: str) -> Callable[[int, int], None] | None:
    """``progress`` for one stage, as a ``(done, total)`` callback."""
    if progress is None:
        return None
    report = progress
    return lambda done, total: report(done, total, name)
