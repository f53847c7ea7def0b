"""Each code file's top-level symbols kept beside the saved code map, for a process
that has not read the map.

A search hit on code names its passages by the file's top-level symbols
(``src/app.py#Flask``, :func:`rubi.app.codesymbols.code_symbols`). They come from the
code map, whose pickle holds every file's symbols, imports and hashes as dataclasses:
a server's first search read all of it for the few code hits it showed (25-30 ms of
the 150 ms of CPU a first search cost on a project of 850 code files; a cold
``rubi search`` the same). This module keeps just the symbols, ``(name, 1-based
line)`` by file id, in one ``marshal`` file beside the map (:func:`symbols_file`),
tagged with the map's key (:func:`rubi.sync.codestore.code_map_key`: the stat of the
map file and of its delta and edits files), and reads it instead when the tag is the
map's key now: the same symbols the map holds, since the map is read from those files.

The Read guard's outline of a large file (:mod:`rubi.app.fileoutline`) needs each
symbol's kind too (``function prompt: lines 139-153``): those are kept the same way in a
second file, :func:`outlines_file` (``(kind, name, line)`` by file id), so a session's
first Read denial reads a few kilobytes instead of the whole map (the map's pickle, and
the imports of its dataclasses and ``typing``: 27 M instructions of the 31 M the first
denial cost a short session's server on pallets/click).

Each file is written by the process that read the map from disk for it
(:func:`kept_or_made`), only when the map's key did not change while it read it; a
process that holds the map already (a server whose watcher saved it) reads symbols
from the map and writes nothing. It is read only when it is a regular file of this
user that no one else may write (:func:`rubi.core.dataclasscode.read_trusted`),
written 0600 and atomically, and is rebuildable: a missing, stale or damaged one
costs the next reader one read of the map. The marshal payload follows its CRC-32
(:func:`zlib.crc32`): a damaged file is refused before ``marshal`` reads it, since a
few bytes of garbage can make ``marshal.loads`` allocate a tuple of 2**31 items
(tens of seconds and gigabytes before it fails).
"""

from __future__ import annotations

import marshal
import zlib

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path
    from typing import Any

    from rubi.core.paths import VaultPaths

__all__ = [
    "FORMAT",
    "OUTLINES_FORMAT",
    "Outlines",
    "Symbols",
    "forget_kept_symbols",
    "kept_or_made",
    "kept_outlines_or_made",
    "outlines_file",
    "symbols_file",
    "valid_outline",
    "valid_symbols",
]

FORMAT = 2
"""The file's layout: the payload's CRC-32 (4 bytes, big-endian), then the payload
``(FORMAT, map key, {file id: ((name, line), ...)})`` (``marshal``); files without
top-level symbols are left out."""

OUTLINES_FORMAT = 1
"""The layout of :func:`outlines_file`: as :data:`FORMAT`'s, its table
``{file id: ((kind, name, line), ...)}``."""

_CHECK_BYTES = 4
"""The CRC-32 before the payload."""

_MAX_BYTES = 64 << 20
"""A larger file is not read (850 code files' symbols take about 120 KB)."""

Symbols = dict[str, tuple[tuple[str, int], ...]]
"""File id → its top-level symbols, ``(name, 1-based line)`` in file order."""

Outlines = dict[str, tuple[tuple[str, str, int], ...]]
"""File id → its top-level symbols, ``(kind, name, 1-based line)`` in file order."""

_KEPT: dict[object, tuple[object, Symbols | None]] = {}
"""Index folder → (the map key, its symbols, or None: read them from the map)."""

_KEPT_OUTLINES: dict[object, tuple[object, Outlines | None]] = {}
"""Index folder → (the map key, its outlines, or None: read them from the map)."""


def symbols_file(paths: VaultPaths) -> Path:
    """``<index folder>/code-symbols.bin``."""
    return paths.index_dir / "code-symbols.bin"


def outlines_file(paths: VaultPaths) -> Path:
    """``<index folder>/code-outlines.bin``."""
    return paths.index_dir / "code-outlines.bin"


def forget_kept_symbols() -> None:
    """Drop what this process read or made (as a fresh process starts)."""
    _KEPT.clear()
    _KEPT_OUTLINES.clear()


def valid_symbols(value: object) -> bool:
    """``value`` is a tuple of ``(str, int)`` pairs (an entry of :data:`Symbols`)."""
    return type(value) is tuple and all(
        type(s) is tuple and len(s) == 2 and type(s[0]) is str and type(s[1]) is int for s in value
    )


def valid_outline(value: object) -> bool:
    """``value`` is a tuple of ``(str, str, int)`` triples (an entry of :data:`Outlines`)."""
    return type(value) is tuple and all(
        type(s) is tuple
        and len(s) == 3
        and type(s[0]) is str
        and type(s[1]) is str
        and type(s[2]) is int
        for s in value
    )


def _read(path: Path, key: object, layout: int = FORMAT) -> dict[str, Any] | None:
    """The table in ``path`` when it is trusted, of the format ``layout`` and tagged
    ``key``."""
    from rubi.core.dataclasscode import read_trusted

    data = read_trusted(path, _MAX_BYTES)
    if data is None or len(data) <= _CHECK_BYTES:
        return None
    payload = memoryview(data)[_CHECK_BYTES:]
    if int.from_bytes(data[:_CHECK_BYTES], "big") != zlib.crc32(payload):
        return None  # damaged: never handed to marshal
    try:
        kept = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if (
        type(kept) is not tuple
        or len(kept) != 3
        or kept[0] != layout
        or kept[1] != key
        or type(kept[2]) is not dict
    ):
        return None
    return kept[2]


def _write(path: Path, key: object, table: Mapping[str, Any], layout: int = FORMAT) -> None:
    """Keep ``table`` under ``key`` in the format ``layout``; never raises (a cache
    folder that cannot be written costs the next reader a read of the map)."""
    import contextlib

    from rubi.core.dataclasscode import write_trusted

    with contextlib.suppress(OSError, ValueError):
        payload = marshal.dumps((layout, key, dict(table)))  # type: ignore[arg-type]
        write_trusted(path, zlib.crc32(payload).to_bytes(_CHECK_BYTES, "big") + payload)


def kept_or_made(
    paths: VaultPaths,
    key: object,
    held: Callable[[], bool],
    made: Callable[[], Symbols | None],
) -> Symbols | None:
    """The symbols of the code map whose key is ``key``, or None: read them from the map.

    Args:
        paths: the vault (its index folder holds the map and :func:`symbols_file`).
        key: :func:`rubi.sync.codestore.code_map_key` now (not None).
        held: whether this process holds the map of ``key`` in memory already (then
            nothing is read or written: the map answers).
        made: reads the map and returns its symbols, or None when the map's key
            changed meanwhile (nothing is kept then).
    """
    found = _KEPT.get(paths.index_dir)
    if found is not None and found[0] == key:
        return found[1]
    symbols = _read(symbols_file(paths), key)
    if symbols is None and not held():
        symbols = made()
        if symbols is not None:
            _write(symbols_file(paths), key, symbols)
    _KEPT[paths.index_dir] = (key, symbols)
    return symbols


def kept_outlines_or_made(
    paths: VaultPaths,
    key: object,
    held: Callable[[], bool],
    made: Callable[[], Outlines | None],
) -> Outlines | None:
    """The outlines of the code map whose key is ``key``, or None: read them from the
    map. :func:`kept_or_made` for :func:`outlines_file` (the same arguments; ``made``
    returns the map's outlines)."""
    found = _KEPT_OUTLINES.get(paths.index_dir)
    if found is not None and found[0] == key:
        return found[1]
    outlines = _read(outlines_file(paths), key, OUTLINES_FORMAT)
    if outlines is None and not held():
        outlines = made()
        if outlines is not None:
            _write(outlines_file(paths), key, outlines, OUTLINES_FORMAT)
    _KEPT_OUTLINES[paths.index_dir] = (key, outlines)
    return outlines
