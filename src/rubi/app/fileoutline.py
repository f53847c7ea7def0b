"""A code file's symbols with the lines each spans, from the code map the last index
run saved: what the Read guard gives Claude with a denial, so a ranged read of the
part it needs is one step away.

Import it as a submodule (``from rubi.app.fileoutline import symbol_ranges``): it loads
only the symbols kept beside the saved code map (each file's ``(kind, name, line)``,
a few kilobytes: :func:`rubi.sync.keptsymbols.kept_outlines_or_made`), or the map
itself when they are not kept for the map's key; never the search stack, and never
the vault sync's modules when this process has no vault sync of the project
(:func:`saved_code_map`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rubi.core.paths import VaultPaths

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from rubi.codemap import CodeMap

__all__ = ["SymbolRange", "outline_lines", "saved_code_map", "symbol_ranges"]

_READ: tuple[Path, object, CodeMap | None] | None = None
"""The map :func:`saved_code_map` read last without a vault sync: (index folder, map
key, map)."""


@dataclass(frozen=True, slots=True)
class SymbolRange:
    """A top-level symbol and its lines: from its definition to the line before the
    next symbol (the last runs to the end of the file); 1-based, inclusive."""

    kind: str
    name: str
    start: int
    end: int


def _relative(paths: VaultPaths, file_path: str) -> str | None:
    """``file_path`` (absolute, or relative to the project) as the code map names it
    (``/``-separated, relative to the project), or None when outside the project."""
    root = paths.project_root
    if root is None:
        return None
    path = Path(file_path)
    if not path.is_absolute():
        return path.as_posix().removeprefix("./")
    for base in (root, root.resolve()):
        for candidate in (path, Path(os.path.realpath(path))):
            try:
                return candidate.relative_to(base).as_posix()
            except ValueError:
                continue
    return None


def symbol_ranges(paths: VaultPaths, file_path: str, total_lines: int) -> list[SymbolRange]:
    """The symbols of ``file_path`` in the saved code map, each with its line span, in
    file order; [] when the file is not mapped (outside the project, not indexed yet,
    not code) or the map cannot be read.

    Args:
        paths: the project vault.
        file_path: the file, absolute or relative to the project.
        total_lines: the file's line count (the last symbol's end).
    """
    rel = _relative(paths, file_path)
    if rel is None:
        return []  # outside the project: the code map (and its loader) is not needed
    outline = _kept_outline(paths, rel)
    if outline is None:
        code_map = saved_code_map(paths)
        file = code_map.files.get(rel) if code_map is not None else None
        if file is None:
            return []
        outline = [(s.kind, s.name, s.line) for s in file.symbols]
    symbols = sorted(outline, key=lambda s: s[2])
    out: list[SymbolRange] = []
    for i, (kind, name, line) in enumerate(symbols):
        nxt = symbols[i + 1][2] - 1 if i + 1 < len(symbols) else max(total_lines, line)
        out.append(SymbolRange(kind, name, line, max(line, nxt)))
    return out


def _kept_outline(paths: VaultPaths, rel: str) -> list[tuple[str, str, int]] | None:
    """The symbols of the code file ``rel`` as ``(kind, name, line)`` in the map's order,
    from the outlines kept beside the saved map for its key now
    (:func:`rubi.sync.keptsymbols.kept_outlines_or_made`; ``[]``: a file without
    symbols, or none the map holds); None when the map must answer (no map, a vault
    sync of this process holds it, or the kept entry is damaged)."""
    from rubi.sync.codestore import code_map_key
    from rubi.sync.keptsymbols import kept_outlines_or_made, valid_outline

    key = code_map_key(paths)
    if key is None:
        return None
    kept = kept_outlines_or_made(
        paths, key, lambda: _map_held(paths, key), lambda: _map_outlines(paths, key)
    )
    found = kept.get(rel, ()) if kept is not None else None
    return list(found) if found is not None and valid_outline(found) else None


def _map_held(paths: VaultPaths, key: object) -> bool:
    """This process's vault sync of ``paths`` holds the code map of ``key``."""
    import sys

    run = sys.modules.get("rubi.sync.run")
    if run is None or not run.has_vault_sync(paths):
        return False
    return bool(run.vault_sync_for(paths).holds_code_map(key))


def _map_outlines(
    paths: VaultPaths, key: object
) -> dict[str, tuple[tuple[str, str, int], ...]] | None:
    """Every mapped file's symbols as ``(kind, name, line)`` in the map's order, read
    from the saved map (:func:`saved_code_map`); None when there is no map or its key
    is not ``key`` any more (a run saved it meanwhile)."""
    from rubi.sync.codestore import code_map_key

    code_map = saved_code_map(paths)
    if code_map is None or code_map_key(paths) != key:
        return None
    return {
        name: tuple((s.kind, s.name, s.line) for s in file.symbols)
        for name, file in code_map.files.items()
        if file.symbols
    }


def saved_code_map(paths: VaultPaths) -> CodeMap | None:
    """The project's code map as of the last index run, or None (no map, unreadable).

    Through this process's vault sync of ``paths`` when it has one (it keeps the map,
    :func:`rubi.sync.load_code_map`); else read from the map's files
    (:func:`rubi.sync.codestore.read_code_map`, what the vault sync reads too) and kept
    here while its key (:func:`rubi.sync.codestore.code_map_key`) stays the same: a
    server's first Read denial no longer imports the vault sync's two dozen modules
    (30-40 ms of CPU) for a map it reads once.
    """
    import sys

    global _READ
    run = sys.modules.get("rubi.sync.run")
    if run is not None and run.has_vault_sync(paths):
        _READ = None  # the vault sync keeps the map: never two copies
        return run.load_code_map(paths)  # type: ignore[no-any-return]
    from rubi.sync.codestore import code_map_key, read_code_map

    key = code_map_key(paths)
    if key is None:
        return None
    read = _READ
    if read is not None and read[0] == paths.index_dir and read[1] == key:
        return read[2]
    code_map = read_code_map(paths)
    if code_map_key(paths) == key:  # not replaced while read: keep it for the next denial
        _READ = (paths.index_dir, key, code_map)
    return code_map


def outline_lines(ranges: list[SymbolRange], max_chars: int) -> list[str]:
    """One line per symbol (``class Flask: lines 108-1536``) within ``max_chars`` in
    all; the widest symbols are kept when they do not all fit (they are where a ranged
    read is most needed), shown in file order, with a count of the rest."""
    lines = [f"{r.kind} {r.name}: lines {r.start}-{r.end}" for r in ranges]
    if sum(len(line) + 1 for line in lines) <= max_chars:
        return lines
    by_width = sorted(range(len(ranges)), key=lambda i: ranges[i].start - ranges[i].end)
    kept: list[int] = []
    used = 40  # room for the count line
    for i in by_width:
        if used + len(lines[i]) + 1 > max_chars:
            break
        kept.append(i)
        used += len(lines[i]) + 1
    shown = [lines[i] for i in sorted(kept)]
    return [*shown, f"… {len(lines) - len(shown)} smaller symbols not listed"]
