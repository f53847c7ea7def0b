"""The code side of a sync: map the project's code when its files changed and turn
changed files into index documents. The saved map and its deltas:
:mod:`rubi.sync.codestore` (``CodeMapDelta`` is imported here too, so that a delta
pickled by an older rubi under this module's name still loads)."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rubi.core.paths import VaultPaths
from rubi.sync.codedocs import RunDocuments
from rubi.sync.codestore import CodeMapDelta, delta_file, has_current_map, save_code_map
from rubi.sync.coldmemory import TO_SAVE, from_saved_memory
from rubi.sync.manifest import IndexReport, VaultState
from rubi.sync.memorystore import keep_memory_map, memory_file, save_memory

if TYPE_CHECKING:
    from rubi.codemap.files import FileListing
    from rubi.codemap.incremental import MapMemory
    from rubi.codemap.model import CodeMap

__all__ = ["CodeListing", "CodeMapDelta", "CodeRun", "code_fingerprint", "map_code"]

Progress = Callable[[int, int], None]


def code_fingerprint(
    root: Path,
    listing: FileListing | None = None,
    stats: Mapping[str, os.stat_result] | None = None,
) -> str:
    """A digest of the project's file list with each file's size and mtime (its own,
    not a symlink target's): equal digests mean no file was added, removed or touched.
    Prefixed with the module grouping's and the resolvers' versions
    (``g2r2-<sha256 hex>``, :data:`rubi.codemap.modules.GROUPING_VERSION`,
    :data:`rubi.codemap.modules.RESOLVER_VERSION`), so a map grouped or resolved by other
    rules is out of date and mapped again (:func:`map_code`). "" when it cannot be taken.

    One ``git ls-files`` and one ``lstat`` per file (none of either when ``listing``
    and ``stats`` are given): about 0.1 s on a 10,000-file repository, against
    seconds for re-resolving and re-ranking the map.
    """
    from rubi.codemap.files import list_files, stat_files
    from rubi.core.digest import sha256_hex  # no OpenSSL: the same digest

    if listing is None:
        try:
            listing = list_files(root)
        except OSError:
            return ""
    if stats is None:
        stats = stat_files(root, listing.paths)
    lines = []
    for rel in listing.paths:
        st = stats.get(rel)
        if st is not None:
            lines.append(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n")
    return _fingerprint_prefix() + sha256_hex("".join(lines).encode())


def _fingerprint_prefix() -> str:
    from rubi.codemap.modules import GROUPING_VERSION, RESOLVER_VERSION

    return f"g{GROUPING_VERSION}r{RESOLVER_VERSION}-"


def _grouped_by_other_rules(old: VaultState) -> bool:
    """The saved map was grouped into modules by other rules (its fingerprint has
    another version, or none): it is mapped, and its documents written, anew."""
    return bool(old.code_fingerprint) and not old.code_fingerprint.startswith(_fingerprint_prefix())


@dataclass(frozen=True, slots=True)
class CodeListing:
    """The project's files as one run listed and stat-ed them: where a watcher's next
    run starts from, when the events it saw are all that changed.

    Attributes:
        listing: :func:`rubi.codemap.files.list_files` of that run.
        stats: :func:`rubi.codemap.files.stat_files` of it (``lstat``, by path).
        listed: ``listing.paths`` as a set.
    """

    listing: FileListing
    stats: dict[str, os.stat_result]
    listed: frozenset[str]


@dataclass(slots=True)
class CodeRun:
    """What :func:`map_code` did.

    Attributes:
        code_map: the map, or None when the code was not mapped (nothing changed, or
            not asked).
        docs: the code documents to (re)write in the text index.
        deletes: the code ids to delete from it.
        listing: the files this run saw (None when it did not list them).
        saved: the map was written to its file this run.
        memory: what ``code_map`` was resolved from, when this run built it in full or
            updated a memory (:mod:`rubi.codemap.incremental`); None otherwise.
        previous: the map this run updated (``code_map``'s predecessor), when it was
            given or read; None when the code had not changed (the map was not read).
    """

    code_map: CodeMap | None = None
    docs: RunDocuments = field(default_factory=lambda: RunDocuments(Path(), []))
    deletes: list[str] = field(default_factory=list)
    listing: CodeListing | None = None
    saved: bool = False
    memory: MapMemory | None = None
    previous: CodeMap | None = None


def _restat(root: Path, held: CodeListing, changed: Collection[str]) -> CodeListing | None:
    """``held`` brought up to date for the ``changed`` paths alone, when the watcher
    saw every change: a listed file still a regular file is stat-ed again; a new path,
    a listed file gone, or a folder that came, went or moved is listed again by one
    ``git ls-files`` limited to those paths (:func:`rubi.codemap.files.list_under`:
    the rules :func:`rubi.codemap.files.list_files` applies), not the whole project;
    an unlisted path that came and went (a tool's temp file) changes nothing.

    Returns:
        The listing (``held.listing`` itself when no path came or went) and stats;
        None to list the project again: a ``.gitignore`` changed, a listed file is no
        longer a regular file, the listing came without git or with warnings, git
        did not answer.
    """
    stats = dict(held.stats)
    base = str(root)
    relist: list[str] = []
    for rel in changed:
        if rel.rpartition("/")[2] == ".gitignore":
            return None
        path = os.path.join(base, rel)
        if rel not in held.listed:
            if os.path.lexists(path) or _holds(held, rel + "/"):
                relist.append(rel)  # new, or a folder that came, went or moved
            continue
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            relist.append(rel)  # gone (git may still list it: tracked)
            continue
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        stats[rel] = info
    if not relist:
        return CodeListing(held.listing, stats, held.listed)
    return _relisted(root, held, stats, relist)


def _relisted(
    root: Path, held: CodeListing, stats: dict[str, os.stat_result], relist: list[str]
) -> CodeListing | None:
    """``held`` with the paths at or under ``relist`` listed again (see :func:`_restat`)."""
    from rubi.codemap.files import FileListing, list_under

    if not held.listing.used_git or held.listing.warnings:
        return None
    found = list_under(root, relist)
    if found is None:
        return None
    exact = set(relist)
    folders = tuple(r + "/" for r in relist)
    paths = set(found)
    for rel in held.listing.paths:
        if rel in exact or rel.startswith(folders):
            stats.pop(rel, None)
        else:
            paths.add(rel)
    base = str(root)
    for rel in found:
        try:
            stats[rel] = os.lstat(os.path.join(base, rel))
        except OSError:
            stats.pop(rel, None)
    listing = FileListing(sorted(paths), True, held.listing.warnings)
    return CodeListing(listing, stats, frozenset(listing.paths))


def _holds(held: CodeListing, prefix: str) -> bool:
    """Some listed file lies under the folder ``prefix`` (ends in ``/``)."""
    return any(p.startswith(prefix) for p in held.listing.paths)


def map_code(
    paths: VaultPaths,
    old: VaultState,
    new: VaultState,
    report: IndexReport,
    full: bool,
    code: bool,
    progress: Progress | None,
    previous: CodeMap | Callable[[], CodeMap | None] | None = None,
    *,
    held: CodeListing | None = None,
    changed: Collection[str] | None = None,
    memory: MapMemory | None = None,
) -> CodeRun:
    """Map the project's code when asked; the map, the code documents to (re)write and
    the code ids to delete (:class:`CodeRun`). Records the new code manifest in
    ``new``.

    Args:
        previous: the map this run updates (kept whole when no changed file changed
            shape: see :func:`rubi.codemap.build_code_map`), or what reads it: called
            only once the code is known to have changed, so a run that finds nothing
            changed reads no map (0.08 s of CPU on spring-framework's 9,724 files).
        held: the listing of the last run (:attr:`CodeRun.listing`) and ``changed``
            the project-relative paths a watcher saw change since: when every one is
            a listed file still there, the project is not listed again, only those
            files stat-ed, and a kept-shape edit of mapped files reads only their
            rows of the parse cache (:func:`rubi.codemap.build.update_code_map`).
        memory: what ``previous`` was resolved from (a long-lived vault sync keeps it):
            an edit that changes files' shape re-resolves only what it can reach
            (:func:`rubi.codemap.incremental.reshape_code_map`). Used, and changed in
            place, only when its map is ``previous``.

    A manifest the resolvers read (:func:`rubi.codemap.resolution.is_manifest`) that
    the watcher saw change, or that is newer than the saved map, has the map built in
    full: no code file changed, but any import may now lead elsewhere.
    """
    if paths.project_root is None or not code:
        new.code = dict(old.code)
        new.code_fingerprint = old.code_fingerprint
        return CodeRun()
    root = paths.project_root
    full = full or _grouped_by_other_rules(old)
    seen, restated = None, None
    if held is not None and changed is not None and not full:
        seen = _restat(root, held, changed)
    if seen is not None:
        restated = seen.stats
    else:
        seen = _list(root)
    listing, stats = (seen.listing, seen.stats) if seen is not None else (None, None)
    fingerprint = code_fingerprint(root, listing, stats) if stats is not None else ""
    if (
        not full
        and fingerprint
        and fingerprint == old.code_fingerprint
        and has_current_map(paths)  # an older rubi's map file is written again
    ):
        # Not one file listed, added, removed or touched: the map cannot have changed.
        new.code, new.code_fingerprint = dict(old.code), fingerprint
        report.code_files = len(old.code)
        return CodeRun(listing=seen)
    new.code_fingerprint = fingerprint
    previous = previous() if callable(previous) else previous
    (paths.index_dir / "codemap-cache.json").unlink(missing_ok=True)  # format 1, one JSON file
    code_map, kept = _map(
        paths, progress, previous, memory, full, listing, stats, restated, changed
    )
    docs, deletes = _documents(root, code_map, old, new, report, full)
    to_save = _to_save(kept)
    saved = _to_write(paths, code_map, bool(docs or deletes or full or to_save))
    if saved:
        _save(paths, code_map, docs.ids, previous, to_save)
    return CodeRun(code_map, docs, deletes, seen, saved, kept, previous)


def _to_save(kept: MapMemory | None) -> MapMemory | None:
    """The memory this run writes to disk (:data:`~rubi.sync.coldmemory.TO_SAVE`)."""
    return kept if kept is not None and kept.touched == TO_SAVE else None


def _to_write(paths: VaultPaths, code_map: CodeMap, written: bool) -> bool:
    """Whether the run writes the map: ``written`` (documents changed, a full build,
    a memory to write), it was resolved again (a manifest, a file left out), or the
    map file is not current."""
    return written or not code_map.stats.reused_shape or not has_current_map(paths)


def _save(
    paths: VaultPaths,
    code_map: CodeMap,
    changed: Collection[str],
    previous: CodeMap | None,
    memory: MapMemory | None,
) -> None:
    """Save the map and, when this run writes it, the memory of it: the map file
    whole first, which the memory then names instead of holding a copy (a run killed
    in between leaves the memory before, whose map file was kept)."""
    keep_memory_map(paths)
    whole = memory is not None and memory.code_map is code_map
    ident = save_code_map(paths, code_map, changed, previous, whole=whole)
    if memory is not None:
        memory.touched = 0
        save_memory(paths, memory, ident or "")


def _list(root: Path) -> CodeListing | None:
    """The project's files listed and stat-ed (None when it cannot be listed)."""
    from rubi.codemap.files import list_files, stat_files

    try:
        listing = list_files(root)  # one listing a run, shared with the map
    except OSError:
        return None
    return CodeListing(listing, stat_files(root, listing.paths), frozenset(listing.paths))


def _documents(
    root: Path,
    code_map: CodeMap,
    old: VaultState,
    new: VaultState,
    report: IndexReport,
    full: bool,
) -> tuple[RunDocuments, list[str]]:
    """Record ``code_map``'s files in ``new`` and ``report``; the code documents to
    (re)write (made as the index writer reads them, in whichever process writes them)
    and the code ids to delete."""
    new.code = {p: f.sha256 for p, f in code_map.files.items()}
    indexed = {} if full else old.code
    docs = RunDocuments(root, [f for p, f in code_map.files.items() if indexed.get(p) != f.sha256])
    deletes = sorted(set(indexed) - set(new.code))
    report.code_files = len(code_map.files)
    report.code_changed = len(docs)
    report.code_deleted = len(deletes)
    report.code_warnings = list(code_map.warnings)
    return docs, deletes


def _map(
    paths: VaultPaths,
    progress: Progress | None,
    previous: CodeMap | None,
    memory: MapMemory | None,
    full: bool,
    listing: FileListing | None,
    stats: Mapping[str, os.stat_result] | None,
    restated: Mapping[str, os.stat_result] | None,
    changed: Collection[str] | None,
) -> tuple[CodeMap, MapMemory | None]:
    """The map of this run (see :func:`map_code`) and, when it was built in full or
    from ``memory``, what it was resolved from."""
    from rubi.codemap.build import build_parts
    from rubi.codemap.incremental import remember

    root = paths.project_root
    assert root is not None
    if memory is not None and memory.code_map is not previous:
        memory = None
    # With the listing held, only the files the watcher named were stat-ed again.
    listed_now = listing if restated is None else None
    if full or previous is None or _manifest_moved(paths, listed_now, stats, changed):
        previous = memory = None
    if previous is not None:
        got, previous = _incremental(paths, previous, memory, (listing, stats, restated), changed)
        if got is not None:
            return got
    code_map, parts = build_parts(
        root,
        paths.codemap_cache,
        progress=progress,
        previous=previous,
        listing=listing,
        stats=stats,
    )
    if parts is not None and stats is not None:
        kept = remember(code_map, parts, stats)
        kept.touched = TO_SAVE  # written by map_code, with the map
        return code_map, kept
    return code_map, None


def _incremental(
    paths: VaultPaths,
    previous: CodeMap,
    memory: MapMemory | None,
    seen: tuple[
        FileListing | None,
        Mapping[str, os.stat_result] | None,
        Mapping[str, os.stat_result] | None,
    ],
    changed: Collection[str] | None,
) -> tuple[tuple[CodeMap, MapMemory | None] | None, CodeMap | None]:
    """The map of this run without a full build when it can be made so (see
    :func:`_map`; ``seen`` is its ``listing``, ``stats`` and ``restated``), and
    otherwise None with the map a full build may still keep the resolution of (None
    when the kept shape was tried here already, or a reshape declined)."""
    from rubi.codemap.incremental import reshape_code_map

    listing, stats, restated = seen
    root = paths.project_root
    assert root is not None
    if memory is not None and listing is not None and stats is not None:
        # None: a manifest changed, or the cache is unreadable: in full
        return reshape_code_map(
            root, paths.codemap_cache, memory, listing, stats, changed or ()
        ), None
    if restated is not None and changed is not None:
        code_map = _updated(paths, previous, changed, restated)
        return (None if code_map is None else (code_map, None)), previous
    if stats is not None and memory_file(paths).exists():
        assert listing is not None  # stat-ed from it
        return from_saved_memory(paths, previous, listing, stats), None
    return None, previous


def _updated(
    paths: VaultPaths,
    previous: CodeMap,
    changed: Collection[str],
    restated: Mapping[str, os.stat_result],
) -> CodeMap | None:
    """The map after an edit the watcher saw, updated from ``previous`` when every
    changed file is mapped code or a file no language of the map reads (those leave
    the map as it is); None when it must be built again
    (:func:`rubi.codemap.build.update_code_map`)."""
    from rubi.codemap.build import update_code_map
    from rubi.codemap.languages import language_of

    assert paths.project_root is not None
    mapped = [p for p in changed if p in previous.files]
    others = [p for p in changed if p not in previous.files]
    if any(language_of(p) is not None for p in others):
        return None
    return update_code_map(paths.project_root, paths.codemap_cache, previous, mapped, restated)


def _manifest_moved(
    paths: VaultPaths,
    listing: FileListing | None,
    stats: Mapping[str, os.stat_result] | None,
    changed: Collection[str] | None,
) -> bool:
    """A manifest the resolvers read was seen to change, or (with ``listing``: the
    project listed this run) is newer than the saved map (a cold run sees no events):
    the map's resolution cannot be kept."""
    from rubi.codemap.resolution import is_manifest

    if changed is not None and any(is_manifest(p) for p in changed):
        return True
    if listing is None or stats is None:
        return False
    try:
        saved = paths.codemap_file.stat().st_mtime_ns
    except OSError:
        return False
    with contextlib.suppress(OSError):  # the map as saved last: the delta after its file
        saved = max(saved, delta_file(paths).stat().st_mtime_ns)
    return any(
        (st := stats.get(p)) is not None and st.st_mtime_ns > saved
        for p in listing.paths
        if is_manifest(p)
    )
