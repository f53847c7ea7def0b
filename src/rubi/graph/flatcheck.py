"""The flat graph's searched sections checked once per file, not once per process.

Opening ``graph.flat`` (:func:`rubi.graph.flat.read_flat`) checks the CRC-32 of every
section a search reads: 5.3 MB at 6,400 notes, 2.5–2.7 ms of a cold hook's CPU, its
pages faulted in, of which a search then reads a few hundred KB. The file never changes
after it is written but for its generation (:func:`rubi.graph.flatwrite.restamp`, 8
bytes no CRC covers): each write replaces it (a new inode).

So the first reader that checked a file's CRC records what it checked in
``graph.flat.checked`` beside it (:func:`mark_checked`): the file's device, inode, size,
modification and change times (as ``fstat`` gives them, on the descriptor it read) and
the header's CRC. A later reader whose ``fstat`` of the file it opened, and whose
header's CRC, are the same as recorded skips the CRC (:func:`checked_before`). Any
write to the file through the system changes its change time (which no call can set
back) or its inode; a record is only ever made for a file changed last at least
:data:`SETTLED_NS` before it was checked, so a write in the same tick of the file
system's clock as the one checked (the times would not differ) cannot go unseen (git's
"racily clean" rule). A file damaged underneath the file system (a bad disk) after a
reader checked it is not caught: the check is for torn or stray writes.

The record is derived data in the user's cache folder like the graph (owner and mode
checked, :func:`rubi.core.picklefiles.open_trusted`; written atomically, 0600); a planted one
can at worst skip a CRC, never change what is read. A missing, unreadable or stale one
means a full check.
"""

from __future__ import annotations

import os
import struct
import time
from pathlib import Path

from rubi.graph.flatlayout import FLAT_FORMAT

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = ["SETTLED_NS", "checked_before", "checked_file", "mark_checked", "now_ns"]

STAMP = struct.Struct("<8sIqqqqqI")
"""magic, the flat format, the file's device, inode, size, mtime and ctime (ns), and
its header's CRC of the searched sections."""
MAGIC = b"rubichkd"
SETTLED_NS = 2_000_000_000
"""How long before its check a file must have last changed for the check to be
recorded: longer than any file system's time step (FAT's 2 s at worst)."""


def checked_file(path: Path) -> Path:
    """Where the record of ``path``'s check lives."""
    return path.with_name(path.name + ".checked")


def _stamp(st: os.stat_result, crc: int) -> bytes:
    return STAMP.pack(
        MAGIC, FLAT_FORMAT, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, crc
    )


def checked_before(path: Path, st: os.stat_result, crc: int) -> bool:
    """Whether the file at ``path``, as ``st`` (its ``fstat``) and ``crc`` (its
    header's CRC of the searched sections) describe it, was checked by a reader before."""
    from rubi.core.picklefiles import open_trusted

    try:
        with open_trusted(checked_file(path)) as fh:
            held = fh.read(STAMP.size + 1)
    except Exception:  # none yet, unreadable or untrusted: check in full
        return False
    return held == _stamp(st, crc)


def mark_checked(path: Path, st: os.stat_result, crc: int, started_ns: int) -> bool:
    """Record that the file at ``path`` (``st``: the ``fstat`` of the descriptor it was
    read through, taken before the check, which began at ``started_ns`` of
    :func:`now_ns`) had its CRC ``crc`` checked; nothing when ``path`` is not that file
    as it was (replaced or written since), or when it changed last less than
    :data:`SETTLED_NS` before the check began. A failed write is ignored (the next
    reader checks in full).

    Returns:
        Whether the record was written."""
    from rubi.core.atomic import atomic_write_stream

    try:
        now = os.stat(path)
    except OSError:
        return False
    if _identity(now) != _identity(st):
        return False
    if started_ns - max(st.st_mtime_ns, st.st_ctime_ns) < SETTLED_NS:
        return False
    try:
        record = _stamp(st, crc)

        def write(fh: BinaryIO) -> None:
            fh.write(record)

        atomic_write_stream(checked_file(path), write, mode=0o600)
    except OSError:
        return False
    return True


def _identity(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def now_ns() -> int:
    """The clock a check's start is taken from (a test moves it)."""
    return time.time_ns()
