"""Whole writes: a file appears or changes completely or not at all.

Every write goes to a temp file in the target's folder, is fsynced (unless the caller
says the content is scratch that a crash may lose: ``durable=False``), and is then
published in one step: ``os.replace`` to change a file (a reader sees the old file or
the new one, never half of either), a hard link to create one (``link(2)`` fails when
the name is taken, so a new file is never clobbered and never seen empty or partial).

Temp files are named ``.<name>.rubi-<pid>-<host>-<random>.tmp``: a process killed
mid-write leaves one behind, and the next write into that folder removes it once its
owner is provably gone (same host, no such process) or it is older than
:data:`DEBRIS_AGE_S`. A live writer's temp file is never touched.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path

from rubi.core.digest import sha256_hex

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import BinaryIO


__all__ = [
    "DEBRIS_AGE_S",
    "ChangedMeanwhile",
    "atomic_write_bytes",
    "atomic_write_stream",
    "atomic_write_text",
    "create_exclusive",
    "host_tag",
    "owner_gone",
    "sweep_temp_files",
    "temp_path",
]

DEBRIS_AGE_S = 3600.0
"""Age (seconds, by mtime) past which a temp file or build folder whose owner cannot
be checked (another host, Windows, an older rubi's name) is taken as left by a dead
process. A live write publishes its temp file within seconds."""

SWEEP_INTERVAL_S = 60.0
"""A process sweeps one folder at most this often (the sweep is one ``scandir``)."""

_NAME_MAX = 255
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.rubi-(?P<pid>\d+)-(?P<host>[0-9a-f]{6})-[0-9a-z]+\.tmp$")
# Temp files of older rubi versions (``tempfile.mkstemp``, no owner in the name):
# removed by age only, and only for the kinds of file rubi writes.
_LEGACY_TEMP_RE = re.compile(r"^\..+\.(?:md|pickle|json)\.[a-z0-9_]{8}\.tmp$")
_LINK_UNSUPPORTED = {
    getattr(errno, name)
    for name in ("EPERM", "EOPNOTSUPP", "ENOTSUP", "ENOSYS", "EXDEV", "EMLINK")
    if hasattr(errno, name)
}
"""``link(2)`` errors meaning "no hard links here" (FAT, some network and FUSE file
systems), not "cannot write"."""
_last_sweep: dict[str, float] = {}
"""When this process last swept each folder for left-over temporary files (monotonic
seconds), so that a folder is swept at most once per :data:`SWEEP_INTERVAL_S` (a
``force`` sweep ignores it). Never cleared: a skipped sweep only defers the cleanup."""


class ChangedMeanwhile(Exception):
    """The file no longer held the expected content just before the rename."""


def host_tag() -> str:
    """Six hex digits naming this machine (a digest of its host name), so a temp
    file's pid is only checked on the host that wrote it."""
    return sha256_hex(_host_name().encode("utf-8", "replace"))[:6]


def _host_name() -> str:
    """``socket.gethostname()``: on POSIX the kernel's node name, which it returns,
    without importing ``socket`` (2–3 ms a hook)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().nodename)
    import socket

    return socket.gethostname()


def owner_gone(pid: int, host: str) -> bool:
    """True when process ``pid`` of host ``host`` (a :func:`host_tag`) surely no
    longer runs: same host and no such process. False when it runs, or when that
    cannot be known (another host; Windows, where ``os.kill`` would end the process)."""
    if host != host_tag() or os.name == "nt" or pid <= 0:
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # PermissionError: it runs, as another user
    return False


def temp_path(path: Path) -> Path:
    """A new name beside ``path`` for a temp file its writer fills itself (an SQLite
    file made anew, then renamed onto ``path``): named as every temp file here, so
    :func:`sweep_temp_files` removes it once a killed writer left it behind."""
    tag = f"rubi-{os.getpid()}-{host_tag()}-{os.urandom(4).hex()}"
    name = path.name
    room = _NAME_MAX - len(f"..{tag}.tmp".encode())
    if len(name.encode("utf-8", "surrogateescape")) > room:  # keep under NAME_MAX
        name = name.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return path.with_name(f".{name}.{tag}.tmp")


def _write_temp(
    path: Path,
    data: bytes | Callable[[BinaryIO], None],
    mode: int | None,
    durable: bool = True,
) -> Path:
    """A new temp file beside ``path`` holding ``data`` (or what ``data(file)`` writes),
    fsynced when ``durable``, with ``mode`` (None: a new file's usual mode, 0666 less
    the umask).

    Raises:
        OSError: the folder is not writable or the disk is full; its ``filename`` is
            ``path``, not the temp file's hidden name, which a user was shown
            (``.gotcha-x.md.rubi-24338-5bce98-46eb781e.tmp: Read-only file system``),
            nor none (a full disk fails the write, which names no file: the user read
            a bare ``No space left on device``).
    """
    try:
        return _write_temp_file(path, data, mode, durable)
    except OSError as exc:
        named = exc.filename
        if named is None or _TEMP_RE.match(os.path.basename(os.fspath(named))):
            exc.filename = os.fspath(path)  # a write or fsync names no file at all
        raise


def _write_temp_file(
    path: Path,
    data: bytes | Callable[[BinaryIO], None],
    mode: int | None,
    durable: bool,
) -> Path:
    """:func:`_write_temp`'s work: the temp file, written, or an ``OSError``."""
    flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_BINARY", 0)
    while True:
        tmp = temp_path(path)
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:  # pragma: no cover - 32 random bits collided
            continue
        break
    try:
        if mode is not None:
            os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as fh:
            if callable(data):
                data(fh)
            else:
                fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _fsync_dir(folder: Path) -> None:
    """Make a rename or link in ``folder`` durable (POSIX; best effort)."""
    if os.name == "nt":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def sweep_temp_files(folder: Path, *, force: bool = False) -> list[Path]:
    """Remove the temp files dead writers left in ``folder`` (not its subfolders).

    A temp file goes when its owner is gone (:func:`owner_gone`) or it is older than
    :data:`DEBRIS_AGE_S`; an older rubi's unnamed temp files go by age only. Runs at
    most once per :data:`SWEEP_INTERVAL_S` per folder and process unless ``force``.

    Returns:
        The files removed. Never raises for an unreadable folder or a file that
        another process removed first.
    """
    key = os.fspath(folder)
    now = time.monotonic()
    if not force and now - _last_sweep.get(key, -SWEEP_INTERVAL_S) < SWEEP_INTERVAL_S:
        return []
    _last_sweep[key] = now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    wall = time.time()
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        m = _TEMP_RE.match(name)
        if m is None and _LEGACY_TEMP_RE.match(name) is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        old = wall - info.st_mtime > DEBRIS_AGE_S
        if not old and (m is None or not owner_gone(int(m["pid"]), m["host"])):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def _replace(
    path: Path,
    data: bytes | Callable[[BinaryIO], None],
    mode: int | None,
    expect: bytes | None,
    durable: bool = True,
) -> None:
    """Replace ``path`` with ``data`` (or what ``data(file)`` writes) through a temp
    file (fsynced when ``durable``), with ``mode`` (None: the replaced file's, else a
    new file's usual mode), when ``path`` still holds ``expect`` (None: whatever it
    holds)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_temp_files(path.parent)
    if mode is None:
        with contextlib.suppress(FileNotFoundError):
            mode = stat.S_IMODE(os.stat(path).st_mode)
    tmp = _write_temp(path, data, mode, durable)
    try:
        if expect is not None and path.read_bytes() != expect:
            raise ChangedMeanwhile(str(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(
    path: Path, data: bytes, *, expect: bytes | None = None, durable: bool = True
) -> None:
    """Replace ``path`` with ``data`` atomically, creating parent folders.

    Args:
        path: the file to replace.
        data: its new content.
        expect: when given, the content ``path`` must still have right before the
            rename (checked after the slow part, writing and syncing the temp file, so
            a concurrent editor's save is caught in all but a microsecond window).
        durable: fsync the content before the rename (the default). False for scratch
            state rewritten many times a session that a crash may lose (a reader then
            finds the old file, the new one, or, after a power cut on some file
            systems, an empty one): no ``fsync``, whose cost (CPU in the kernel and a
            wait for the disk) every write would otherwise pay.

    Raises:
        ChangedMeanwhile: ``expect`` did not match; nothing was written.
        OSError: the folder is not writable or the disk is full; ``path`` is unchanged.
    """
    _replace(path, data, None, expect, durable)


def atomic_write_stream(
    path: Path, write: Callable[[BinaryIO], None], *, mode: int | None = None
) -> None:
    """Replace ``path`` atomically with what ``write(file)`` writes to an open binary
    file (a large pickle streamed to disk instead of built in memory first), with
    ``mode`` (None: the replaced file's, else a new file's usual mode).

    Raises:
        OSError: the folder is not writable or the disk is full; ``path`` is unchanged.
        Exception: whatever ``write`` raises; ``path`` is unchanged.
    """
    _replace(path, write, mode, None)


def atomic_write_text(
    path: Path, text: str, *, expect: str | None = None, durable: bool = True
) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(
        path,
        text.encode("utf-8"),
        expect=None if expect is None else expect.encode("utf-8"),
        durable=durable,
    )


def _publish(tmp: Path, path: Path) -> bool:
    """Give the complete ``tmp`` the name ``path`` unless that name is taken.

    A hard link is atomic and never replaces. Where the file system has no hard links:
    on Windows ``os.rename`` (it refuses an existing name); elsewhere the name is
    claimed with ``O_EXCL`` and the temp file renamed onto the still-empty claim (a
    kill in between leaves an empty file, which :func:`create_exclusive` refills).

    Returns:
        False when ``path`` already existed.
    """
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    except (OSError, NotImplementedError, AttributeError) as exc:
        # Windows reports a file system without hard links (FAT) in several ways; its
        # rename below refuses an existing name, and fails as clearly as link would.
        if isinstance(exc, OSError) and os.name != "nt" and exc.errno not in _LINK_UNSUPPORTED:
            raise
    else:
        return True
    if os.name == "nt":
        try:
            os.rename(tmp, path)
        except FileExistsError:
            return False
        return True
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
    except FileExistsError:
        return False
    os.close(fd)
    try:
        if os.path.getsize(path) != 0:  # filled meanwhile: the name belongs to another
            return False
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            if os.path.getsize(path) == 0:
                os.unlink(path)
        raise
    return True


def create_exclusive(path: Path, text: str) -> bool:
    """Create ``path`` holding ``text``, complete, unless another file has the name.

    The text is written to a temp file beside ``path`` and fsynced, then published
    under ``path`` with a hard link, which fails when the name is taken: the file
    appears whole or not at all, two writers never both get the name, and a process
    that opens the new file the moment it appears (an editor, a sync tool appending)
    works on the final content.

    A file already at ``path`` holding exactly ``text`` counts as written (a retry
    after a crash), and an empty one (a name claim left by a killed older rubi) is
    filled, unless it changes meanwhile.

    Returns:
        True when ``path`` now holds ``text``; False when a different file has the name
        (nothing written).

    Raises:
        OSError: the folder cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep_temp_files(path.parent)
    data = text.encode("utf-8")
    if not path.exists():
        tmp = _write_temp(path, data, None)
        try:
            if _publish(tmp, path):
                _fsync_dir(path.parent)
                return True
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    try:
        current = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        return False
    if current == data:
        return True
    if current:
        return False
    try:
        atomic_write_bytes(path, data, expect=b"")
    except ChangedMeanwhile:
        return False
    return True
