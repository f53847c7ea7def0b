"""Progress of a sync run: the facade's ``progress(done, total, stage)`` callback, one
stage at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rubi.index.store import IndexDoc

__all__ = ["Progress", "counted", "stage"]

Progress = Callable[[int, int, str], None]
"""Called as ``progress(done, total, stage)``; stages: ``Reading notes``, ``Indexing
notes`` (a streamed full build), ``Mapping code``, ``Indexing text``."""


def stage(progress: Progress | None, name: str) -> Callable[[int, int], None] | None:
    """``progress`` for one stage, as a ``(done, total)`` callback."""
    if progress is None:
        return None
    report = progress
    return lambda done, total: report(done, total, name)


def counted(
    docs: list[IndexDoc], progress: Callable[[int, int], None] | None
) -> Iterator[IndexDoc]:
    """``docs``, calling ``progress`` every 50 documents handed on (and at the end)."""
    total = len(docs)
    for i, doc in enumerate(docs, 1):
        yield doc
        if progress and (i % 50 == 0 or i == total):
            progress(i, total)
