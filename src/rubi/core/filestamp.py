"""Has a file changed since it was last looked at? Its stat says so, without a read,
once it is old enough: git's "racily clean" rule.

A file system stamps modification times at a clock tick, and some writers rewrite a
file in place at the same size (SQLite's write-ahead log), so a file changed within
:data:`QUIET_AFTER_S` may change again without its stat changing. Older than that,
any later write gives it a newer modification time, and a replacement (git's refs,
an atomic save) a new inode. The change time, set by the kernel alone, catches a
write whose modification time was set back (a copy keeping times, a clock set back).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

__all__ = ["QUIET_AFTER_S", "RACY_WINDOW_NS", "Stamp", "quiet_stamp"]

QUIET_AFTER_S = 2.0
"""A file changed less than this long ago cannot vouch for itself by its stat."""
RACY_WINDOW_NS = int(QUIET_AFTER_S * 1e9)
""":data:`QUIET_AFTER_S` in nanoseconds."""

Stamp = tuple[tuple[int, int, int, int, int] | None, ...]
"""Per file: device, inode, size, modification and change time (ns); None when the
file does not exist."""


def quiet_stamp(files: Iterable[str | os.PathLike[str]]) -> Stamp | None:
    """What ``files`` look like on disk now, or None when one of them changed within
    :data:`QUIET_AFTER_S` (or cannot be stat-ed for another reason than being absent).
    Two equal stamps mean none of the files was written in between. A few µs a file."""
    racy = time.time_ns() - RACY_WINDOW_NS
    parts: list[tuple[int, int, int, int, int] | None] = []
    for name in files:
        try:
            st = os.stat(name)
        except FileNotFoundError:
            parts.append(None)
            continue
        except OSError:
            return None
        if st.st_mtime_ns > racy:
            return None
        parts.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(parts)
