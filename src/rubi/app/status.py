"""The index's summary (``rubi status``): what it holds, and when it was built.

Kept out of the facade (:mod:`rubi.app` names it lazily): its class is one a hook never
makes, and a dataclass costs a cold hook its class processing (0.2 ms).
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rubi.app.reads import graph_for
from rubi.core.paths import VaultPaths

__all__ = ["VaultStatus", "status"]


@dataclass(frozen=True, slots=True)
class VaultStatus:
    """What the index holds. ``indexed_at`` is a Unix time (0 when never indexed);
    ``code_files``: the project's code files in the index (0 outside a project)."""

    vault: Path
    index_dir: Path
    notes: int
    unreadable: int
    links: int
    dangling: int
    ambiguous: int
    indexed_at: float
    index_bytes: int
    code_files: int = 0


def status(paths: VaultPaths) -> VaultStatus:
    """Summarise the index of the vault, indexing it first if it never was or if
    another version of rubi built it (its manifest then reads as none: without the
    rebuild the old graph's counts were shown beside "indexed at never", and the
    "rebuilding it once" line was logged on every call while nothing was rebuilt)."""
    from rubi.app.searching import ensure_index
    from rubi.sync import load_state
    from rubi.sync.freshness import formats_differ

    if formats_differ(paths):
        ensure_index(paths, refresh=True)  # another version's index: rebuilt once
    with graph_for(paths) as build:
        g = build.graph
        kinds = Counter(k for _, k in g.nodes(data="kind"))
        links = g.number_of_edges()
        ambiguous = sum(1 for p in build.problems if p.status == "ambiguous")
    state = load_state(paths)
    size = _folder_bytes(paths.index_dir)
    return VaultStatus(
        vault=paths.root,
        index_dir=paths.index_dir,
        notes=kinds["note"],
        unreadable=sum(1 for e in state.files.values() if e.note_id is None) if state else 0,
        links=links,
        dangling=kinds["dangling"],
        ambiguous=ambiguous,
        indexed_at=state.indexed_at if state else 0.0,
        index_bytes=size,
        code_files=kinds["file"],
    )


def _folder_bytes(folder: Path) -> int:
    """The bytes of the regular files under ``folder`` (0 when it is gone). A file an
    index writer removes while it is walked (a merged segment's ``.toc``, a replaced
    store) counts as gone, not as an error: ``rubi status`` runs beside the watcher."""
    total = 0
    for top, _, names in os.walk(folder):  # a folder gone mid-walk is passed over
        for name in names:
            try:
                st = os.lstat(os.path.join(top, name))
            except OSError:  # removed between the walk and the look
                continue
            if stat.S_ISREG(st.st_mode):
                total += st.st_size
    return total
