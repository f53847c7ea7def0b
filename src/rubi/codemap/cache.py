"""The per-file parse cache: JSON, keyed by path, validated by content hash.

A file whose size and modification time are unchanged is not even read (unless it
was modified just before the cache was written, see :data:`RACY_WINDOW_NS`); one whose
stat changed is hashed, and its old parse is reused when the SHA-256 is the same
(a ``touch``, a branch switch back and forth); only new content is parsed. Parses do
not depend on the path, so a renamed file reuses its parse too.

JSON rather than pickle: the cache sits inside the project, and loading a pickle that
someone committed or planted would run their code on the next ``rubi index``.
Written atomically (temp file in the same folder, fsync, ``os.replace``).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubi.codemap.lang import PARSER_VERSION
from rubi.codemap.model import ImportSpec, Parsed, Symbol
from rubi.core.atomic import atomic_write_bytes
from rubi.core.model import ScanWarning

__all__ = ["CACHE_FORMAT", "RACY_WINDOW_NS", "CacheEntry", "load_cache", "save_cache"]

logger = logging.getLogger(__name__)

CACHE_FORMAT = 1
"""Layout version of the cache file; a different one is ignored (rebuilt)."""
RACY_WINDOW_NS = 2_000_000_000
"""A file modified this shortly before the cache is written may change again within
the file system's timestamp granularity without changing its stat (git's "racily
clean" problem), so its stat is not trusted: the next run hashes it again."""


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """What is remembered about one file.

    Attributes:
        sha256: hex digest of the bytes parsed.
        size: bytes, as of the stat that was checked.
        mtime_ns: modification time, as of that stat.
        language: the file's language.
        parsed: its parse, or None when the file was left out.
        skip: why the file was left out (binary, minified), else None.
    """

    sha256: str
    size: int
    mtime_ns: int
    language: str
    parsed: Parsed | None
    skip: str | None = None


def _parsed_to_json(parsed: Parsed) -> dict[str, Any]:
    return {
        "i": [[s.kind, s.target, list(s.names)] for s in parsed.imports],
        "s": [[s.name, s.kind, s.line] for s in parsed.symbols],
        "p": parsed.package,
        "d": list(parsed.idents),
        "e": list(parsed.problems),
    }


def _parsed_from_json(data: dict[str, Any]) -> Parsed:
    return Parsed(
        imports=tuple(ImportSpec(str(k), str(t), tuple(map(str, n))) for k, t, n in data["i"]),
        symbols=tuple(Symbol(str(n), str(k), int(line)) for n, k, line in data["s"]),
        package=str(data["p"]),
        idents=tuple(map(str, data["d"])),
        problems=tuple(map(str, data["e"])),
    )


def load_cache(path: Path | None) -> tuple[dict[str, CacheEntry], list[ScanWarning]]:
    """Read the cache.

    Args:
        path: the cache file, or None for no cache.

    Returns:
        ``({repository path: CacheEntry}, warnings)``. A missing file, or one written by
        another version, gives an empty cache silently; an unreadable or corrupt one
        gives an empty cache and a warning (it will be rewritten).
    """
    if path is None or not path.exists():
        return {}, []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != CACHE_FORMAT or data.get("parser") != PARSER_VERSION:
            logger.info("code map cache %s is from another version; rebuilding", path)
            return {}, []
        entries: dict[str, CacheEntry] = {}
        for key, raw in data["files"].items():
            parsed = _parsed_from_json(raw["parsed"]) if raw.get("parsed") is not None else None
            entries[str(key)] = CacheEntry(
                str(raw["sha256"]),
                int(raw["size"]),
                int(raw["mtime_ns"]),
                str(raw["language"]),
                parsed,
                raw.get("skip"),
            )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.warning("code map cache %s unreadable (%s); rebuilding", path, exc)
        return {}, [ScanWarning(path.name, "code map cache unreadable; rebuilt from the files")]
    return entries, []


def save_cache(path: Path, entries: dict[str, CacheEntry]) -> ScanWarning | None:
    """Write the cache atomically.

    Args:
        path: the cache file; its folder is created if missing.
        entries: what to remember, by repository path.

    Returns:
        None, or a warning when the file cannot be written (the map is still valid;
        the next run simply parses again).
    """
    racy_after = time.time_ns() - RACY_WINDOW_NS
    files = {
        key: {
            "sha256": e.sha256,
            "size": e.size,
            "mtime_ns": e.mtime_ns if e.mtime_ns < racy_after else -1,
            "language": e.language,
            "parsed": _parsed_to_json(e.parsed) if e.parsed is not None else None,
            "skip": e.skip,
        }
        for key, e in sorted(entries.items())
    }
    payload = {"format": CACHE_FORMAT, "parser": PARSER_VERSION, "files": files}
    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    try:
        atomic_write_bytes(path, data)  # a temp file named for its process, then rename
    except OSError as exc:
        logger.warning("cannot write code map cache %s: %s", path, exc)
        return ScanWarning(
            path.name, f"code map cache not written ({exc.strerror}); check the folder"
        )
    return None
