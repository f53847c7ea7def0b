"""Atomic file writes: a temp file in the same folder, fsync, then rename.

A reader sees the old file or the new one, never half of either (POSIX ``rename``;
``os.replace`` on Windows).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["ChangedMeanwhile", "atomic_write_bytes", "atomic_write_text", "create_exclusive"]


class ChangedMeanwhile(Exception):
    """The file no longer held the expected content just before the rename."""


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def atomic_write_bytes(path: Path, data: bytes, *, expect: bytes | None = None) -> None:
    """Replace ``path`` with ``data`` atomically, creating parent folders.

    Args:
        path: the file to replace.
        data: its new content.
        expect: when given, the content ``path`` must still have right before the
            rename (checked after the slow part, writing and syncing the temp file, so
            a concurrent editor's save is caught in all but a microsecond window).

    Raises:
        ChangedMeanwhile: ``expect`` did not match; nothing was written.
        OSError: the folder is not writable or the disk is full; ``path`` is unchanged.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes 0600 files; keep a replaced file's mode, else the umask default.
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if expect is not None and path.read_bytes() != expect:
            raise ChangedMeanwhile(str(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: Path, text: str, *, expect: str | None = None) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(
        path, text.encode("utf-8"), expect=None if expect is None else expect.encode("utf-8")
    )


def create_exclusive(path: Path, text: str) -> bool:
    """Create ``path`` with ``text`` only if it does not exist yet, atomically.

    The name is claimed with ``O_CREAT | O_EXCL`` (two writers can never both get it),
    then filled by an atomic replace, so no reader sees it half written.

    Returns:
        False when the file already existed (nothing written).

    Raises:
        OSError: the folder cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
    except FileExistsError:
        return False
    os.close(fd)
    try:
        atomic_write_text(path, text)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    return True
