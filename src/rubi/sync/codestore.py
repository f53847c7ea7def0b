"""The saved code map: its pickle beside the index, and the deltas that keep an edit's
write to kilobytes (:func:`save_code_map`, :func:`read_code_map`).

The files are the user's cache (:func:`rubi.core.picklefiles.load_pickle` refuses others).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rubi.core.paths import VaultPaths
from rubi.core.picklefiles import load_pickle, save_pickle

if TYPE_CHECKING:
    from rubi.codemap.model import BuildStats, CodeFile, CodeMap

__all__ = [
    "DELTA_MAX",
    "CodeMapDelta",
    "code_map_key",
    "delta_file",
    "edits_file",
    "read_code_map",
    "save_code_map",
]

log = logging.getLogger(__name__)


DELTA_MAX = 256
"""Files a code-map delta may hold before the whole map is written again."""


def delta_file(paths: VaultPaths) -> Path:
    """The code map's delta beside it (:func:`save_code_map`)."""
    return paths.codemap_file.with_name("codemap-delta.pickle")


def edits_file(paths: VaultPaths) -> Path:
    """Kept-shape edits since a delta that holds a new shape, tied to that delta
    (:func:`save_code_map`): a comment edit need not write the shape again."""
    return paths.codemap_file.with_name("codemap-edits.pickle")


@dataclass(frozen=True, slots=True)
class CodeMapDelta:
    """What changed since the saved map was written: the changed files' new entries,
    the map's build figures as of the last run and, once files changed shape, the
    map's other fields.

    Attributes:
        base: ``(inode, mtime_ns, size)`` of the map file this delta applies to; a
            delta of another map file is ignored.
        files: the changed (or new) files' entries, by path.
        stats: the build figures of the last run.
        removed: files no longer on the map.
        rest: when files changed shape (imports, files come or gone): the map as it
            is now with no ``files``; None when every change kept the shape.
    """

    base: tuple[int, int, int]
    files: dict[str, CodeFile]
    stats: BuildStats
    removed: tuple[str, ...] = ()
    rest: CodeMap | None = None


def _key(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _read_delta(
    paths: VaultPaths, base: tuple[int, int, int], file: Path | None = None
) -> CodeMapDelta | None:
    """The delta in ``file`` (the map's delta by default) when it applies to the file
    whose key is ``base``."""
    file = file or delta_file(paths)
    try:
        loaded = load_pickle(file)
    except FileNotFoundError:
        return None
    except Exception as exc:
        log.warning("%s: unreadable (%s); the code map is read without it", file, exc)
        return None
    if isinstance(loaded, CodeMapDelta) and loaded.base == base:
        return loaded
    return None


def _file_key(path: Path) -> tuple[int, int, int] | None:
    try:
        return _key(path.stat())
    except FileNotFoundError:
        return None


def _read_deltas(
    paths: VaultPaths, base: tuple[int, int, int]
) -> tuple[CodeMapDelta | None, CodeMapDelta | None] | None:
    """The map's delta and the kept-shape edits tied to it; None when the delta was
    replaced while read (read again)."""
    key = _file_key(delta_file(paths))
    delta = _read_delta(paths, base) if key is not None else None
    if delta is None:
        return None, None
    if _file_key(delta_file(paths)) != key:
        return None
    edits = None
    if getattr(delta, "rest", None) is not None and key is not None:
        edits = _read_delta(paths, key, edits_file(paths))
    return delta, edits


def read_code_map(paths: VaultPaths) -> CodeMap | None:
    """The code map saved by the last index run (its file and its delta), or None
    (absent or unreadable). Read it through
    :meth:`rubi.sync.vaultsync.VaultSync.code_map`, which keeps it."""
    from rubi.codemap import CodeMap

    path = paths.codemap_file
    for _ in range(3):  # the map replaced while read: read again
        try:
            before = _key(path.stat())
            loaded = load_pickle(path)
            if _key(path.stat()) != before:
                continue
        except FileNotFoundError:
            return None
        except Exception as exc:
            log.warning("%s: unreadable (%s); run `rubi index` to rebuild it", path, exc)
            return None
        if not isinstance(loaded, CodeMap):
            return None
        deltas = _read_deltas(paths, before)
        if deltas is None:
            continue
        delta, edits = deltas
        if delta is None:
            return loaded
        files = {**loaded.files, **delta.files}
        rest: CodeMap | None = getattr(delta, "rest", None)  # none in an older rubi's delta
        if rest is None:
            return replace(loaded, files=files, stats=delta.stats)
        for path in getattr(delta, "removed", ()):
            files.pop(path, None)
        stats = delta.stats
        if edits is not None:
            files.update(edits.files)
            stats = edits.stats
        return replace(rest, files=dict(sorted(files.items())), stats=stats)
    return None


def code_map_key(paths: VaultPaths) -> tuple[object, ...] | None:
    """What changes when the saved code map (or its delta) is written; None when
    there is no map."""
    try:
        base = _key(paths.codemap_file.stat())
    except FileNotFoundError:
        return None
    return (base, _file_key(delta_file(paths)), _file_key(edits_file(paths)))


def save_code_map(
    paths: VaultPaths,
    code_map: CodeMap,
    changed: Collection[str],
    previous: CodeMap | None = None,
) -> None:
    """Save ``code_map``, as a delta beside the map file when the delta stays under
    :data:`DELTA_MAX` files: an edit writes kilobytes, not the whole map.

    A map that kept its shape (``stats.reused_shape``: only the ``changed`` files'
    hashes, sizes and symbol lines differ from the saved one) adds those files to the
    delta. A map that changed shape adds the files whose entries differ from
    ``previous`` (the map as saved before this run) and the map's other fields; with
    no ``previous``, or past the limit, the map file is written and the delta removed.
    """
    base_file, extra, later = paths.codemap_file, delta_file(paths), edits_file(paths)
    if code_map.stats.reused_shape or previous is not None:
        base = _file_key(base_file)
        deltas = _read_deltas(paths, base) if base is not None else None
        if base is not None and deltas is not None and (deltas[0] or not extra.exists()):
            delta, edits = deltas
            key = _file_key(extra)
            shaped = delta is not None and getattr(delta, "rest", None) is not None
            if code_map.stats.reused_shape and shaped and delta is not None:
                assert key is not None
                files = dict(edits.files) if edits is not None else {}
                files.update((p, code_map.files[p]) for p in changed if p in code_map.files)
                if len(delta.files) + len(files) + len(delta.removed) <= DELTA_MAX:
                    save_pickle(later, CodeMapDelta(key, files, code_map.stats))
                    return
            else:
                saved = _delta(base, delta, edits, code_map, changed, previous)
                if saved is not None:
                    save_pickle(extra, saved)
                    later.unlink(missing_ok=True)  # tied to the delta replaced
                    return
    save_pickle(base_file, code_map)
    extra.unlink(missing_ok=True)  # after: a reader of the new map ignores the old delta
    later.unlink(missing_ok=True)


def _delta(
    base: tuple[int, int, int],
    delta: CodeMapDelta | None,
    edits: CodeMapDelta | None,
    code_map: CodeMap,
    changed: Collection[str],
    previous: CodeMap | None,
) -> CodeMapDelta | None:
    """The delta that brings the map file to ``code_map`` (None: past the limit)."""
    files = dict(delta.files) if delta is not None else {}
    if edits is not None:
        files.update(edits.files)
    removed = set(getattr(delta, "removed", ())) if delta is not None else set()
    rest = getattr(delta, "rest", None) if delta is not None else None
    if code_map.stats.reused_shape:
        files.update((p, code_map.files[p]) for p in changed if p in code_map.files)
    else:
        assert previous is not None
        for path, entry in code_map.files.items():
            old = previous.files.get(path)
            if old is not entry and old != entry:
                files[path] = entry
        for path in previous.files.keys() - code_map.files.keys():
            files.pop(path, None)
            removed.add(path)
        removed -= code_map.files.keys()
        rest = replace(code_map, files={})
    if len(files) + len(removed) > DELTA_MAX:
        return None
    return CodeMapDelta(base, files, code_map.stats, tuple(sorted(removed)), rest)
