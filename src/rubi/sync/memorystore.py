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
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import logging
import pickle
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rubi.core.atomic import atomic_write_stream
from rubi.core.paths import VaultPaths
from rubi.core.picklefiles import UntrustedCacheError, collector_paused, open_trusted

if TYPE_CHECKING:
    from rubi.codemap.incremental import MapMemory

__all__ = [
    "MEMORY_FORMAT",
    "REWRITE_AFTER",
    "drop_memory",
    "load_memory",
    "memory_file",
    "save_memory",
]

log = logging.getLogger(__name__)

MEMORY_FORMAT = 1
"""Bump when :class:`~rubi.codemap.incremental.MapMemory` or what it holds change shape."""

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


def _by_fields(cls: type) -> Any:
    names = tuple(f.name for f in dataclasses.fields(cls))

    def reduce(obj: object) -> tuple[type, tuple[Any, ...]]:
        return cls, tuple([getattr(obj, name) for name in names])

    return reduce


def _header(paths: VaultPaths) -> tuple[int, int, str]:
    from rubi.codemap.lang import PARSER_VERSION

    return (MEMORY_FORMAT, PARSER_VERSION, str(paths.project_root))


def save_memory(paths: VaultPaths, memory: MapMemory) -> bool:
    """Write ``memory`` atomically (the user's own file, 0600). About 0.7 s of CPU
    and 26 MB for spring-framework's 9,724 mapped files.

    Returns:
        True when written; a failed write is logged and the file removed (a later
        run builds the map in full, as without one).
    """
    table = copyreg.dispatch_table.copy()
    table.update((cls, _by_fields(cls)) for cls in _records())

    def write(fh: IO[bytes]) -> None:
        pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        pickler.dump(_header(paths))
        pickler.clear_memo()  # each pickle is read by an unpickler of its own
        pickler.dump(memory)

    try:
        with collector_paused():
            atomic_write_stream(memory_file(paths), write, mode=0o600)
    except (OSError, pickle.PicklingError, TypeError) as exc:
        log.warning("%s: code map memory not written (%s)", memory_file(paths), exc)
        drop_memory(paths)
        return False
    return True


def load_memory(paths: VaultPaths) -> MapMemory | None:
    """The memory written last for this project, or None: none, another format,
    parser version or project, or unreadable (one line logged; the map is then built
    in full, and the file written again)."""
    from rubi.codemap.incremental import MapMemory

    path = memory_file(paths)
    try:
        with collector_paused(), open_trusted(path) as fh:
            header = pickle.load(fh)
            if header != _header(paths):
                return None
            memory = pickle.load(fh)
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


def drop_memory(paths: VaultPaths) -> None:
    """Remove the memory file (a failure to is ignored: the header or the stamps
    then tell a later run what it holds)."""
    with contextlib.suppress(OSError):
        memory_file(paths).unlink(missing_ok=True)
