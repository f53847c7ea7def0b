"""A lock file held for a short ``with`` block, cheap to import.

A hook takes one for every change of its session state, in a process that runs for a
few milliseconds: ``filelock`` costs such a process ~10 ms of imports (its package
and the modules it loads: ``platform``, ``decimal``, ``secrets``...). On POSIX the same
lock is one ``flock(2)`` on the same file, which is what ``filelock.UnixFileLock``
takes too, so processes of either kind exclude each other. Elsewhere (Windows) the
lock is ``filelock``'s.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

__all__ = ["POLL_S", "held"]

POLL_S = 0.02
"""How often a waiting process tries the lock again (seconds)."""


@contextmanager
def held(path: Path, timeout_s: float) -> Iterator[bool]:
    """Hold an exclusive lock on the file at ``path`` (created with mode 0644 when
    missing; its folder must exist) for the block, waiting at most ``timeout_s``
    seconds for another holder.

    Yields:
        True when the lock is held, False when the wait ran out (the block runs
        without it: the caller decides what that costs).

    Raises:
        OSError: the lock file cannot be opened (a folder, no permission, a symlink).
    """
    try:
        import fcntl
    except ImportError:  # Windows
        from filelock import FileLock, Timeout

        lock = FileLock(str(path), timeout=timeout_s)
        try:
            lock.acquire()
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            lock.release()
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        deadline = time.monotonic() + timeout_s
        locked = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                locked = True
                break
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                time.sleep(min(POLL_S, left))
        try:
            yield locked
        finally:
            if locked:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
