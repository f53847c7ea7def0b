"""The saved code map: its pickle beside the index, and the deltas that keep an edit's
write to kilobytes (:func:`save_code_map`, :func:`read_code_map`).

A delta is tied to its map by an id written inside the map file (a small pickle before
the map's), and kept-shape edits to their delta by the delta's own id: a copied or
restored cache folder (new inodes) keeps them. A delta naming another id is older than
the map (a run stopped between writing the map and removing the delta) and is left
out; an older rubi's keyed by the map file's stat, which a copy changes, makes the map
read as absent: the run rebuilds it from the files, never from an older map. A damaged
delta or edits file (unreadable, not a delta) is set aside (:func:`damaged_file`, one
warning line) and the map read without it, as of its last whole write: never a missing
map (code hits without symbols, ``rubi map`` empty until a code file changes). The
file set aside tells the next ``rubi index`` that the map may be behind the files: it
takes no "nothing changed" shortcut (:func:`has_current_map`) and writes the map whole.

The files are the user's cache (:func:`rubi.core.picklefiles.load_pickle` refuses others).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

from rubi.core.atomic import atomic_write_stream
from rubi.core.paths import VaultPaths
from rubi.core.picklefiles import collector_paused, load_pickle, open_trusted, save_pickle

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import BinaryIO

    from rubi.codemap.model import BuildStats, CodeFile, CodeMap

__all__ = [
    "DELTA_MAX",
    "CodeMapDelta",
    "code_map_key",
    "damaged_file",
    "delta_file",
    "edits_file",
    "has_current_map",
    "map_by_id",
    "map_file_id",
    "memory_map_file",
    "read_code_map",
    "save_code_map",
]

log = logging.getLogger(__name__)


DELTA_MAX = 256
"""Files a code-map delta may hold before the whole map is written again."""

MAP_FORMAT = 2
"""The map file's format: 2 has a header pickle ``("rubi-codemap", 2, <id>)`` before
the map's (an older rubi's file holds the map alone, and reads it here as absent)."""

_MAGIC = "rubi-codemap"

MapKey = str | tuple[int, int, int]
"""What a delta names its map (or kept-shape edits their delta) by: the id written in
the file, or, in a file an older rubi wrote, its ``(inode, mtime_ns, size)``."""


def _new_id() -> str:
    return os.urandom(16).hex()


def _header(ident: str) -> bytes:
    return pickle.dumps((_MAGIC, MAP_FORMAT, ident), protocol=pickle.HIGHEST_PROTOCOL)


_HEADER_SIZE = len(_header(_new_id()))
"""Bytes of the header: its id is always 32 hex digits."""


class _Untied(Exception):
    """A delta is there that cannot be tied to the map: read the map as absent."""


class _Damaged(_Untied):
    """A delta (or edits) file that cannot be read or is not a delta: set it aside and
    read the map without it (:func:`read_code_map`)."""

    def __init__(self, file: Path, key: tuple[int, int, int] | None) -> None:
        super().__init__(file)
        self.file, self.key = file, key


def delta_file(paths: VaultPaths) -> Path:
    """The code map's delta beside it (:func:`save_code_map`)."""
    return paths.codemap_file.with_name("codemap-delta.pickle")


def damaged_file(paths: VaultPaths) -> Path:
    """Where a damaged delta or edits file is set aside (:func:`read_code_map`): kept
    for a look, and while there the map may be behind the files (the next save writes
    it whole and removes this)."""
    return paths.codemap_file.with_name("codemap-damaged.pickle")


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
        base: the id of the map file this delta applies to (of the delta, for
            kept-shape edits); a delta naming another id is older than the map and
            left out. An older rubi's: the file's ``(inode, mtime_ns, size)``.
        files: the changed (or new) files' entries, by path.
        stats: the build figures of the last run.
        removed: files no longer on the map.
        rest: when files changed shape (imports, files come or gone): the map as it
            is now with no ``files``; None when every change kept the shape.
        ident: this delta's own id, which kept-shape edits name (absent from an older
            rubi's delta: read it with ``getattr``).
    """

    base: MapKey
    files: dict[str, CodeFile]
    stats: BuildStats
    removed: tuple[str, ...] = ()
    rest: CodeMap | None = None
    ident: str = ""


def _key(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _read_delta(file: Path, base: MapKey) -> CodeMapDelta | None:
    """The delta in ``file`` when it applies to what ``base`` names; None when there is
    none or it names another id (an older delta the map or delta named already holds).

    Raises:
        _Damaged: the file is unreadable or not a delta.
        _Untied: its key is a stat (an older rubi's) that does not match: it may
            belong to a copied map.
    """
    key = _file_key(file)
    try:
        loaded = load_pickle(file)
    except FileNotFoundError:
        return None
    except Exception as exc:
        raise _Damaged(file, key) from exc
    if not isinstance(loaded, CodeMapDelta):
        raise _Damaged(file, key)
    if loaded.base == base:
        return loaded
    if isinstance(base, str):
        return None
    raise _Untied


def _file_key(path: Path) -> tuple[int, int, int] | None:
    try:
        return _key(path.stat())
    except FileNotFoundError:
        return None


_Deltas = tuple["CodeMapDelta | None", "CodeMapDelta | None"]
_last_deltas: tuple[tuple[object, ...], _Deltas] | None = None
"""What :func:`_read_deltas` read last (a save's run read it: 2.5 MB on 10,000 files)."""


def _read_deltas(paths: VaultPaths, base: MapKey) -> _Deltas | None:
    """The map's delta and kept-shape edits (:data:`_last_deltas` while the files are
    those read); None when the delta was replaced while read (read again).

    Raises:
        _Untied: as :func:`_read_delta`.
    """
    global _last_deltas
    key, edits_key = _file_key(delta_file(paths)), _file_key(edits_file(paths))
    if key is None:
        return None, None
    memo = (delta_file(paths), base, key, edits_key)
    if _last_deltas is not None and _last_deltas[0] == memo:
        return _last_deltas[1]
    delta = _read_delta(delta_file(paths), base)
    if _file_key(delta_file(paths)) != key:
        return None
    shaped = delta is not None and getattr(delta, "rest", None) is not None
    edits = _read_delta(edits_file(paths), getattr(delta, "ident", "") or key) if shaped else None
    if _file_key(edits_file(paths)) == edits_key:
        _last_deltas = (memo, (delta, edits))
    return delta, edits


def _read_id(fh: BinaryIO) -> str | None:
    """The id in the header of the map file open in ``fh``, left after it; None for a
    file without one (an older rubi's), left at its start."""
    head = fh.read(_HEADER_SIZE)
    try:
        value = pickle.loads(head)
    except Exception:
        value = None
    if (
        isinstance(value, tuple)
        and len(value) == 3
        and value[:2] == (_MAGIC, MAP_FORMAT)
        and isinstance(value[2], str)
    ):
        return value[2]
    fh.seek(0)
    return None


def _map_id(path: Path) -> str | None:
    """The id of the map file at ``path`` (its header alone read); None when there is
    none, no header, or it cannot be read."""
    try:
        with open_trusted(path) as fh:
            return _read_id(fh)
    except Exception:
        return None


def has_current_map(paths: VaultPaths) -> bool:
    """A map file of this format is there (its header read, not the map) and no
    damaged delta was set aside since it was written (:func:`damaged_file`): False
    for none, an older rubi's, whose delta a copy may have untied, or one that may be
    behind its files (write it again)."""
    return _map_id(paths.codemap_file) is not None and not _set_aside_file(paths)


def _set_aside_file(paths: VaultPaths) -> bool:
    """Whether a file is set aside at :func:`damaged_file`: a folder (or a symlink to
    one, or to nothing) of that name is no file of rubi's and tells nothing."""
    return damaged_file(paths).is_file()


def _load_map(path: Path) -> tuple[MapKey, object, tuple[int, int, int]]:
    """The map file's key (its id, or an older rubi's file's stat), what it holds and
    the stat key of the file read, from one open file (a map replaced meanwhile is
    not mixed in)."""
    with collector_paused(), open_trusted(path) as fh:
        ident = _read_id(fh)
        loaded = pickle.load(fh)
        read = _key(os.fstat(fh.fileno()))
        return (ident if ident is not None else read), loaded, read


def _write_map(path: Path, code_map: CodeMap) -> str:
    """Write the map file atomically: its header with a new id, then the map; the id."""
    ident = _new_id()
    header = _header(ident)

    def write(fh: BinaryIO) -> None:
        fh.write(header)
        pickle.dump(code_map, fh, protocol=pickle.HIGHEST_PROTOCOL)

    atomic_write_stream(path, write, mode=0o600)
    return ident


_last_base: tuple[Path, str, CodeMap] | None = None
"""The map file :func:`read_code_map` read last (its path and id) as written, before
its delta: the map a memory written with it refers to (:func:`map_by_id`)."""


def map_by_id(paths: VaultPaths, ident: str) -> CodeMap | None:
    """The map written whole with the id ``ident``, as written (no delta): the one
    :func:`read_code_map` read last when it is that, else the map file or the copy
    kept for the code map's memory (:func:`memory_map_file`)
    when its header names ``ident``; None when neither does any more."""
    from rubi.codemap import CodeMap

    if _last_base is not None and _last_base[:2] == (paths.codemap_file, ident):
        return _last_base[2]
    for path in (paths.codemap_file, memory_map_file(paths)):
        if _map_id(path) != ident:
            continue
        try:
            got, loaded, _ = _load_map(path)
        except Exception:  # replaced meanwhile, unreadable, planted: not that map
            continue
        if got == ident and isinstance(loaded, CodeMap):
            return loaded
    return None


def memory_map_file(paths: VaultPaths) -> Path:
    """The map file the code map's memory refers to (:mod:`rubi.sync.memorystore`),
    kept here (a hard link) for when the map file is written whole again."""
    return paths.codemap_file.with_name("codemap-memory-map.pickle")


def map_file_id(paths: VaultPaths) -> str | None:
    """The id in the map file's header (None: no map, or an older rubi's)."""
    return _map_id(paths.codemap_file)


def read_code_map(paths: VaultPaths) -> CodeMap | None:
    """The code map saved by the last index run (its file and its delta), or None
    (absent, unreadable, or with a delta that cannot be tied to it: the run builds
    it again). Read it through :meth:`rubi.sync.vaultsync.VaultSync.code_map`, which
    keeps it."""
    from rubi.codemap import CodeMap

    global _last_base
    path = paths.codemap_file
    for _ in range(3):  # the delta replaced while read: read again
        try:
            base, loaded, read = _load_map(path)
        except FileNotFoundError:
            return None
        except Exception as exc:
            log.warning("%s: unreadable (%s); run `rubi index` to rebuild it", path, exc)
            return None
        if not isinstance(loaded, CodeMap):
            return None
        if isinstance(base, str):
            _last_base = (path, base, loaded)
        try:
            deltas = _read_deltas(paths, base)
        except _Damaged as exc:
            if _set_aside(paths, exc):
                continue  # read again without it (or the new one a writer put there)
            return loaded  # it cannot be moved (a read-only cache): the map as written
        except _Untied:
            return None
        if deltas is None or _file_key(path) != read:
            continue  # the delta, or the map (its delta then removed), replaced meanwhile
        delta, edits = deltas
        if delta is None:
            return loaded
        files = {**loaded.files, **delta.files}
        rest: CodeMap | None = getattr(delta, "rest", None)  # none in an older rubi's delta
        if rest is None:
            return replace(loaded, files=files, stats=delta.stats)
        for name in getattr(delta, "removed", ()):
            files.pop(name, None)
        stats = delta.stats
        if edits is not None:
            files.update(edits.files)
            stats = edits.stats
        return replace(rest, files=dict(sorted(files.items())), stats=stats)
    return None


def _set_aside(paths: VaultPaths, damaged: _Damaged) -> bool:
    """Move the damaged file to :func:`damaged_file` (one warning line), unless it was
    replaced since it was read (a writer's new one: read that); False when it cannot
    be moved."""
    aside = damaged_file(paths)
    cause = damaged.__cause__
    why = f"unreadable ({cause})" if cause is not None else "not a code map delta"
    try:
        if _file_key(damaged.file) != damaged.key:
            return True
        os.replace(damaged.file, aside)
    except FileNotFoundError:
        return True
    except OSError as exc:
        log.warning("%s: %s; the code map is read without it (%s)", damaged.file, why, exc)
        return False
    log.warning(
        "%s: %s; set aside as %s, the code map is read without it (rubi index brings "
        "it up to date)",
        damaged.file,
        why,
        aside.name,
    )
    return True


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
    *,
    whole: bool = False,
) -> str | None:
    """Save ``code_map``, as a delta beside the map file when the delta stays under
    :data:`DELTA_MAX` files: an edit writes kilobytes, not the whole map.

    A map that kept its shape (``stats.reused_shape``: only the ``changed`` files'
    hashes, sizes and symbol lines differ from the saved one) adds those files to the
    delta. A map that changed shape adds the files whose entries differ from
    ``previous`` (the map as saved before this run) and the map's other fields; with
    no ``previous``, or past the limit, the map file is written and the delta removed.

    Args:
        whole: write the map file whatever the delta (a run that writes the code
            map's memory, which then names that file by its id).

    Returns:
        The id of the map file when it was written whole, else None.
    """
    base_file, extra, later = paths.codemap_file, delta_file(paths), edits_file(paths)
    aside = damaged_file(paths)
    base = _map_id(base_file)  # None: no map, or an older rubi's: written whole
    if (
        (code_map.stats.reused_shape or previous is not None)
        and not whole
        and base is not None
        and not _set_aside_file(paths)
        and _saved_as_delta(paths, base, code_map, changed, previous)
    ):
        return None
    ident = _write_map(base_file, code_map)
    extra.unlink(missing_ok=True)  # after: a reader of the new map ignores the old delta
    later.unlink(missing_ok=True)
    if _set_aside_file(paths):  # the map is whole and current again
        with contextlib.suppress(OSError):  # gone meanwhile, or a read-only folder
            aside.unlink()
    return ident


def _saved_as_delta(
    paths: VaultPaths,
    base: str,
    code_map: CodeMap,
    changed: Collection[str],
    previous: CodeMap | None,
) -> bool:
    """Save ``code_map`` as a delta (or kept-shape edits) on the map file ``base``
    (see :func:`save_code_map`); False when it must be written whole."""
    extra, later = delta_file(paths), edits_file(paths)
    try:
        deltas = _read_deltas(paths, base)
    except _Untied:
        return False
    if deltas is None or not (deltas[0] or not extra.exists()):
        return False
    delta, edits = deltas
    shaped = delta is not None and getattr(delta, "rest", None) is not None
    if code_map.stats.reused_shape and shaped and delta is not None:
        files = dict(edits.files) if edits is not None else {}
        files.update((p, code_map.files[p]) for p in changed if p in code_map.files)
        if len(delta.files) + len(files) + len(delta.removed) <= DELTA_MAX:
            save_pickle(later, CodeMapDelta(delta.ident, files, code_map.stats))
            return True
        return False
    saved = _delta(base, delta, edits, code_map, changed, previous)
    if saved is None:
        return False
    save_pickle(extra, saved)
    later.unlink(missing_ok=True)  # tied to the delta replaced
    return True


def _delta(
    base: str,
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
    return CodeMapDelta(base, files, code_map.stats, tuple(sorted(removed)), rest, _new_id())
