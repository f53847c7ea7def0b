"""How this process reads the search index's segment files: through a memory map when
it searches once and exits (a cold hook, a cold ``rubi search``:
:func:`rubi.app.searching.one_search`), with plain reads otherwise.

A map makes each of a cold recall's 4,600 small reads of a segment a slice instead of
three Python calls and two system calls (:mod:`rubi.index.mappedstorage`). A
long-lived process (``rubi serve``, ``rubi watch``) keeps plain reads: the pages of a
map it touches over hours would count in its resident memory. Its own module, in the
foundation, so that the process can be marked before Whoosh is imported (importing
anything of ``rubi.index`` imports Whoosh).
"""

from __future__ import annotations

__all__ = ["map_segments", "segments_mapped"]

_MAPPED: list[bool] = []
"""Set (one item) once this process was marked to map segments."""


def map_segments() -> None:
    """Have every search index this process opens from now on map its segments."""
    if not _MAPPED:
        _MAPPED.append(True)


def segments_mapped() -> bool:
    """Whether :func:`map_segments` marked this process."""
    return bool(_MAPPED)
