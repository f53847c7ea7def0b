"""Tries again at opening an index while commits replace the generation being opened.

A commit in another thread or process (the watcher's saves, a ``rubi index`` beside a
server) replaces Whoosh's table of contents and may merge away a segment of the
generation a reader is opening; the open then fails with :class:`FileNotFoundError` and
succeeds on the next generation. :func:`try_again` says whether another try follows;
:func:`generation_replaced` tells that race from a segment file gone for good.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

__all__ = ["OPEN_PATIENCE", "OPEN_TRIES", "generation_replaced", "try_again"]

OPEN_TRIES = 8
"""Times, at least, the index is opened while commits in another thread or process
replace the generation being opened (its table of contents or a merged segment gone
meanwhile). Each lost try costs a directory listing; 3 lost every try about once in four
runs of ``tests/index/test_search_beside_commits.py`` (150 commits in a tight loop) on 2
loaded cores, and a burst of watcher commits (a checkout of many files) is the same race."""

OPEN_PATIENCE = 2.0
"""Seconds, at least, of such lost tries before the search fails: under heavy load 8
tries back to back still lost every one to a writer committing in a tight loop (a CI run
of the same test), so lost tries go on, each after a pause doubling from 0.5 ms to 50 ms
that lets the commit finish, until both bounds are passed."""


def try_again(attempt: int, started: float) -> bool:
    """After lost try ``attempt`` (0-based) of an open begun at ``started``
    (:func:`time.monotonic`): False when both :data:`OPEN_TRIES` and
    :data:`OPEN_PATIENCE` are spent, else True after a short pause."""
    if attempt + 1 >= OPEN_TRIES and time.monotonic() - started >= OPEN_PATIENCE:
        return False
    time.sleep(min(0.0005 * (1 << min(attempt, 7)), 0.05))
    return True


def generation_replaced(
    directory: Path, open_index: Callable[[], Any], folder: os.stat_result, latest: int
) -> bool:
    """Whether the index folder ``directory`` (``os.stat`` of it was ``folder``) or its
    latest generation (``latest``, read through ``open_index()``'s
    ``latest_generation``) changed since a reader of that generation failed on a
    missing file. A commit writes the next table of contents before it deletes the
    segments the last one named, so a segment missing while neither changed is damage,
    which no try again mends (8 tries of Whoosh's 10 took 4-5 s to fail on a deleted
    segment). An error reading either says True (tries go on, as before)."""
    try:
        st = os.stat(directory)
        now = int(open_index().latest_generation())
    except Exception:  # whoosh raises many kinds on a damaged index
        return True
    return (st.st_dev, st.st_ino, now) != (folder.st_dev, folder.st_ino, latest)
