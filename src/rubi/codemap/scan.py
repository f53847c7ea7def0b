"""Read, hash and parse a repository's files for the code map, reusing the parse cache.

A first map of a large repository parses every file (spring-framework: 9,700 Java
files, about 4 s); the parses are independent, so when at least
:data:`FORK_MIN_FILES` files are new to the cache and :func:`rubi.core.forked.available`,
the first half of the files (by size) is read and parsed in a forked child while this
process does the second. The result is the one a single process gives: entries,
warnings and counts are joined in file order.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from rubi.codemap.cache import CacheEntry, ParseCache
from rubi.codemap.files import MAX_FILE_BYTES, check_file, decode_source, looks_minified
from rubi.codemap.lang import parse_source
from rubi.codemap.languages import language_of
from rubi.codemap.model import Parsed
from rubi.core import forked
from rubi.core.model import ScanWarning
from rubi.core.safeio import FileBytes, UnsafeFileError, read_bytes

__all__ = ["FORK_MIN_FILES", "PROGRESS_EVERY", "read_entry", "scan_files"]

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 64
"""Files between two progress callbacks (and one at the end)."""
FORK_MIN_FILES = 2000
"""Files new to the parse cache from which a scan runs in two processes."""

_MINIFIABLE = frozenset({"javascript", "typescript", "css", "scss", "less"})


def _read(root: Path, path: str) -> FileBytes:
    """Read a listed file through :mod:`rubi.core.safeio` (inside ``root``, a regular file,
    at most :data:`MAX_FILE_BYTES`), with the size and mtime of what was read.

    Raises:
        UnsafeFileError: it leads outside ``root`` or is not a regular file.
        OSError: it cannot be read.
    """
    return read_bytes(root, path, limit=MAX_FILE_BYTES, label=path)


def _parse(path: str, language: str, data: bytes) -> tuple[Parsed | None, str | None]:
    """Parse bytes, or say why the file is left out."""
    if b"\x00" in data:
        return None, "contains NUL bytes (binary); skipped"
    if language in _MINIFIABLE and looks_minified(data):
        return None, "looks minified or generated (very long lines); skipped"
    source = decode_source(data, language)
    try:
        parsed = parse_source(language, source.text)
    except Exception as exc:  # a parser bug on one odd file must not stop the map
        logger.warning("parser failed on %s", path, exc_info=True)
        parsed = Parsed(problems=(f"could not be parsed ({type(exc).__name__}); no imports read",))
    if source.problem:
        parsed = replace(parsed, problems=(source.problem, *parsed.problems))
    return parsed, None


def read_entry(
    root: Path,
    path: str,
    language: str,
    old: CacheEntry | None,
    cache: ParseCache,
    reuse: bool,
    warnings: list[ScanWarning],
    counts: dict[str, int],
    deferred: dict[str, str] | None = None,
) -> CacheEntry | None:
    """Read and hash one file whose stat changed (or whose cached parse is missing);
    reuse a cached parse of the same content, else parse. None: left out (warned).

    ``deferred`` (a child's scan, whose cache cannot decode parses): a file whose
    content has a cached parse gets an entry without it, and ``deferred[path]`` names
    the file whose parse it takes (:func:`_fill_deferred`)."""
    try:
        got = _read(root, path)
    except UnsafeFileError as exc:
        warnings.append(ScanWarning(path, exc.reason))
        counts["skipped"] += 1
        return None
    except OSError as exc:
        warnings.append(ScanWarning(path, f"cannot be read ({exc.strerror}); skipped"))
        counts["skipped"] += 1
        return None
    if got.truncated:
        warnings.append(ScanWarning(path, "grew over the size limit while read; skipped"))
        counts["skipped"] += 1
        return None
    data = got.data
    sha = hashlib.sha256(data).hexdigest()
    counts["hashed"] += 1
    if old is not None and (old.sha256, old.language) == (sha, language) and not old.mapped:
        return replace(old, size=got.size, mtime_ns=got.mtime_ns)
    same = path if old is not None and (old.sha256, old.language) == (sha, language) else None
    if same is None and reuse:
        same = cache.path_of(sha, language)
    if same is not None and deferred is not None and same in cache.entries:
        deferred[path] = same
        counts["reused"] += 1
        problems = cache.entries[same].problems
        return CacheEntry(sha, got.size, got.mtime_ns, language, None, None, problems)
    if same is not None:
        parsed = cache.parses([same]).get(same)
        if parsed is not None:
            counts["reused"] += 1
            return CacheEntry(sha, got.size, got.mtime_ns, language, parsed, None, parsed.problems)
    parsed, skip = _parse(path, language, data)
    counts["parsed"] += 1
    problems = parsed.problems if parsed is not None else ()
    return CacheEntry(sha, got.size, got.mtime_ns, language, parsed, skip, problems)


@dataclass
class _Part:
    """What scanning some of the files found (see :func:`scan_files`)."""

    entries: dict[str, CacheEntry] = field(default_factory=dict)
    changed: dict[str, CacheEntry] = field(default_factory=dict)
    counts: dict[str, int] = field(
        default_factory=lambda: {"parsed": 0, "reused": 0, "hashed": 0, "skipped": 0}
    )
    warnings: list[ScanWarning] = field(default_factory=list)
    deferred: dict[str, str] = field(default_factory=dict)
    """Path → the path whose cached parse its entry takes (see :func:`read_entry`)."""


def scan_files(
    root: Path,
    paths: list[str],
    cache: ParseCache,
    warnings: list[ScanWarning],
    progress: Callable[[int, int], None] | None,
    stats: Mapping[str, os.stat_result] | None = None,
) -> tuple[dict[str, CacheEntry], dict[str, CacheEntry], dict[str, int]]:
    """Stat, hash and parse what changed; reuse the rest. Warnings are appended to
    ``warnings``, in file order.

    Returns:
        ``(entries, changed, counts)``: every file's entry (a reused one without its
        parse decoded), the entries to write back to the cache (with their parses),
        and counts.
    """
    candidates = [(p, lang) for p in paths if (lang := language_of(p))]
    total = len(candidates)
    unknown = sum(1 for p, _ in candidates if p not in cache.entries)
    if unknown < FORK_MIN_FILES or not forked.available():
        part = _scan_part(root, candidates, cache, stats, progress, total)
    else:
        k = _half(root, candidates, stats)
        first, rest = candidates[:k], candidates[k:]
        # The child reads no SQLite connection opened here: it reuses cached entries
        # whose stat is unchanged, and parses the rest.
        detached = cache.detached()
        theirs, mine = forked.in_two(
            lambda: _scan_part(root, first, detached, stats, None, total, defer=True),
            lambda: _scan_part(root, rest, cache, stats, progress, total),
        )
        if isinstance(theirs, forked.ChildFailed):
            logger.warning("the second parsing process failed (%s); parsing here", theirs.reason)
            theirs = _scan_part(root, first, cache, stats, None, total)
        _fill_deferred(root, theirs, cache)
        part = theirs
        part.entries.update(mine.entries)
        part.changed.update(mine.changed)
        part.warnings.extend(mine.warnings)
        for key, value in mine.counts.items():
            part.counts[key] += value
    warnings.extend(part.warnings)
    return part.entries, part.changed, part.counts


def _half(
    root: Path, candidates: list[tuple[str, str]], stats: Mapping[str, os.stat_result] | None
) -> int:
    """Where to cut ``candidates`` into two parts of about the same bytes."""
    sizes = []
    for path, _ in candidates:
        st = stats.get(path) if stats is not None else None
        sizes.append((st.st_size if st is not None else 0) + 1)
    half, seen = sum(sizes) / 2, 0
    for k, size in enumerate(sizes, start=1):
        seen += size
        if seen >= half:
            return max(1, min(k, len(candidates) - 1))
    return max(1, len(candidates) - 1)


def _scan_part(
    root: Path,
    candidates: list[tuple[str, str]],
    cache: ParseCache,
    stats: Mapping[str, os.stat_result] | None,
    progress: Callable[[int, int], None] | None,
    total: int,
    *,
    defer: bool = False,
) -> _Part:
    """:func:`scan_files` of some of the files; ``progress`` gets this part's count
    scaled to the ``total`` of the whole scan. ``defer``: parses cached for another
    path are left for the parent to decode (:attr:`_Part.deferred`)."""
    part = _Part()
    deferred = part.deferred if defer else None
    old_entries = cache.entries
    entries, changed, counts, warnings = part.entries, part.changed, part.counts, part.warnings
    mine = len(candidates)
    for done, (path, language) in enumerate(candidates, start=1):
        if progress and (done % PROGRESS_EVERY == 0 or done == mine):
            progress(min(total, round(done * total / mine)), total)
        st, reason = check_file(root, path, stats)
        if st is None:
            if reason:
                warnings.append(ScanWarning(path, reason))
                counts["skipped"] += 1
            continue
        old = old_entries.get(path)
        if old and (old.size, old.mtime_ns, old.language) == (st.st_size, st.st_mtime_ns, language):
            entry = old
            counts["reused"] += old.mapped
        else:
            got = read_entry(root, path, language, old, cache, True, warnings, counts, deferred)
            if got is None:
                continue
            entry = changed[path] = got
        entries[path] = entry
        if entry.skip:
            warnings.append(ScanWarning(path, entry.skip))
            counts["skipped"] += 1
        else:
            warnings.extend(ScanWarning(path, problem) for problem in entry.problems)
    return part


def _fill_deferred(root: Path, part: _Part, cache: ParseCache) -> None:
    """Give the entries a child left without their parse (:attr:`_Part.deferred`) the
    cached parse of the same content, decoded here where the cache's database is open,
    as one process reuses it; a parse that does not decode is made again."""
    if not part.deferred:
        return
    parses = cache.parses(set(part.deferred.values()))
    for path, same in part.deferred.items():
        entry = part.changed[path]
        parsed = parses.get(same)
        if parsed is None:  # as read_entry does when the cached parse does not decode
            part.counts["reused"] -= 1
            part.counts["parsed"] += 1
            try:
                data = _read(root, path).data
            except (OSError, UnsafeFileError):  # gone since the child read it
                data = b""
            parsed, _ = _parse(path, entry.language, data)
        filled = replace(entry, parsed=parsed, problems=parsed.problems if parsed else ())
        part.changed[path] = part.entries[path] = filled
    part.deferred.clear()
