"""A readers-writer lock for threads: many readers at once, or one writer alone.

Writers go first: once a writer waits, new readers wait behind it, so a stream of
searches never starves a save (each side holds the lock briefly: a search for its
graph reads, a save for its graph change). A thread that already reads may read
again (a nested read never waits, which a waiting writer would otherwise turn into a
deadlock), and the writing thread may read what it writes; a reading thread that asks
to write is refused at once, since it would wait for itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ReadWriteLock"]


class ReadWriteLock:
    """Shared reading, exclusive writing, writers preferred (see the module docstring).

    Not reentrant for writing: a writer must not ask to write again.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        """Threads reading now (a nested read counts once)."""
        self._writer: int | None = None
        """The writing thread's ident."""
        self._waiting = 0
        """Writers waiting for the readers to leave."""
        self._local = threading.local()

    def _depth(self) -> int:
        depth: int = getattr(self._local, "depth", 0)
        return depth

    def reading_here(self) -> bool:
        """This thread holds the lock for reading."""
        return self._depth() > 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the lock for reading for the block: no writer runs meanwhile."""
        depth = self._depth()
        counted = depth == 0 and self._writer != threading.get_ident()
        if counted:
            with self._cond:
                while self._writer is not None or self._waiting:
                    self._cond.wait()
                self._readers += 1
        self._local.depth = depth + 1
        try:
            yield
        finally:
            self._local.depth = depth
            if counted:
                with self._cond:
                    self._readers -= 1
                    if not self._readers:
                        self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the lock alone for the block, once the readers of the moment are done.

        Raises:
            RuntimeError: this thread holds the lock (reading or writing): waiting
                would never end.
        """
        me = threading.get_ident()
        if self._depth() or self._writer == me:
            raise RuntimeError(
                "a thread holding this lock asked to write: it would wait for itself"
            )
        with self._cond:
            self._waiting += 1
            try:
                while self._writer is not None or self._readers:
                    self._cond.wait()
            finally:
                self._waiting -= 1
            self._writer = me
        try:
            yield
        finally:
            with self._cond:
                self._writer = None
                self._cond.notify_all()
