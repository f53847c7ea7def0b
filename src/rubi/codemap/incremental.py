"""Bring a code map up to date after an edit that changes files' shape, without
decoding every parse or resolving every file again.

A long-lived process (the watcher, ``rubi serve``'s engine) keeps a
:class:`MapMemory`: what its last full build resolved from (every mapped file's parse,
the :class:`~rubi.codemap.lang.RepoIndex`, each file's resolution and out-edges, the
modules, every listed file's stat). :func:`reshape_code_map` then reads only the files
whose stat changed and redoes only what those changes can reach:

- **a file's imports or identifiers changed, its definitions did not** (language,
  package, symbol names and kinds, and the imports other files follow through it:
  Python's ``from`` and JavaScript's ``export ... from``): the index answers every
  resolver's question as before, so only the changed files are resolved again, with
  the kept index, and the same-package references of their packages are redone;
- **a file came, went, or changed its definitions; a non-code file came or went**: a
  new index over the kept parses; Java and Kotlin files are resolved again only when
  they look up a name or package whose file changed (:func:`rubi.codemap.lang.jvm.
  changed_names`: their resolver reads nothing else), files of other languages all
  (their resolvers read paths, folders and manifests); modules are grouped again;
- **a manifest the resolvers read changed** (``go.mod``, ``package.json``, a
  ``tsconfig``...): None, the caller builds the map in full.

Ranks start from the previous map's (:func:`rubi.codemap.rank.rank_files`), so they
converge in a few iterations; they equal a full build's within the rank tolerance.
When the edges, files, modules and symbol names come out as they were (an import of a
name outside the project), the ranks, degrees and shape id are the previous map's
(``stats.kept_graph``): no PageRank, and a graph made of the previous map is this
one's too.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from rubi.codemap.build import BuildParts, _parses, _shape, _with_warning
from rubi.codemap.cache import CacheEntry, open_cache
from rubi.codemap.files import FileListing
from rubi.codemap.graphshape import same_graph
from rubi.codemap.lang import RepoIndex, jvm
from rubi.codemap.languages import language_of
from rubi.codemap.model import BuildStats, CodeFile, CodeMap, ImportSpec, Parsed
from rubi.codemap.modules import group_modules
from rubi.codemap.rank import degrees, module_tables, rank_files, rank_module_graph
from rubi.codemap.resolution import Resolved, resolve_all
from rubi.codemap.scan import scan_files
from rubi.core.model import ScanWarning

__all__ = [
    "MapMemory",
    "definitions",
    "memory_of",
    "remember",
    "reshape_code_map",
    "stamps_of",
]

Stamp = tuple[int, int, int]
"""``(size, mtime_ns, file type)`` of a listed file."""

_FOLLOWED = frozenset({"from", "export"})
"""Import kinds that other files' resolution follows through a file (Python's
re-exports, JavaScript barrels)."""
_JVM = frozenset({"java", "kotlin"})


@dataclass(slots=True)
class MapMemory:
    """What :attr:`code_map` was built from (see the module docstring).

    Attributes:
        code_map: the map this memory describes; valid only for it.
        entries: every candidate file's cache entry (no parse), by path.
        scan_warnings: each candidate file's warnings, by path.
        listing: the listing the map was built from.
        stamps: every listed file's :data:`Stamp`.
        resolved: parses, index, resolutions and out-edges.
        module_of: ``{path: module name}``.
        lookups: what each JVM file looks up (:class:`rubi.codemap.lang.jvm.Lookups`),
            made on the first edit that needs it.
        touched: the files whose stamp differed from the memory's in the last
            :func:`reshape_code_map` (changed, come or gone).
    """

    code_map: CodeMap
    entries: dict[str, CacheEntry]
    scan_warnings: dict[str, list[ScanWarning]]
    listing: FileListing
    stamps: dict[str, Stamp]
    resolved: Resolved
    module_of: dict[str, str]
    lookups: jvm.Lookups | None = None
    touched: int = 0


def stamps_of(listing: FileListing, stats: Mapping[str, os.stat_result]) -> dict[str, Stamp]:
    """Every listed file's :data:`Stamp` (a file with no stat has none)."""
    return {
        p: (st.st_size, st.st_mtime_ns, stat.S_IFMT(st.st_mode))
        for p in listing.paths
        if (st := stats.get(p)) is not None
    }


def remember(
    code_map: CodeMap, parts: BuildParts, stats: Mapping[str, os.stat_result]
) -> MapMemory:
    """The memory of a full build (:func:`rubi.codemap.build.build_parts`), with
    ``stats`` the build's :func:`rubi.codemap.files.stat_files` of every listed file."""
    return MapMemory(
        code_map,
        parts.entries,
        parts.scan_warnings,
        parts.listing,
        stamps_of(parts.listing, stats),
        parts.resolved,
        parts.module_of,
    )


def memory_of(
    repo_root: Path,
    cache_path: Path | None,
    code_map: CodeMap,
    listing: FileListing,
    stats: Mapping[str, os.stat_result],
) -> MapMemory | None:
    """The memory of a map built earlier (read back from disk, or kept by a run that
    did not build it in full), made again from the parse cache without ranking: what a
    long-lived process builds once after its first run, off the path of edits, so
    that its first shape-changing edit need not build the map in full.

    Reads every candidate file's cache row and mapped parse (nothing is written),
    resolves and groups every file, and checks the result against ``code_map``.

    Args:
        repo_root: the repository.
        cache_path: the parse cache the map was built with (None: no memory).
        code_map: the map to remember; the memory holds this very object.
        listing: the listing ``code_map`` was made from.
        stats: :func:`rubi.codemap.files.stat_files` of ``listing`` as that run took
            them (a file changed since is then seen by the next edit, as it should).

    Returns:
        The memory, or None when the cache or the files no longer give ``code_map``
        (a file changed since its row was written, a row missing, the cache
        unreadable): the next shape-changing edit then builds the map in full.
    """
    if cache_path is None:
        return None
    cache = open_cache(cache_path)
    try:
        if cache.warnings:
            return None
        scanned: list[ScanWarning] = []
        entries, fresh, counts = scan_files(repo_root, listing.paths, cache, scanned, None, stats)
        mapped = [p for p, e in entries.items() if e.mapped]
        files = code_map.files
        if len(mapped) != len(files) or any(
            (f := files.get(p)) is None or f.sha256 != entries[p].sha256 for p in mapped
        ):
            return None
        code = _parses(repo_root, sorted(mapped), entries, fresh, cache, counts)
    finally:
        cache.close()
    if len(code) != len(files):
        return None
    resolved = resolve_all(repo_root, code, listing.paths)
    if resolved.edges() != code_map.edges:
        return None
    module_of, _ = group_modules(code, listing.paths)
    for path, file in files.items():
        resolution = resolved.files.get(path)
        external = resolution[1] if resolution is not None else ()
        if module_of[path] != file.module or external != file.external:
            return None
    by_path: dict[str, list[ScanWarning]] = {}
    for warning in scanned:
        by_path.setdefault(warning.path, []).append(warning)
    return MapMemory(
        code_map,
        {p: replace(e, parsed=None) if e.parsed else e for p, e in entries.items()},
        by_path,
        listing,
        stamps_of(listing, stats),
        resolved,
        module_of,
        jvm.Lookups(code),
    )


def definitions(language: str, parsed: Parsed) -> tuple[object, ...]:
    """What other files' resolution reads of a file's parse: its language, package,
    symbol names and kinds, and the imports they follow through it."""
    names = tuple((s.name, s.kind) for s in parsed.symbols)
    followed: tuple[ImportSpec, ...] = tuple(i for i in parsed.imports if i.kind in _FOLLOWED)
    return (language, parsed.package, names, followed)


def _manifest_changed(memory: MapMemory, changed: Collection[str]) -> bool:
    """A file the resolvers read (a manifest) changed, came or went."""
    read = memory.resolved.repo.read_paths()
    return not read.isdisjoint(changed)


def reshape_code_map(
    repo_root: Path,
    cache_path: Path | None,
    memory: MapMemory,
    listing: FileListing,
    stats: Mapping[str, os.stat_result],
    changed: Collection[str] = (),
) -> tuple[CodeMap, MapMemory] | None:
    """``memory.code_map`` brought up to date from ``listing`` and ``stats``.

    Args:
        repo_root: the repository.
        cache_path: the parse cache (only the changed files' rows are read and
            written); None for no cache.
        memory: the memory of the map to update; updated in place (do not use it
            again when this returns None).
        listing: the repository's files now.
        stats: :func:`rubi.codemap.files.stat_files` of ``listing`` now.
        changed: paths known to have changed (a watcher's events), besides those
            whose stat differs.

    Returns:
        ``(map, memory)``; the map has ``stats.reused_shape`` when no file changed
        shape (:func:`rubi.codemap.build._shape`) and none came or went. None when
        the map must be built in full: a manifest changed, or the cache could not be
        read.
    """
    started = time.perf_counter()
    old_stamps = memory.stamps
    if changed and listing is memory.listing:
        # The listing the memory was made from, and a watcher that says what changed
        # (``stats`` are the last run's with those files stat-ed again).
        listed_changed = False
        stamps = dict(old_stamps)
        for path in changed:
            st = stats.get(path)
            if st is None:
                stamps.pop(path, None)
            else:
                stamps[path] = (st.st_size, st.st_mtime_ns, stat.S_IFMT(st.st_mode))
        touched = {p for p in changed if stamps.get(p) != old_stamps.get(p)}
    else:
        stamps = stamps_of(listing, stats)
        listed_changed = listing.paths != memory.listing.paths
        # Both ways: a file git still lists (deleted, not yet committed) has no stat.
        touched = {
            p for p in stamps.keys() | old_stamps.keys() if stamps.get(p) != old_stamps.get(p)
        }
        touched.update(p for p in changed if p in stamps or p in old_stamps)
    if _manifest_changed(memory, touched):
        return None
    candidates = sorted(p for p in touched if language_of(p))
    present = [p for p in candidates if p in stamps]
    cache = open_cache(cache_path, only=candidates)
    try:
        if cache.warnings:
            return None
        scanned: list[ScanWarning] = []
        entries, fresh, counts = scan_files(repo_root, present, cache, scanned, None, stats)
        mapped_now = [p for p in present if p in entries and entries[p].mapped]
        parses = _parses(repo_root, mapped_now, entries, fresh, cache, counts)
        gone_rows = [p for p in candidates if p in cache.entries and p not in entries]
        problem = cache.write(fresh, gone_rows)
    finally:
        cache.close()
    code = memory.resolved.code
    before = {p: code[p] for p in candidates if p in code}
    after = {p: parses[p] for p in mapped_now if p in parses}
    for path in candidates:
        memory.scan_warnings.pop(path, None)
        memory.entries.pop(path, None)
    for warning in scanned:
        memory.scan_warnings.setdefault(warning.path, []).append(warning)
    for path, entry in entries.items():
        memory.entries[path] = replace(entry, parsed=None) if entry.parsed else entry
    memory.stamps = stamps
    memory.touched = len(touched)
    same_files = before.keys() == after.keys()
    if (
        same_files
        and not listed_changed
        and all(_shape(before[p][1]) == _shape(after[p][1]) for p in after)
    ):
        code.update(after)
        return _kept_shape(memory, listing, after, counts, started, problem)
    _reresolve(repo_root, memory, listing, before, after, listed_changed or not same_files)
    code_map = _assemble(memory, listing, after, counts, started)
    memory.code_map = _with_warning(code_map, problem)
    memory.listing = listing
    return memory.code_map, memory


def _kept_shape(
    memory: MapMemory,
    listing: FileListing,
    after: dict[str, tuple[str, Parsed]],
    counts: dict[str, int],
    started: float,
    problem: ScanWarning | None,
) -> tuple[CodeMap, MapMemory]:
    """The map with the kept-shape files' new hashes, sizes and symbol lines."""
    previous = memory.code_map
    files = dict(previous.files)
    for path, (_, parsed) in after.items():
        entry = memory.entries[path]
        files[path] = replace(
            files[path], size=entry.size, sha256=entry.sha256, symbols=parsed.symbols
        )
    stats = replace(
        _stats(previous.stats, listing, counts, started), mapped=len(files), reused_shape=True
    )
    # (A file left out for another reason, or a listing warning, changes no shape.)
    code_map = replace(previous, files=files, stats=stats, warnings=_warnings(memory, listing))
    memory.code_map = _with_warning(code_map, problem)
    memory.listing = listing
    return memory.code_map, memory


def _warnings(memory: MapMemory, listing: FileListing) -> list[ScanWarning]:
    """The map's warnings: the listing's, each file's, the resolvers'; sorted."""
    warnings = [*listing.warnings, *memory.resolved.warnings()]
    for found in memory.scan_warnings.values():
        warnings.extend(found)
    return sorted(set(warnings), key=lambda w: (w.path, w.message))


def _stats(
    previous: BuildStats, listing: FileListing, counts: dict[str, int], started: float
) -> BuildStats:
    return replace(
        previous,
        listed=len(listing.paths),
        parsed=counts["parsed"],
        reused=counts["reused"],
        hashed=counts["hashed"],
        skipped=counts["skipped"],
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
        used_git=listing.used_git,
        reused_shape=False,
        kept_graph=False,
    )


def _reresolve(
    repo_root: Path,
    memory: MapMemory,
    listing: FileListing,
    before: dict[str, tuple[str, Parsed]],
    after: dict[str, tuple[str, Parsed]],
    files_changed: bool,
) -> set[str]:
    """Update the parses, resolutions and references for the changed files; the
    files whose out-edges may have changed."""
    resolved = memory.resolved
    code = resolved.code
    redefined = files_changed or any(
        definitions(*before[p]) != definitions(*after[p]) for p in after
    )
    gone = [p for p in before if p not in after]
    old_jvm = jvm.packages_index(resolved.repo) if redefined else None
    lookups = memory.lookups  # made when first needed (1.5 s for 10,000 Java files)
    if lookups is not None:
        _follow(lookups, before, after)
    for path in gone:
        del code[path]
    code.update(after)
    resolved.forget(gone)
    redo: set[str] = set(after)
    if redefined:
        if lookups is None:
            lookups = memory.lookups = jvm.Lookups(code)
        resolved.repo = RepoIndex(repo_root, code, listing.paths)
        assert old_jvm is not None
        changes = {p: (before.get(p), after.get(p)) for p in before.keys() | after.keys()}
        index, names, packages = jvm.updated_index(old_jvm, changes)
        resolved.repo.remember("jvm", index)
        redo.update(p for p, (language, _) in code.items() if language not in _JVM)
        redo.update(lookups.users(names, packages))
        redo.intersection_update(code)
    resolved.resolve(sorted(redo))
    reach = redo | resolved.rescope([*before, *after])
    if gone:
        lost = set(gone)
        reach.update(p for p, out in resolved.out.items() if not lost.isdisjoint(out))
    resolved.join(sorted(reach))
    return reach


def _follow(
    lookups: jvm.Lookups,
    before: dict[str, tuple[str, Parsed]],
    after: dict[str, tuple[str, Parsed]],
) -> None:
    """``lookups`` moved from the changed JVM files' parses ``before`` to ``after``."""
    for path, (language, parsed) in before.items():
        if language in _JVM:
            lookups.discard(path, parsed)
    for path, (language, parsed) in after.items():
        if language in _JVM:
            lookups.add(path, parsed)


def _assemble(
    memory: MapMemory,
    listing: FileListing,
    after: dict[str, tuple[str, Parsed]],
    counts: dict[str, int],
    started: float,
) -> CodeMap:
    """The map from the memory's resolution, files regrouped when files came or went,
    ranks started from the previous map's."""
    previous = memory.code_map
    resolved = memory.resolved
    code = resolved.code
    paths = sorted(code)
    if paths != sorted(previous.files) or listing.paths != memory.listing.paths:
        memory.module_of, modules = group_modules(code, listing.paths)
    else:
        modules = previous.modules
    module_of = memory.module_of
    edges = resolved.edges()
    indeg, outdeg = degrees(paths, edges)
    files: dict[str, CodeFile] = {}
    for path in paths:
        old = previous.files.get(path)
        imports = tuple(resolved.out[path])
        resolution = resolved.files.get(path)
        external = resolution[1] if resolution is not None else ()
        if (
            old is not None
            and path not in after
            and old.module == module_of[path]
            and old.imports == imports
            and old.external == external
        ):
            files[path] = old
            continue
        entry = memory.entries[path]
        files[path] = CodeFile(
            path=path,
            language=code[path][0],
            size=entry.size,
            sha256=entry.sha256,
            module=module_of[path],
            imports=imports,
            external=external,
            symbols=code[path][1].symbols,
        )
    warnings = _warnings(memory, listing)
    stats = replace(_stats(previous.stats, listing, counts, started), mapped=len(files))
    if same_graph(previous, modules, files, edges):
        # nothing the ranks or a graph's code nodes read moved: PageRank would only
        # land again on the ranks held (within its tolerance, not to the bit)
        stats = replace(stats, kept_graph=True)
        return replace(previous, files=files, edges=edges, warnings=warnings, stats=stats)
    weights, links = module_tables(module_of, edges, ordered=True)  # edges() is sorted
    return CodeMap(
        files=files,
        modules=modules,
        edges=edges,
        file_rank=rank_files(paths, edges, start=previous.file_rank, ordered=True),
        module_rank=rank_module_graph(module_of, weights, start=previous.module_rank),
        in_degree=indeg,
        out_degree=outdeg,
        warnings=warnings,
        stats=stats,
        module_links=links,
    )
