"""Pickle files for derived data: written atomically, read fast, read only from the
user's own cache folder.

Pickle runs code named by the file, so it is safe only for files nobody else can
write. Derived data therefore lives in the user cache (:func:`rubi.core.paths.cache_home`),
never in a vault that can arrive by git or a synced folder, and :func:`load_pickle`
enforces it: a path outside the cache folder, a file owned by another user, or one
that others may write is refused before a byte is unpickled. Pickle, not JSON, because
a 6,000-note graph loads several times faster.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import stat
from collections.abc import Iterator
from pathlib import Path

from rubi.core.collector import loaded
from rubi.core.errors import RubiError

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = [
    "UntrustedCacheError",
    "check_trusted",
    "check_trusted_files",
    "collector_paused",
    "load_pickle",
    "open_trusted",
    "save_pickle",
]


class UntrustedCacheError(RubiError):
    """A derived-data file that rubi will not unpickle (outside the user cache, or
    writable by someone else).

    Attributes:
        reason: why, in a few words without the file's name or advice (``not a
            regular file``), for a caller that says what it does instead.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def check_trusted(path: Path) -> None:
    """Refuse ``path`` unless the current user alone could have written it, and it is
    a regular file (opening a FIFO or a device would block or never end).

    Raises:
        UntrustedCacheError: ``path`` is not inside :func:`rubi.core.paths.cache_home`
            (symlinks resolved), is not a regular file, or, where the OS has owners, is
            owned by another user or writable by group or others.
        FileNotFoundError: no such file.
    """
    _check_inside_cache(path)
    _check_status(path, os.stat(path))


def check_trusted_files(directory: Path, suffixes: tuple[str, ...]) -> None:
    """:func:`check_trusted` on each file in ``directory`` whose name ends with one of
    ``suffixes`` (a FIFO among them would block the reader that opens it); one removed
    since the listing (a commit meanwhile) is skipped.

    The folder is resolved once, at its first such file: an entry that is no symlink
    (its ``lstat``) lies where the folder does, so its status is checked as it is,
    without resolving its path again (an ``lstat`` per folder of the path: 1.7 ms of a
    cold search's CPU for the 14 files of a 6,800-note index); a symlink gets the whole
    :func:`check_trusted`.

    Raises:
        UntrustedCacheError: as :func:`check_trusted`, for the first file refused.
    """
    folder_checked = False
    with os.scandir(directory) as entries:
        for entry in entries:
            if not entry.name.endswith(suffixes):
                continue
            path = directory / entry.name
            try:
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    check_trusted(path)
                    continue
                if not folder_checked:
                    _check_inside_cache(directory)
                    folder_checked = True
                _check_status(path, st)
            except FileNotFoundError:
                continue


def _check_inside_cache(path: Path) -> None:
    """Refuse ``path`` unless it resolves inside :func:`rubi.core.paths.cache_home`.

    Raises:
        UntrustedCacheError: it does not.
    """
    from rubi.core.paths import cache_home
    from rubi.core.safepaths import is_inside

    if not is_inside(cache_home(), path):
        raise UntrustedCacheError(
            f"{path}: derived data outside the rubi cache folder is never loaded; "
            "it can be deleted",
            "outside the rubi cache folder",
        )


def open_trusted(path: Path, *, write: bool = False) -> BinaryIO:
    """``path`` opened for reading (or reading and writing with ``write``) only if
    :func:`check_trusted` accepts it, checked on the opened file itself: a file swapped
    in between a check and an open (a FIFO that would block, another user's file) is
    refused all the same. The open never blocks (``O_NONBLOCK``; it changes nothing for
    a regular file).

    Returns:
        A binary file object the caller closes (``with open_trusted(p) as fh``).

    Raises:
        UntrustedCacheError: as :func:`check_trusted`.
        FileNotFoundError: no such file.
        OSError: the file could not be opened.
    """
    _check_inside_cache(path)
    flags = (
        (os.O_RDWR if write else os.O_RDONLY)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    fd = os.open(path, flags)
    try:
        _check_status(path, os.fstat(fd))
        return os.fdopen(fd, "r+b" if write else "rb")
    except BaseException:
        os.close(fd)
        raise


def _check_status(path: Path, st: os.stat_result) -> None:
    """Refuse a file that is not regular, or (where the OS has owners) that another
    user owns or may write (:func:`check_trusted`'s rules on a status already read)."""
    if not stat.S_ISREG(st.st_mode):
        raise UntrustedCacheError(
            f"{path}: not a regular file; rubi does not load it (delete it and run `rubi index`)",
            "not a regular file",
        )
    getuid = getattr(os, "getuid", None)
    if getuid is not None and (st.st_uid != getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        raise UntrustedCacheError(
            f"{path}: owned or writable by another user; rubi does not load it "
            "(delete it and run `rubi index`)",
            "owned or writable by another user",
        )


def save_pickle(path: Path, value: object) -> None:
    """Write ``value`` to ``path`` atomically (highest pickle protocol), streamed to
    the file: a 50,000-note graph is never held twice in memory, as objects and as
    bytes. The file is the user's alone (0600) whatever the replaced file's mode: a
    pickle :func:`check_trusted` refused is replaced by one it accepts."""
    from rubi.core.atomic import atomic_write_stream  # a writer's: not a cold reader's

    atomic_write_stream(
        path, lambda fh: pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL), mode=0o600
    )


def load_pickle(path: Path) -> object:
    """Read a pickle with the garbage collector paused.

    Unpickling allocates hundreds of thousands of containers, and each burst of
    allocations triggers collections that find nothing to free. Pausing the collector
    while unpickling makes the notes cache of a 3,000-note vault load in 108 ms
    instead of 172 ms (best of 6, the deferred young collections included).

    The result is not frozen (``gc.freeze``) but in a one-shot process
    (:func:`rubi.core.collector.freeze_loads`): frozen objects are left out of every
    collection, so reference cycles among them are never freed, and a long-lived
    process (the MCP server, the watcher) that reloads its graph after every change
    kept every old graph alive (60 → 130 MiB over 100 register + read
    cycles on 173 notes; flat without it).

    Raises:
        FileNotFoundError: no such file.
        UntrustedCacheError: the file is not the user's own cache (:func:`check_trusted`).
        Exception: others from a damaged file.
    """
    with collector_paused(), open_trusted(path) as fh:  # streamed: never held whole
        return pickle.load(fh)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The garbage collector paused inside the block (for unpickling: see
    :func:`load_pickle`), and enabled again after it if it was enabled before. In a
    one-shot process what is alive after the block is frozen
    (:func:`rubi.core.collector.loaded`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        loaded()
        if enabled:
            gc.enable()
