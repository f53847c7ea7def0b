"""Read files of a tree that may have arrived by ``git clone``, a synced folder or an
archive: notes, generated pages, handoffs, ``config.toml``, session records and code.

Every read of a file in a vault or a project goes through :func:`read_bytes` (or
:func:`read_text`). These rules hold for each one:

- **It stays inside its root.** The path is resolved (every symlink followed) and must
  lie inside the allowed root (the project for a project vault and its code, the vault
  for a vault of its own). A symlink inside the root is fine (``.rubi/notes`` linked to
  ``docs/notes``); ``notes/x.md -> ~/.ssh/id_rsa`` is refused.
- **It is a regular file.** A FIFO, a device (``/dev/zero``), a socket or a folder is
  refused before it is opened, and again on the open descriptor (``fstat``), so a file
  swapped in between is refused too. The open uses ``O_NONBLOCK`` (a FIFO never blocks
  the open) and ``O_NOFOLLOW`` on the resolved path (a symlink planted after the check
  is not followed). ``O_NOFOLLOW`` alone would not do: it refuses the in-tree links a
  vault may rightly use, and says nothing about the folders on the way.
- **On Linux, the same rules cost two system calls.** A path whose ``stat`` (links
  followed) is a regular file is opened, and the kernel says where the descriptor
  leads (``/proc/self/fd``): a regular file inside the root's real path is read from
  it; anything else is closed unread and decided by the path above, which explains the
  refusal. A file outside the root may thus be opened, never read.
- **It is read up to a limit.** At most ``limit`` bytes are read; the result says
  whether the file had more.

A refusal raises :class:`UnsafeFileError`, whose message is one line naming the file,
what it is, and what to do. :func:`refusal` gives the same reason without reading, for
a scan that lists files before anyone reads them.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.core.safepaths import resolve_inside

__all__ = [
    "MAX_NOTE_BYTES",
    "FileBytes",
    "UnsafeFileError",
    "allowed_root",
    "escaped_name",
    "file_kind",
    "has_control_chars",
    "has_surrogates",
    "read_bytes",
    "read_regular",
    "read_text",
    "refusal",
]

MAX_NOTE_BYTES = 1_000_000
"""Notes larger than this are indexed from their first 1 MB only (with a warning): a
20 MB log pasted into a vault should not stall every re-index."""

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""Flags of every open: a FIFO's open never waits for a writer, a symlink that appears
after the check is not followed, a terminal never becomes the controlling one."""

_FAST_OPEN_FLAGS = (
    _OPEN_FLAGS & ~getattr(os, "O_NOFOLLOW", 0)
    if sys.platform == "linux" and os.path.isdir("/proc/self/fd")
    else None
)
"""The fast path's open (:func:`_open_inside`): links followed, since where the
descriptor leads is checked after the open."""

_CHUNK = 1 << 20


class UnsafeFileError(RubiError):
    """A file of the tree rubi refuses to read: a symlink that leads outside the allowed
    root, or something that is not a regular file (a FIFO, a device, a socket).

    Attributes:
        path: the file as the caller names it (vault- or project-relative).
        reason: what it is and what to do, in a few words.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True, slots=True)
class FileBytes:
    """What :func:`read_bytes` read.

    Attributes:
        data: the first ``limit`` bytes at most.
        truncated: the file holds more than ``limit`` bytes (``data`` is its start).
        size: the file's size in bytes (``fstat`` of the descriptor read).
        mtime_ns: its modification time, nanoseconds since the epoch.
    """

    data: bytes
    truncated: bool
    size: int
    mtime_ns: int


def has_surrogates(name: str) -> bool:
    """True for a name decoded with ``surrogateescape`` (its bytes are not UTF-8, as
    ``os.walk`` gives them on POSIX): such a name cannot be printed, stored in the index
    or written to JSON."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def has_control_chars(name: str) -> bool:
    """True for a name holding a line break, tab or other control character: printed in
    a list of hits or a warning, it would start a line of its own (or act on a
    terminal), so a note of such a name is skipped like one whose name is not UTF-8."""
    return _NAME_CONTROL.search(name) is not None


def escaped_name(name: str) -> str:
    """A printable form of a file name that is not UTF-8 or holds control characters:
    each byte that is not part of a UTF-8 character becomes ``\\xNN`` (``b"\\xff.md"``
    → ``\\xff.md``), each control character its escape (``\\n``, ``\\x1b``)."""
    raw = name.encode("utf-8", "surrogateescape")
    text = raw.decode("utf-8", "backslashreplace")
    return _NAME_CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in a few words (``a FIFO (named
    pipe)``, ``a socket``, ``a folder``...), from its ``st_mode``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _special(mode: int, via_link: bool) -> str:
    what = file_kind(mode)
    if via_link:
        return f"a symlink to {what}, not a regular file; rubi does not read it: remove the link"
    return f"is {what}, not a regular file; rubi does not read it: remove it"


def _outside(path: Path, where: str) -> str:
    if os.path.islink(path) and not os.path.exists(path):
        return (
            f"a symlink to a file outside {where} that does not exist; rubi does not "
            "read it: remove the link, or replace it with the file itself"
        )
    if os.path.islink(path):
        return (
            f"a symlink to a file outside {where}; rubi does not read it: "
            "replace the link with the file itself"
        )
    return (
        f"inside a symlinked folder that leads outside {where}; rubi does not read it: "
        "replace the link with the folder itself"
    )


def _label(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def refusal(root: Path, path: Path | str, *, where: str = "the project") -> str | None:
    """Why ``path`` must not be read, without opening it; None when it may be.

    Args:
        root: the allowed root (absolute).
        path: the file, absolute or relative to ``root``.
        where: how messages name ``root`` ("the project", "the vault").

    Returns:
        The reason (one line: what the file is and what to do), or None for a regular
        file inside ``root`` and for a path that does not exist (the read then raises
        :class:`FileNotFoundError`).
    """
    return _check(root, root / path, where)[0]


def _check(root: Path, full: Path, where: str) -> tuple[str | None, str]:
    """:func:`refusal` of ``full``, and its real path (resolved once: a deep path costs
    an ``lstat`` per folder)."""
    inside, real = resolve_inside(root, full)
    if not inside:
        return _outside(full, where), real
    try:
        st = os.stat(real)
    except OSError:
        return None, real
    if not stat.S_ISREG(st.st_mode):
        return _special(st.st_mode, os.path.islink(full)), real
    return None, real


def read_bytes(
    root: Path,
    path: Path | str,
    *,
    limit: int,
    label: str | None = None,
    where: str = "the project",
) -> FileBytes:
    """Read at most ``limit`` bytes of a file of the tree under ``root``.

    Args:
        root: the allowed root (absolute): the project, or the vault when it has no
            project. The resolved file must lie inside it.
        path: the file, absolute or relative to ``root``.
        limit: bytes at most (>= 0); :attr:`FileBytes.truncated` says there were more.
        label: how messages name the file (default: ``path`` relative to ``root``).
        where: how messages name ``root``.

    Returns:
        The :class:`FileBytes`.

    Raises:
        UnsafeFileError: the file resolves outside ``root`` or is not a regular file.
        OSError: it does not exist (:class:`FileNotFoundError`) or cannot be read.
    """
    full = root / path
    opened = _open_inside(root, full)
    if opened is not None:
        fd, st = opened
        try:
            return _read_fd(fd, st, limit)
        finally:
            os.close(fd)
    name = label if label is not None else _label(root, full)
    reason, real = _check(root, full, where)
    if reason is not None:
        raise UnsafeFileError(name, reason)
    return _read_open(real, name, limit)


_PROC_FD = "/proc/self/fd"
_real_roots: dict[str, tuple[int, int, str]] = {}
"""A root's real path by the path given, with the folder's device and inode it was
resolved for."""


def _real_root(root: Path) -> str:
    """The real path of the folder ``root`` leads to, resolved again unless the path
    remembered still leads to that very folder: a root swapped for another folder, or a
    folder on the way moved (``root`` a link that now leads to the moved project, while
    another folder took its old place) is resolved again."""
    key = os.fspath(root)
    st = os.stat(key)
    known = _real_roots.get(key)
    if known is not None and known[:2] == (st.st_dev, st.st_ino):
        try:
            there = os.stat(known[2])
        except OSError:
            there = None
        if there is not None and (there.st_dev, there.st_ino) == known[:2]:
            return known[2]
    real = os.path.realpath(key)
    _real_roots[key] = (st.st_dev, st.st_ino, real)
    return real


def _open_inside(root: Path, full: Path) -> tuple[int, os.stat_result] | None:
    """The fast way to the rules of the module docstring, on Linux: refuse by ``stat``
    (links followed) anything but a regular file before opening, open, and ask the
    kernel where the open descriptor leads (``/proc/self/fd``): a regular file inside
    the root's real path is read from that descriptor (returned with its ``fstat``).
    Two system calls instead of an ``lstat`` per folder of the path, twice. Anything
    else (a refusal to explain, a file that is gone, no ``/proc``) returns None: the
    careful path decides and says why."""
    if _FAST_OPEN_FLAGS is None:
        return None
    try:
        if not stat.S_ISREG(os.stat(full).st_mode):
            return None
        real_root = _real_root(root)
        fd = os.open(full, _FAST_OPEN_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        real = os.readlink(f"{_PROC_FD}/{fd}")
        inside = real == real_root or real.startswith(real_root.rstrip("/") + "/")
        if inside:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode):
                return fd, st
    except OSError:
        pass
    os.close(fd)
    return None


def _read_fd(fd: int, st: os.stat_result, limit: int) -> FileBytes:
    """At most ``limit`` bytes of the open regular file ``fd`` (``st`` its ``fstat``)."""
    chunks: list[bytes] = []
    want = limit + 1
    while want > 0:
        chunk = os.read(fd, min(want, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        want -= len(chunk)
    data = b"".join(chunks)
    truncated = len(data) > limit
    return FileBytes(data[:limit], truncated, st.st_size, st.st_mtime_ns)


def read_regular(path: Path, *, limit: int, label: str | None = None) -> FileBytes:
    """Read at most ``limit`` bytes of a file the user names or owns (``~/.claude``
    settings, a transcript): no root to stay in (the user's own symlinks are followed),
    but a FIFO, device, socket or folder is refused and the read is bounded.

    Raises:
        UnsafeFileError: it is not a regular file.
        OSError: it does not exist (:class:`FileNotFoundError`) or cannot be read.
    """
    name = label if label is not None else str(path)
    try:
        st = os.stat(path)
    except OSError:
        st = None  # the open below raises the right error
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UnsafeFileError(name, _special(st.st_mode, os.path.islink(path)))
    return _read_open(os.path.realpath(path), name, limit)


def _read_open(real: str, name: str, limit: int) -> FileBytes:
    """Open the resolved path ``real`` (see :data:`_OPEN_FLAGS`), refuse anything but a
    regular file on the descriptor, and read at most ``limit`` bytes."""
    fd = os.open(real, _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFileError(name, _special(st.st_mode, via_link=False))
        return _read_fd(fd, st, limit)
    finally:
        os.close(fd)


def read_text(
    root: Path,
    path: Path | str,
    *,
    limit: int,
    label: str | None = None,
    where: str = "the project",
) -> str:
    """:func:`read_bytes`, decoded as UTF-8 (bytes that do not decode become U+FFFD, a
    BOM is dropped). A file over ``limit`` bytes gives its first ``limit`` bytes.

    Raises:
        UnsafeFileError: as :func:`read_bytes`.
        OSError: as :func:`read_bytes`.
    """
    data = read_bytes(root, path, limit=limit, label=label, where=where).data
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff")


def allowed_root(vault_root: Path, project_root: Path | None) -> tuple[Path, str]:
    """The folder a vault's files must resolve into, and how messages name it: the
    project for a project vault, else the vault."""
    if project_root is not None:
        return project_root, "the project"
    return vault_root, "the vault"
