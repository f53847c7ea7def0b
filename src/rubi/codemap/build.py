"""Build the code map: list, read (incrementally), parse, resolve, group and rank."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rubi.codemap.cache import CacheEntry, load_cache, save_cache
from rubi.codemap.errors import CodeMapError
from rubi.codemap.files import (
    MAX_FILE_BYTES,
    check_file,
    decode_source,
    list_files,
    looks_minified,
)
from rubi.codemap.lang import RepoIndex, parse_source, resolve_file, scope_edges
from rubi.codemap.languages import language_of
from rubi.codemap.model import BuildStats, CodeFile, CodeMap, Parsed
from rubi.codemap.modules import group_modules
from rubi.codemap.rank import degrees, rank_files, rank_modules
from rubi.core.model import ScanWarning
from rubi.core.safeio import FileBytes, UnsafeFileError, read_bytes

__all__ = ["PROGRESS_EVERY", "build_code_map"]

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 64
"""Files between two progress callbacks (and one at the end)."""

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


def _scan(
    root: Path,
    paths: list[str],
    cache: dict[str, CacheEntry],
    warnings: list[ScanWarning],
    progress: Callable[[int, int], None] | None,
) -> tuple[dict[str, CacheEntry], dict[str, int]]:
    """Stat, hash and parse what changed; reuse the rest. Returns the new cache and counts."""
    by_content = {(e.sha256, e.language): e for e in cache.values() if e.parsed is not None}
    entries: dict[str, CacheEntry] = {}
    counts = {"parsed": 0, "reused": 0, "hashed": 0, "skipped": 0}
    candidates = [(p, lang) for p in paths if (lang := language_of(p))]
    total = len(candidates)
    for done, (path, language) in enumerate(candidates, start=1):
        if progress and (done % PROGRESS_EVERY == 0 or done == total):
            progress(done, total)
        st, reason = check_file(root, path)
        if st is None:
            if reason:
                warnings.append(ScanWarning(path, reason))
                counts["skipped"] += 1
            continue
        old = cache.get(path)
        if old and (old.size, old.mtime_ns, old.language) == (st.st_size, st.st_mtime_ns, language):
            entry = old
            counts["reused"] += old.parsed is not None
        else:
            try:
                got = _read(root, path)
            except UnsafeFileError as exc:
                warnings.append(ScanWarning(path, exc.reason))
                counts["skipped"] += 1
                continue
            except OSError as exc:
                warnings.append(ScanWarning(path, f"cannot be read ({exc.strerror}); skipped"))
                counts["skipped"] += 1
                continue
            if got.truncated:
                warnings.append(ScanWarning(path, "grew over the size limit while read; skipped"))
                counts["skipped"] += 1
                continue
            data = got.data
            sha = hashlib.sha256(data).hexdigest()
            counts["hashed"] += 1
            same = old if old and (old.sha256, old.language) == (sha, language) else None
            same = same or by_content.get((sha, language))
            if same is not None:
                entry = replace(same, size=got.size, mtime_ns=got.mtime_ns)
                counts["reused"] += same.parsed is not None
            else:
                parsed, skip = _parse(path, language, data)
                entry = CacheEntry(sha, got.size, got.mtime_ns, language, parsed, skip)
                counts["parsed"] += 1
        entries[path] = entry
        if entry.skip:
            warnings.append(ScanWarning(path, entry.skip))
            counts["skipped"] += 1
        elif entry.parsed is not None:
            warnings.extend(ScanWarning(path, problem) for problem in entry.parsed.problems)
    return entries, counts


def _resolve(
    root: Path, code: dict[str, tuple[str, Parsed]], listed: list[str], warnings: list[ScanWarning]
) -> tuple[dict[tuple[str, str], float], dict[str, tuple[str, ...]]]:
    """Import edges and external dependencies of every file."""
    repo = RepoIndex(root, code, listed)
    edges: dict[tuple[str, str], float] = {}
    external: dict[str, tuple[str, ...]] = {}
    for path in sorted(code):
        language, parsed = code[path]
        try:
            result = resolve_file(language, path, parsed, repo)
        except Exception as exc:  # a resolver bug on one file must not stop the map
            logger.warning("resolver failed on %s", path, exc_info=True)
            warnings.append(ScanWarning(path, f"imports not resolved ({type(exc).__name__})"))
            continue
        for target, weight in sorted(result.targets.items()):
            if target != path and target in code:
                edges[(path, target)] = weight
        external[path] = tuple(sorted(result.external))
    for key, weight in scope_edges(code).items():
        edges[key] = min(1.0, edges.get(key, 0.0) + weight)
    warnings.extend(repo.warnings)
    return dict(sorted(edges.items())), external


def _shape(parsed: Parsed) -> tuple[object, ...]:
    """What resolution, grouping and ranking read of a parse: everything but the
    symbols' lines."""
    names = tuple((s.name, s.kind) for s in parsed.symbols)
    return (parsed.imports, names, parsed.package, parsed.idents, parsed.problems)


def _same_shape(
    previous: CodeMap,
    code: dict[str, tuple[str, Parsed]],
    cache: dict[str, CacheEntry],
    entries: dict[str, CacheEntry],
) -> list[str] | None:
    """The files whose content changed, when every one of them kept its shape
    (:func:`_shape`) and the file set is the same as in ``previous``; else None."""
    if code.keys() != previous.files.keys():
        return None
    changed = [p for p in code if entries[p].sha256 != previous.files[p].sha256]
    for path in changed:
        old = cache.get(path)
        if old is None or old.parsed is None or old.language != code[path][0]:
            return None
        if _shape(old.parsed) != _shape(code[path][1]):
            return None
    return changed


def build_code_map(
    repo_root: Path,
    cache_path: Path | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    previous: CodeMap | None = None,
) -> CodeMap:
    """Map a repository's code: files, imports, symbols, modules and ranks.

    Incremental: a file whose size and mtime match the cache is not read; a changed
    stat with unchanged content (same SHA-256) reuses the cached parse; only new
    content is parsed. Resolution, grouping and ranking always run over the whole
    repository (they are fast and depend on every file).

    Args:
        repo_root: the repository (a git work tree, or any folder).
        cache_path: the per-file cache (JSON), read if present and rewritten when
            something changed; None for no cache.
        progress: called with ``(files done, files total)`` every
            :data:`PROGRESS_EVERY` files and once at the end of the file scan.
        previous: the map this run updates. When the same files are mapped and every
            changed one kept its imports, package, identifiers and symbol names (an
            edit inside a function body), resolution, grouping and ranking cannot
            change: the previous map is kept with those files' new hashes, sizes and
            symbol lines (``stats.reused_shape``), which turns a one-file edit in a
            10,000-file repository from seconds into milliseconds.

    Returns:
        The :class:`CodeMap`. Bad files never stop the run: each is reported in
        ``warnings`` with its path and left out or mapped as far as possible.

    Raises:
        CodeMapError: ``repo_root`` does not exist or is not a folder.
    """
    started = time.perf_counter()
    if not repo_root.is_dir():
        raise CodeMapError(f"{repo_root}: not a folder; pass the repository's root folder")
    listing = list_files(repo_root)
    cache, warnings = load_cache(cache_path)
    warnings.extend(listing.warnings)
    entries, counts = _scan(repo_root, listing.paths, cache, warnings, progress)
    code = {p: (e.language, e.parsed) for p, e in entries.items() if e.parsed is not None}
    kept = _same_shape(previous, code, cache, entries) if previous is not None else None
    if previous is not None and kept is not None:
        if cache_path is not None and (counts["hashed"] or set(entries) != set(cache)):
            problem = save_cache(cache_path, entries)
            if problem:
                warnings.append(problem)
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
            listed=len(listing.paths),
            parsed=counts["parsed"],
            reused=counts["reused"],
            hashed=counts["hashed"],
            skipped=counts["skipped"],
            elapsed_ms=(time.perf_counter() - started) * 1000.0,
            reused_shape=True,
        )
        return replace(previous, files=files, stats=stats)
    edges, external = _resolve(repo_root, code, listing.paths, warnings)
    module_of, modules = group_modules(code, listing.paths)
    paths = sorted(code)
    indeg, outdeg = degrees(paths, edges)
    imports: dict[str, list[str]] = {p: [] for p in paths}
    for src, dst in edges:
        imports[src].append(dst)
    files = {
        p: CodeFile(
            path=p,
            language=code[p][0],
            size=entries[p].size,
            sha256=entries[p].sha256,
            module=module_of[p],
            imports=tuple(sorted(imports[p])),
            external=external.get(p, ()),
            symbols=code[p][1].symbols,
        )
        for p in paths
    }
    if cache_path is not None and (counts["hashed"] or set(entries) != set(cache)):
        problem = save_cache(cache_path, entries)
        if problem:
            warnings.append(problem)
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
        warnings=sorted(set(warnings), key=lambda w: (w.path, w.message)),
        stats=stats,
    )
    return replace(code_map, module_links=code_map.module_edges())
