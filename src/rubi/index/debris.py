"""What killed runs leave beside a search index, swept (:meth:`SearchIndex.sweep
<rubi.index.searchindex.SearchIndex.sweep>`)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from rubi.core.atomic import DEBRIS_AGE_S, host_tag, owner_gone, sweep_temp_files

__all__ = ["sweep_debris"]


def sweep_debris(directory: Path) -> list[Path]:
    """Remove what killed runs left beside the index: build folders
    (``<name>.building-<pid>-<host>-…``), swapped-out indexes (``<name>.old-…``)
    and temp files, once their owner is gone or they are older than
    :data:`~rubi.core.atomic.DEBRIS_AGE_S` (an older rubi's unnamed ones: by age only).

    Files inside the index that a killed writer left are Whoosh's to remove: its
    next commit deletes every segment file the table of contents does not list.

    Returns:
        The paths removed. Never raises.
    """
    import shutil

    parent = directory.parent
    removed = [*sweep_temp_files(parent, force=True)]
    pattern = re.compile(
        rf"^{re.escape(directory.name)}\.(?P<kind>building|old)-"
        r"(?:(?P<pid>\d+)-(?P<host>[0-9a-f]{6})-[0-9a-z_]+|(?P<legacy>[0-9a-z_]+))$"
    )
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        m = pattern.match(entry.name)
        if m is None or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        gone = m["pid"] is not None and owner_gone(int(m["pid"]), m["host"])
        if not gone and m["kind"] == "old" and (m["legacy"] or "").isdigit():
            # an older rubi's ``.old-<pid>``: assume this host
            gone = owner_gone(int(m["legacy"]), host_tag())
        if gone or age > DEBRIS_AGE_S:
            shutil.rmtree(entry.path, ignore_errors=True)
            if not os.path.exists(entry.path):
                removed.append(Path(entry.path))
    return removed
