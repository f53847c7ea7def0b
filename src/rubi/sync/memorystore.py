"""The code map's memory on disk (``codemap-memory.pickle`` beside the map): what a
cold ``rubi index`` reshapes the map from, as a watcher reshapes it from the memory it
holds (:mod:`rubi.codemap.incremental`), instead of resolving every file again.

Written by a run that built the map in full (its memory is at hand then), and again by
a run that reshaped from a memory more than :data:`REWRITE_AFTER` files behind; read by
a run with no memory of its own whose edit changed some file's shape. A memory read
back describes the map as of its write, not the map saved last: reshaping from it
re-reads every file whose stat differs from what it remembers (the files edited since
as well), and gives the map a full build gives (ranks within the rank tolerance, as in
a watcher).

The file is the user's cache (:func:`rubi.core.picklefiles.check_trusted` refuses
others). Its header names the format, the parsers' version and the project: a memory of
another format, parser version or folder is not used (the map is built in full, and
that run writes the file again).

Format 2 holds no copy of the memory's map when that map is the map file written whole
in the same run: its header names that file's id and the map is the one the run read
anyway (:func:`rubi.sync.codestore.map_by_id`; 0.1 s of CPU and 5.8 MB less on
spring-framework). A run that writes the map file whole again first keeps the file
the memory refers to (:func:`rubi.sync.codestore.memory_map_file`, a hard link). A
memory whose map is found nowhere is not used (the map is built in full). A memory of
format 1 (its own copy of the map) is still read.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import logging
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rubi.core.atomic import atomic_write_stream
from rubi.core.paths import VaultPaths
from rubi.core.picklefiles import UntrustedCacheError, collector_paused, open_trusted
from rubi.sync.codestore import map_by_id, map_file_id, memory_map_file

if TYPE_CHECKING:
    from rubi.codemap.incremental import MapMemory

__all__ = [
    "MEMORY_FORMAT",
    "REWRITE_AFTER",
    "drop_memory",
    "keep_memory_map",
    "load_memory",
    "memory_file",
    "memory_map_id",
    "save_memory",
]

log = logging.getLogger(__name__)

MEMORY_FORMAT = 2
"""Bump when :class:`~rubi.codemap.incremental.MapMemory` or what it holds change shape.
2: the header names the map file the memory's map is (see the module docstring)."""

_OWN_MAP = 1
"""The format of a memory holding its own copy of its map (read as before)."""

_MAP_REF = "rubi-code-map"
"""The persistent id the memory's map is pickled as in format 2."""

REWRITE_AFTER = 32
"""A run that reshaped from a memory read back writes it again when more than this
many listed files differed from it (:attr:`~rubi.codemap.incremental.MapMemory.touched`:
each later run would read them all again)."""


def memory_file(paths: VaultPaths) -> Path:
    """Where the memory of ``paths``' code map is kept."""
    return paths.codemap_file.with_name("codemap-memory.pickle")


def _records() -> tuple[type, ...]:
    """The frozen slotted records a memory holds by the thousand, pickled as a call of
    their class with their fields (a third faster to read back than their state)."""
    from rubi.codemap.cache import CacheEntry
    from rubi.codemap.model import CodeFile, ImportSpec, Parsed, Symbol

    return (Parsed, Symbol, ImportSpec, CacheEntry, CodeFile)


def _shared_records() -> tuple[type, ...]:
    """The records written once per distinct value (:func:`_dispatch`): immutable
    (frozen, hashable, compared by value) and repeated across files, such as one
    ``import java.util.List`` in thousands of parses."""
    from rubi.codemap.model import ImportSpec, Symbol

    return (ImportSpec, Symbol)


def _dispatch() -> dict[Any, Any]:
    """The pickler's dispatch table of one memory write: each record of
    :func:`_records` as a call of its class with its fields, and every string, tuple
    and record of :func:`_shared_records` among those fields replaced by the first
    equal one met in this write, so that the pickle's memo writes a repeated value
    once and the reader makes one object for it (the idents ``org`` and
    ``springframework`` of every parse, an import many files write alike).

    What is read back is equal, field by field, to what was written; only objects of
    equal value are shared, and every one of them is immutable. On spring-framework's
    9,724 files (one process, the same memory): the file 22.8 → 14.2 MB, its read
    0.19-0.21 → 0.13 s of CPU, its write 0.88 → 0.63 s.
    """
    seen: dict[Any, Any] = {}
    shared_types = _shared_records()
    keep = seen.setdefault

    def share(value: Any) -> Any:
        kind = type(value)
        if kind is str or kind in shared_types:
            return keep(value, value)
        if kind is tuple:
            return tuple([share(item) for item in value])
        return value

    table = copyreg.dispatch_table.copy()
    table.update((cls, _by_fields(cls, share)) for cls in _records())
    return table


def _by_fields(cls: type, share: Callable[[Any], Any]) -> Any:
    names = tuple(f.name for f in dataclasses.fields(cls))

    def reduce(obj: object) -> tuple[type, tuple[Any, ...]]:
        return cls, tuple([share(getattr(obj, name)) for name in names])

    return reduce


def _header(paths: VaultPaths, map_id: str) -> tuple[int, int, str, str]:
    from rubi.codemap.lang import PARSER_VERSION

    return (MEMORY_FORMAT, PARSER_VERSION, str(paths.project_root), map_id)


def save_memory(paths: VaultPaths, memory: MapMemory, map_id: str = "") -> bool:
    """Write ``memory`` atomically (the user's own file, 0600). About 0.6 s of CPU
    and 14 MB for spring-framework's 9,724 mapped files (each repeated value once:
    :func:`_dispatch`).

    Args:
        map_id: the id of the map file just written whole with ``memory.code_map``
            (:func:`rubi.sync.codestore.save_code_map`): the memory refers to it
            instead of holding a copy. "": the memory holds its own.

    Returns:
        True when written; a failed write is logged and the file removed (a later
        run builds the map in full, as without one).
    """
    table = _dispatch()
    the_map = memory.code_map

    def write(fh: IO[bytes]) -> None:
        pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        pickler.dump(_header(paths, map_id))
        pickler.clear_memo()  # each pickle is read by an unpickler of its own
        if map_id:
            pickler.persistent_id = lambda obj: _MAP_REF if obj is the_map else None  # type: ignore[method-assign]
        pickler.dump(memory)

    try:
        with collector_paused():
            atomic_write_stream(memory_file(paths), write, mode=0o600)
    except (OSError, pickle.PicklingError, TypeError) as exc:
        log.warning("%s: code map memory not written (%s)", memory_file(paths), exc)
        drop_memory(paths)
        return False
    with contextlib.suppress(OSError):  # a map file kept for an earlier memory
        memory_map_file(paths).unlink(missing_ok=True)
    return True


def memory_map_id(paths: VaultPaths) -> str | None:
    """The id of the map file the memory on disk refers to (its header alone read);
    None when there is no memory of this format and project, or it holds its map."""
    try:
        with open_trusted(memory_file(paths)) as fh:
            header = pickle.load(fh)
    except Exception:  # none, damaged or planted: it refers to no map
        return None
    if isinstance(header, tuple) and len(header) == 4 and header[:3] == _header(paths, "")[:3]:
        return header[3] or None
    return None


def keep_memory_map(paths: VaultPaths) -> None:
    """Before a run saves the map: when the memory on disk refers to the map file as
    it is, keep that file as :func:`~rubi.sync.codestore.memory_map_file` (a hard
    link, no copy; nothing when it is already), so that the memory still has its map
    once the map file is written whole again. A few stats and two headers read."""
    wanted = memory_map_id(paths)
    if wanted is None or map_file_id(paths) != wanted:
        return
    kept, base = memory_map_file(paths), paths.codemap_file
    staged = kept.with_name(f".{kept.name}.{os.getpid()}.tmp")
    try:
        if os.path.samefile(kept, base):
            return
    except OSError:
        pass  # none kept yet
    try:
        staged.unlink(missing_ok=True)
        os.link(base, staged)
        os.replace(staged, kept)
    except OSError as exc:  # no hard links here: the memory may go unused later
        log.info("%s: not kept for the code map memory (%s)", base, exc)
        with contextlib.suppress(OSError):
            staged.unlink(missing_ok=True)


def load_memory(paths: VaultPaths) -> MapMemory | None:
    """The memory written last for this project, or None: none, another format,
    parser version or project, or unreadable (one line logged; the map is then built
    in full, and the file written again)."""
    from rubi.codemap.incremental import MapMemory

    path = memory_file(paths)
    try:
        with collector_paused(), open_trusted(path) as fh:
            header = pickle.load(fh)
            found = _map_of(paths, header)
            if found is None:
                return None
            reader = pickle.Unpickler(fh)
            if found is not _OWN_MAP:
                reader.persistent_load = _the_map(found)  # type: ignore[method-assign]
            memory = reader.load()
    except FileNotFoundError:
        return None
    except Exception as exc:  # a damaged or planted file: build in full instead
        reason = exc.reason if isinstance(exc, UntrustedCacheError) else str(exc)
        log.warning(
            "%s: code map memory not read (%s); the map is built in full and the file "
            "written again",
            path,
            reason,
        )
        return None
    return memory if isinstance(memory, MapMemory) else None


def _map_of(paths: VaultPaths, header: object) -> object:
    """What the memory under ``header`` takes its map from: :data:`_OWN_MAP` (it holds
    it: format 1, or 2 with no map id), the map named (read with
    :func:`rubi.sync.codestore.map_by_id`), or None: a header of another format,
    parser version or project, or a map found nowhere."""
    if isinstance(header, tuple) and len(header) == 3 and header[0] == _OWN_MAP:
        return _OWN_MAP if header[1:] == _header(paths, "")[1:3] else None
    if not isinstance(header, tuple) or len(header) != 4 or header[:3] != _header(paths, "")[:3]:
        return None
    if not header[3]:
        return _OWN_MAP
    found = map_by_id(paths, str(header[3]))
    if found is None:
        log.info("%s: the map it refers to is gone; the map is built in full", memory_file(paths))
    return found


def _the_map(code_map: object) -> Any:
    def load(pid: object) -> object:
        if pid != _MAP_REF:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return code_map

    return load


def drop_memory(paths: VaultPaths) -> None:
    """Remove the memory file (a failure to is ignored: the header or the stamps
    then tell a later run what it holds)."""
    with contextlib.suppress(OSError):
        memory_file(paths).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        memory_map_file(paths).unlink(missing_ok=True)
