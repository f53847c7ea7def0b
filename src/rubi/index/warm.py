"""The search indexes this process keeps open, one per index folder.

A search opens a vault's Whoosh index and reads its statistics into memory
(:class:`rubi.index.searchindex.SearchIndex`, :class:`rubi.index.termscore.TermScorer`); a
long-lived process (``rubi serve``, ``rubi watch``, the engine) keeps them between
searches, and the index reopens itself when a commit or a rebuild replaced it. At most
:data:`MAX_OPEN` are kept, the least recently used closed first.

On Windows nothing is kept open between searches: an open file there would stop
another process's full rebuild from swapping the index folder.
"""

from __future__ import annotations

import _thread  # threading's Lock, without its import (a cold hook's 0.4 ms)
import os
from collections import OrderedDict
from pathlib import Path

from rubi.index.searchindex import SearchIndex

__all__ = ["KEEP_OPEN", "MAX_OPEN", "close_index", "forget_indexes", "index_at"]

MAX_OPEN = 4
"""Indexes a process keeps open: the project's and the personal vault's, with room."""
KEEP_OPEN = os.name != "nt"
"""Keep an index open between searches (not on Windows: see the module docstring)."""

_OPEN: OrderedDict[Path, SearchIndex] = OrderedDict()
"""Each open index in this process, by its folder, the least recently used first: at
most :data:`MAX_OPEN` (the oldest is closed), emptied by :func:`forget_indexes`. An
open index sees every commit (its reader is reopened when the index changed)."""
_GUARD = _thread.allocate_lock()


def index_at(directory: Path) -> SearchIndex:
    """This process's index of ``directory`` (made on first use; kept open between
    searches where :data:`KEEP_OPEN`). Its searches raise IndexCorruptError when
    the folder holds no readable index."""
    with _GUARD:
        index = _OPEN.get(directory)
        if index is None:
            if not _OPEN:
                _close_at_exit()
            index = _OPEN[directory] = SearchIndex(directory, keep_open=KEEP_OPEN)
            while len(_OPEN) > MAX_OPEN:
                _release(_OPEN.popitem(last=False)[1])
        _OPEN.move_to_end(directory)
        return index


_AT_EXIT: list[bool] = []


def _close_at_exit() -> None:
    """Close the kept indexes when the interpreter exits (once per process): a server
    or a test run that ends with one open left its ``.seg`` files to the interpreter's
    teardown (``ResourceWarning: unclosed file``)."""
    if not _AT_EXIT:
        import atexit

        atexit.register(forget_indexes)
        _AT_EXIT.append(True)


def forget_indexes() -> None:
    """Close every kept index (tests; a process about to delete derived data)."""
    with _GUARD:
        while _OPEN:
            _release(_OPEN.popitem()[1])


def close_index(directory: Path) -> None:
    """Close and drop this process's kept index of ``directory``, if any: a watcher
    that stops (:func:`rubi.app.updates.set_watched`) and an engine that stops leave
    no segment file open; the next search of it opens it afresh. Why: the kept index
    held its ``.seg`` file until the process ended (Python's ``ResourceWarning:
    unclosed file ...seg`` at exit, and in the tests that stopped a watcher)."""
    with _GUARD:
        index = _OPEN.pop(directory, None)
    if index is not None:
        _release(index)


def _release(index: SearchIndex) -> None:
    """Close a kept index dropped from the cache. A thread still holding it (a search
    under way while a watcher or an engine stops) may use it again: it then opens and
    closes its files per read instead of keeping them open out of the cache until the
    collector finds them (``ResourceWarning: unclosed file ...seg``)."""
    index.keep_open = False
    index.close()  # waits for a search using it (its lock)
