"""Build the code map: list, read (incrementally), parse, resolve, group and rank."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from rubi.codemap.cache import CacheEntry, ParseCache, open_cache
from rubi.codemap.errors import CodeMapError
from rubi.codemap.files import (
    FileListing,
    list_files,
)
from rubi.codemap.model import BuildStats, CodeFile, CodeMap, Parsed
from rubi.codemap.modules import group_modules
from rubi.codemap.rank import degrees, rank_files, rank_modules
from rubi.codemap.resolution import Resolved, resolve_all
from rubi.codemap.scan import PROGRESS_EVERY, read_entry, scan_files
from rubi.core.model import ScanWarning

__all__ = [
    "PROGRESS_EVERY",
    "BuildParts",
    "build_code_map",
    "build_parts",
    "kept_code_map",
    "update_code_map",
]

logger = logging.getLogger(__name__)


def _parses(
    root: Path,
    paths: list[str],
    entries: dict[str, CacheEntry],
    changed: dict[str, CacheEntry],
    cache: ParseCache,
    counts: dict[str, int],
) -> dict[str, tuple[str, Parsed]]:
    """``{path: (language, parse)}`` of mapped ``paths``: from the scan, else decoded
    from the cache; a file whose cached parse is missing or malformed is read and
    parsed again (its entry joins ``changed``, so the row is rewritten)."""
    out = {p: (entries[p].language, e.parsed) for p in paths if (e := entries[p]).parsed}
    wanted = [p for p in paths if p not in out and entries[p].mapped]
    for path, parsed in cache.parses(wanted).items():
        out[path] = (entries[path].language, parsed)
    for path in wanted:
        if path in out:
            continue
        entry = read_entry(root, path, entries[path].language, None, cache, False, [], counts)
        if entry is None:
            continue
        entries[path] = changed[path] = entry
        if entry.parsed is not None:
            out[path] = (entry.language, entry.parsed)
    return out


def _shape(parsed: Parsed) -> tuple[object, ...]:
    """What resolution, grouping and ranking read of a parse: everything but the
    symbols' lines."""
    names = tuple((s.name, s.kind) for s in parsed.symbols)
    return (parsed.imports, names, parsed.package, parsed.idents, parsed.problems)


def build_code_map(
    repo_root: Path,
    cache_path: Path | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    previous: CodeMap | None = None,
    listing: FileListing | None = None,
    stats: Mapping[str, os.stat_result] | None = None,
) -> CodeMap:
    """Map a repository's code: files, imports, symbols, modules and ranks.

    Incremental: a file whose size and mtime match the cache is not read; a changed
    stat with unchanged content (same SHA-256) reuses the cached parse; only new
    content is parsed. Resolution, grouping and ranking run over the whole
    repository (they depend on every file) unless ``previous`` can be kept.

    Args:
        repo_root: the repository (a git work tree, or any folder).
        cache_path: the per-file parse cache (SQLite, :mod:`rubi.codemap.cache`): its
            rows are read if present and the changed ones written; None for no cache.
        progress: called with ``(files done, files total)`` every
            :data:`PROGRESS_EVERY` files and once at the end of the file scan.
        previous: the map this run updates. When the same files are mapped and every
            changed one kept its imports, package, identifiers and symbol names (an
            edit inside a function body), resolution, grouping and ranking cannot
            change: the previous map is kept with those files' new hashes, sizes and
            symbol lines (``stats.reused_shape``), and only the changed files' parses
            are decoded, which turns a one-file edit in a 10,000-file repository
            from seconds into milliseconds.
        listing: the repository's files as :func:`rubi.codemap.files.list_files`
            returned them this run (the caller listed them already); None to list.
        stats: :func:`rubi.codemap.files.stat_files` of ``listing`` this run (the
            caller took them already); None to stat each file here.

    Returns:
        The :class:`CodeMap`. Bad files never stop the run: each is reported in
        ``warnings`` with its path and left out or mapped as far as possible.

    Raises:
        CodeMapError: ``repo_root`` does not exist or is not a folder.
    """
    return build_parts(repo_root, cache_path, progress, previous, listing, stats)[0]


@dataclass(slots=True)
class BuildParts:
    """What a full build resolved from, for a process that keeps it
    (:mod:`rubi.codemap.incremental`).

    Attributes:
        entries: every candidate file's cache entry (mapped or left out; parses
            not kept), by path.
        scan_warnings: the warnings of each candidate file, by path.
        listing: the files listed.
        resolved: every mapped file's parse, resolution and out-edges.
        module_of: ``{path: module name}``.
    """

    entries: dict[str, CacheEntry]
    scan_warnings: dict[str, list[ScanWarning]]
    listing: FileListing
    resolved: Resolved
    module_of: dict[str, str]


def build_parts(
    repo_root: Path,
    cache_path: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    previous: CodeMap | None = None,
    listing: FileListing | None = None,
    stats: Mapping[str, os.stat_result] | None = None,
) -> tuple[CodeMap, BuildParts | None]:
    """:func:`build_code_map` (same arguments), with what it resolved from when it
    built the map in full (None when it kept ``previous``'s resolution)."""
    started = time.perf_counter()
    if not repo_root.is_dir():
        raise CodeMapError(f"{repo_root}: not a folder; pass the repository's root folder")
    if listing is None:
        listing = list_files(repo_root)
    cache = open_cache(cache_path)
    parts = None
    try:
        warnings = [*cache.warnings, *listing.warnings]
        first = len(warnings)
        entries, changed, counts = scan_files(
            repo_root, listing.paths, cache, warnings, progress, stats
        )
        kept = _kept(previous, entries, changed, cache) if previous is not None else None
        if previous is not None and kept is not None:
            scanned = (entries, changed, counts)
            code_map = _kept_map(repo_root, previous, kept, scanned, cache, listing, started)
            code_map = _rewarned(code_map, changed, warnings[first:])
        else:
            by_path: dict[str, list[ScanWarning]] = {}
            for warning in warnings[first:]:
                by_path.setdefault(warning.path, []).append(warning)
            mapped = sorted(p for p, e in entries.items() if e.mapped)
            code = _parses(repo_root, mapped, entries, changed, cache, counts)
            code_map, parts = _full(repo_root, code, entries, listing, counts, warnings, started)
            parts.scan_warnings = by_path
        problem = cache.write(changed, [p for p in cache.entries if p not in entries])
    finally:
        cache.close()
    if parts is not None:
        parts.entries = {p: replace(e, parsed=None) if e.parsed else e for p, e in entries.items()}
    return _with_warning(code_map, problem), parts


def kept_code_map(
    repo_root: Path,
    cache_path: Path | None,
    previous: CodeMap,
    listing: FileListing,
    stats: Mapping[str, os.stat_result],
) -> CodeMap | None:
    """:func:`build_code_map` with ``previous`` when it can keep ``previous``'s
    resolution (every changed file kept its shape, the same files are mapped), without
    resolving anything when it cannot: None then, and the caller reshapes the map
    (:func:`rubi.codemap.incremental.reshape_code_map`) or builds it in full. The
    changed files' parse rows are written either way (what they hold is their content
    now), the rows of files gone removed."""
    started = time.perf_counter()
    cache = open_cache(cache_path)
    try:
        warnings: list[ScanWarning] = []
        entries, changed, counts = scan_files(
            repo_root, listing.paths, cache, warnings, None, stats
        )
        kept = None if cache.warnings else _kept(previous, entries, changed, cache)
        code_map = None
        if kept is not None:
            scanned = (entries, changed, counts)
            code_map = _kept_map(repo_root, previous, kept, scanned, cache, listing, started)
            code_map = _rewarned(code_map, changed, warnings)
        problem = cache.write(changed, [p for p in cache.entries if p not in entries])
    finally:
        cache.close()
    return None if code_map is None else _with_warning(code_map, problem)


def _kept_map(
    repo_root: Path,
    previous: CodeMap,
    kept: list[str],
    scanned: tuple[dict[str, CacheEntry], dict[str, CacheEntry], dict[str, int]],
    cache: ParseCache,
    listing: FileListing,
    started: float,
) -> CodeMap:
    """``previous`` with the ``kept`` files' new parses (:func:`_update`); ``scanned``
    is the scan's entries, its changed ones and its counts."""
    entries, changed, counts = scanned
    code = _parses(repo_root, kept, entries, changed, cache, counts)
    return _update(previous, kept, entries, code, len(listing.paths), counts, started)


def _rewarned(code_map: CodeMap, changed: Collection[str], scanned: list[ScanWarning]) -> CodeMap:
    """``code_map`` with the warnings of the ``changed`` files those of this scan
    (``scanned``). A file left out for another reason than before (binary, then
    minified) changes no file, edge or name, but a warning: the map is then not of a
    kept shape (``stats.reused_shape`` False), so that it is saved whole and its
    pages written again."""
    if not changed:
        return code_map
    kept = [w for w in code_map.warnings if w.path not in changed]
    warnings = sorted({*kept, *(w for w in scanned if w.path in changed)}, key=_order)
    if warnings == code_map.warnings:
        return code_map
    stats = replace(code_map.stats, reused_shape=False)
    return replace(code_map, warnings=warnings, stats=stats)


def _order(w: ScanWarning) -> tuple[str, str]:
    return (w.path, w.message)


def _with_warning(code_map: CodeMap, problem: ScanWarning | None) -> CodeMap:
    """``code_map`` with ``problem`` (the cache could not be written) among its
    warnings, in order."""
    if problem is None:
        return code_map
    return replace(code_map, warnings=sorted({*code_map.warnings, problem}, key=_order))


def _kept(
    previous: CodeMap,
    entries: dict[str, CacheEntry],
    changed: dict[str, CacheEntry],
    cache: ParseCache,
) -> list[str] | None:
    """The files whose content changed, when every one of them kept its shape
    (:func:`_shape`) and the mapped files are those of ``previous``; else None."""
    mapped = {p for p, e in entries.items() if e.mapped}
    if mapped != previous.files.keys():
        return None
    return _same_shape(previous, sorted(mapped), entries, cache)


def _same_shape(
    previous: CodeMap, mapped: list[str], entries: dict[str, CacheEntry], cache: ParseCache
) -> list[str] | None:
    """Those of ``mapped`` (all on ``previous``) whose content changed, when every one
    of them kept its shape; else None."""
    paths = [p for p in mapped if entries[p].sha256 != previous.files[p].sha256]
    old = cache.parses(paths)  # the rows still hold what the previous map was built from
    for path in paths:
        entry = entries[path]
        before = old.get(path)
        if before is None or entry.parsed is None or cache.entries[path].language != entry.language:
            return None
        if cache.entries[path].sha256 != previous.files[path].sha256:
            return None  # the cache moved on without the map: rebuild
        if _shape(before) != _shape(entry.parsed):
            return None
    return paths


def update_code_map(
    repo_root: Path,
    cache_path: Path | None,
    previous: CodeMap,
    changed: Collection[str],
    stats: Mapping[str, os.stat_result],
) -> CodeMap | None:
    """``previous`` brought up to date for the ``changed`` files alone, without listing
    or scanning the repository: what a watcher does for an edit it saw.

    Args:
        repo_root: the repository.
        cache_path: the per-file parse cache (only the changed files' rows are read
            and written); None for no cache.
        previous: the map as of just before the change (the cache's rows of the
            changed files must be what it was built from).
        changed: repository-relative paths of the files that changed, every one of
            them on ``previous`` (files that are not mapped code do not count).
        stats: this run's ``lstat`` of at least the changed files
            (:func:`rubi.codemap.files.stat_files`); a missing one is a file that went.

    Returns:
        The map with the changed files' new hashes, sizes and symbol lines
        (``stats.reused_shape``) when every one of them is still a regular, readable
        file that kept its shape (:func:`_shape`: an edit inside a function body, a
        comment); None when the map must be built again (:func:`build_code_map`):
        a file went or is new, was left out, changed shape, or the cache moved on.
    """
    started = time.perf_counter()
    paths = sorted(set(changed))
    if any(p not in previous.files for p in paths):
        return None
    cache = open_cache(cache_path, only=paths)
    try:
        if cache.warnings or len(cache.entries) != len(paths):
            return None  # a row missing or unreadable: the full build mends it
        warnings: list[ScanWarning] = []
        entries, fresh, counts = scan_files(repo_root, paths, cache, warnings, None, stats)
        if entries.keys() != set(paths) or not all(e.mapped for e in entries.values()):
            return None  # gone or left out (a new problem changes the shape)
        kept = _same_shape(previous, paths, entries, cache)
        if kept is None:
            return None
        code = _parses(repo_root, kept, entries, fresh, cache, counts)
        if any(p not in code for p in kept):
            return None
        code_map = _update(previous, kept, entries, code, previous.stats.listed, counts, started)
        problem = cache.write(fresh, [])
    finally:
        cache.close()
    return _with_warning(code_map, problem)


def _update(
    previous: CodeMap,
    kept: list[str],
    entries: dict[str, CacheEntry],
    code: dict[str, tuple[str, Parsed]],
    listed: int,
    counts: dict[str, int],
    started: float,
) -> CodeMap:
    """``previous`` with the kept-shape files' new hashes, sizes and symbol lines
    (``listed``: the files the repository lists)."""
    files = dict(previous.files)
    for path in kept:
        files[path] = replace(
            files[path],
            size=entries[path].size,
            sha256=entries[path].sha256,
            symbols=code[path][1].symbols,
        )
    stats = replace(
        previous.stats,
        listed=listed,
        parsed=counts["parsed"],
        reused=counts["reused"],
        hashed=counts["hashed"],
        skipped=counts["skipped"],
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
        reused_shape=True,
        kept_graph=False,
    )
    return replace(previous, files=files, stats=stats)


def _full(
    repo_root: Path,
    code: dict[str, tuple[str, Parsed]],
    entries: dict[str, CacheEntry],
    listing: FileListing,
    counts: dict[str, int],
    warnings: list[ScanWarning],
    started: float,
) -> tuple[CodeMap, BuildParts]:
    """Resolve, group and rank every mapped file."""
    resolved = resolve_all(repo_root, code, listing.paths)
    edges = resolved.edges()
    external = resolved.external()
    warnings.extend(resolved.warnings())
    module_of, modules = group_modules(code, listing.paths)
    paths = sorted(code)
    indeg, outdeg = degrees(paths, edges)
    files = {
        p: CodeFile(
            path=p,
            language=code[p][0],
            size=entries[p].size,
            sha256=entries[p].sha256,
            module=module_of[p],
            imports=tuple(resolved.out[p]),
            external=external.get(p, ()),
            symbols=code[p][1].symbols,
        )
        for p in paths
    }
    stats = BuildStats(
        listed=len(listing.paths),
        mapped=len(files),
        parsed=counts["parsed"],
        reused=counts["reused"],
        hashed=counts["hashed"],
        skipped=counts["skipped"],
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
        used_git=listing.used_git,
    )
    code_map = CodeMap(
        files=files,
        modules=modules,
        edges=edges,
        file_rank=rank_files(paths, edges),
        module_rank=rank_modules(module_of, edges),
        in_degree=indeg,
        out_degree=outdeg,
        warnings=sorted(set(warnings), key=_order),
        stats=stats,
    )
    code_map = replace(code_map, module_links=code_map.module_edges())
    return code_map, BuildParts({}, {}, listing, resolved, module_of)
