"""How this process reads the search index's segment files: through a memory map when
it searches once and exits (a cold hook, a cold ``rubi search``:
:func:`rubi.app.searching.one_search`), with plain reads otherwise.

A map makes each of a cold recall's 4,600 small reads of a segment a slice instead of
three Python calls and two system calls (:mod:`rubi.index.mappedstorage`). A
long-lived process (``rubi serve``, ``rubi watch``) keeps plain reads: the pages of a
map it touches over hours would count in its resident memory. Its own module, in the
foundation, so that the process can be marked before Whoosh is imported (importing
anything of ``rubi.index`` imports Whoosh).

Either kind of process reads the index without Whoosh's reading stack
(:mod:`rubi.index.segmentfiles`) when it searches once: a one-shot process always
(:func:`map_segments`), a long-lived one for one call (:func:`reading_once`: a
starting ``rubi serve``'s first tool call, a hook it answers cold), whose later
searches read through Whoosh as before (:func:`reads_without_whoosh`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["map_segments", "reading_once", "reads_without_whoosh", "segments_mapped"]

_MAPPED: list[bool] = []
"""Set (one item) once this process was marked to map segments."""

_ONCE: ContextVar[bool] = ContextVar("rubi_segments_read_once", default=False)
"""Set while this thread's searches read as a one-shot process does (:func:`reading_once`)."""


def map_segments() -> None:
    """Have every search index this process opens from now on map its segments."""
    if not _MAPPED:
        _MAPPED.append(True)


def segments_mapped() -> bool:
    """Whether :func:`map_segments` marked this process."""
    return bool(_MAPPED)


@contextmanager
def reading_once() -> Iterator[None]:
    """Within the block, this thread's searches read an index not open yet without
    Whoosh (:mod:`rubi.index.segmentfiles`), as a one-shot process does; outside it,
    a long-lived process's next search reopens that index through Whoosh (its usual
    reader). A context variable: other threads never see it."""
    token = _ONCE.set(True)
    try:
        yield
    finally:
        _ONCE.reset(token)


def reads_without_whoosh() -> bool:
    """Whether this thread's searches read the index without Whoosh: a process marked
    by :func:`map_segments`, or a block of :func:`reading_once`."""
    return bool(_MAPPED) or _ONCE.get()
