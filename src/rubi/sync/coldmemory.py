"""A cold ``rubi index`` whose edit changed some file's shape: the code map reshaped
from the memory on disk (:mod:`rubi.sync.memorystore`), as a watcher reshapes it from
the memory it holds, and made a shape change against the saved map."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rubi.core.paths import VaultPaths
from rubi.sync.memorystore import REWRITE_AFTER, load_memory

if TYPE_CHECKING:
    from rubi.codemap.files import FileListing
    from rubi.codemap.incremental import MapMemory
    from rubi.codemap.model import CodeMap

__all__ = ["TO_SAVE", "from_saved_memory"]

TO_SAVE = -1
""":attr:`~rubi.codemap.incremental.MapMemory.touched` of a memory the run writes to
disk (:func:`rubi.sync.code.map_code`: after the map file, written whole, which the
memory then names instead of holding a copy of its map)."""


def from_saved_memory(
    paths: VaultPaths,
    previous: CodeMap,
    listing: FileListing,
    stats: Mapping[str, os.stat_result],
) -> tuple[CodeMap, MapMemory | None] | None:
    """The map of a run with no memory of its own and no watcher's events (a cold
    ``rubi index``): ``previous`` kept with the changed files' new parses when every one
    kept its shape, else reshaped from the memory on disk (:mod:`rubi.sync.memorystore`)
    as a watcher reshapes it from the one it holds, the memory written again when it
    was far behind. None when the memory cannot be read, or the reshape needs a full
    build (a manifest changed, the cache unreadable)."""
    from rubi.codemap.build import kept_code_map
    from rubi.codemap.incremental import reshape_code_map

    root = paths.project_root
    assert root is not None
    code_map = kept_code_map(root, paths.codemap_cache, previous, listing, stats)
    if code_map is not None:
        return code_map, None
    memory = load_memory(paths)
    if memory is None:
        return None
    stale = _behind(memory.code_map, previous)
    got = reshape_code_map(root, paths.codemap_cache, memory, listing, stats)
    if got is None:
        return None
    code_map, memory = got
    if stale or not code_map.stats.reused_shape:
        # the graph was made of the saved map, which the memory's may not be (another
        # shape id, ranks within the tolerance, or files edited since the memory)
        code_map = _against_saved(previous, code_map)
        memory.code_map = code_map
    if memory.touched > REWRITE_AFTER:
        memory.touched = TO_SAVE  # written by map_code, with the map
    return code_map, memory


def _against_saved(saved: CodeMap, code_map: CodeMap) -> CodeMap:
    """``code_map``, reshaped from a memory read back, as a shape change against
    ``saved`` (the map the graph was made of): with ``saved``'s ranks and shape id
    when it gives a graph what ``saved`` gives (``stats.kept_graph``: the graph and
    its files stay), else with a shape id of its own (the code nodes move)."""
    from rubi.codemap.graphshape import keeps_graph, with_graph_of
    from rubi.codemap.model import new_shape_id

    if keeps_graph(saved, code_map):
        return with_graph_of(saved, code_map)
    stats = replace(code_map.stats, reused_shape=False, kept_graph=False)
    return replace(code_map, stats=stats, shape_id=new_shape_id())


def _behind(remembered: CodeMap, saved: CodeMap) -> bool:
    """The memory's map is not the saved one: some file's content differs, or the
    files do."""
    files = saved.files
    return len(remembered.files) != len(files) or any(
        (f := files.get(p)) is None or f.sha256 != r.sha256 for p, r in remembered.files.items()
    )
