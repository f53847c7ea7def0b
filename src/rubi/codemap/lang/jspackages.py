"""package.json of the repository's own packages, and probing paths for JS/TS files.

A specifier that names a package of the repository (a workspace member, or the package
importing itself by name) resolves through its ``exports`` map (conditions tried in
source-first order, ``*`` patterns expanded) or its entry fields; entry points that
name build output (``./dist/types/x.d.ts``) are mapped back to their source (``src/x.ts``).
"""

from __future__ import annotations

import posixpath
from typing import Any

from rubi.codemap.lang.base import RepoIndex, join_path

__all__ = ["Packages", "match_subpath", "package_file", "probe", "source_of", "split_package"]

_EXTENSIONS = (
    ".ts",
    ".tsx",
    ".d.ts",
    ".js",
    ".jsx",
    ".mjs",
    ".cjs",
    ".mts",
    ".cts",
    ".vue",
    ".svelte",
)
_JS_TO_TS = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}
_BUILD_DIRS = frozenset(
    {"dist", "lib", "build", "out", "esm", "cjs", "es", "module", "types", "_esm", "_cjs", "_types"}
)
_CONDITIONS = ("source", "import", "module", "default", "types", "require", "node", "browser")
_ENTRY_FIELDS = ("source", "module", "main", "types", "typings", "browser")


def probe(repo: RepoIndex, base: str) -> str | None:
    """The code file a path names, trying extensions, ``.js``→``.ts`` and ``index``."""
    if repo.is_code(base):
        return base
    stem, ext = posixpath.splitext(base)
    for alt in _JS_TO_TS.get(ext, ()):
        if repo.is_code(stem + alt):
            return stem + alt
    for ext in _EXTENSIONS:
        if repo.is_code(base + ext):
            return base + ext
    for ext in _EXTENSIONS:
        candidate = f"{base}/index{ext}" if base else f"index{ext}"
        if repo.is_code(candidate):
            return candidate
    return None


def source_of(repo: RepoIndex, pkg_dir: str, target: str) -> str | None:
    """The source file behind a package entry (``./dist/types/x.d.ts`` → ``src/x.ts``)."""
    rel = join_path(pkg_dir, target)
    if rel is None:
        return None
    found = probe(repo, rel)
    if found:
        return found
    inner = target.removeprefix("./")
    for suffix in (".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs"):
        if inner.endswith(suffix):
            inner = inner[: -len(suffix)]
            break
    parts = inner.split("/")
    while len(parts) > 1 and parts[0] in _BUILD_DIRS:
        parts = parts[1:]
    rest = "/".join(parts)
    for candidate in (f"src/{rest}", rest):
        joined = join_path(pkg_dir, candidate)
        found = probe(repo, joined) if joined is not None else None
        if found:
            return found
    return None


def _leaves(value: Any) -> list[str]:
    """Target strings of an ``exports`` entry, preferring source-like conditions."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item)]
    if isinstance(value, dict):
        keys = [k for k in _CONDITIONS if k in value] + sorted(
            k for k in value if k not in _CONDITIONS
        )
        return [leaf for k in keys for leaf in _leaves(value[k])]
    return []


def match_subpath(mapping: dict[str, Any], subpath: str) -> list[str]:
    """Targets for ``subpath`` (``.``, ``./x``) in an exports/imports map, ``*`` expanded."""
    if subpath in mapping:
        return _leaves(mapping[subpath])
    best = ""
    for key in mapping:
        head, star, tail = key.partition("*")
        if star and subpath.startswith(head) and subpath.endswith(tail) and len(head) > len(best):
            best = key
    if not best:
        return []
    head, _, tail = best.partition("*")
    middle = subpath[len(head) : len(subpath) - len(tail)]
    return [leaf.replace("*", middle) for leaf in _leaves(mapping[best])]


class Packages:
    """package.json files of the repository: by name and by folder."""

    def __init__(self, repo: RepoIndex) -> None:
        self.by_name: dict[str, tuple[str, dict[str, Any]]] = {}
        self.by_dir: dict[str, dict[str, Any]] = {}
        manifests = repo.listed_named("package.json")
        for path in sorted(manifests, key=lambda p: (p.count("/"), p)):
            data = repo.read_json(path)
            if data is None:
                continue
            folder = posixpath.dirname(path)
            self.by_dir[folder] = data
            name = data.get("name")
            if isinstance(name, str) and name not in self.by_name:
                self.by_name[name] = (folder, data)

    def nearest(self, folder: str) -> tuple[str, dict[str, Any]] | None:
        """The package.json in ``folder`` or the closest folder above it, if any."""
        while True:
            if folder in self.by_dir:
                return folder, self.by_dir[folder]
            if not folder:
                return None
            folder = posixpath.dirname(folder)


def package_file(repo: RepoIndex, pkg_dir: str, data: dict[str, Any], sub: str) -> str | None:
    exports = data.get("exports")
    subpath = "." if not sub else "./" + sub
    if isinstance(exports, str | list) or (
        isinstance(exports, dict) and exports and not any(k.startswith(".") for k in exports)
    ):
        exports = {".": exports}
    if isinstance(exports, dict):
        for target in match_subpath(exports, subpath):
            found = source_of(repo, pkg_dir, target)
            if found:
                return found
    if sub:
        for candidate in (f"src/{sub}", sub):
            joined = join_path(pkg_dir, candidate)
            found = probe(repo, joined) if joined is not None else None
            if found:
                return found
        return None
    for field in _ENTRY_FIELDS:
        value = data.get(field)
        if isinstance(value, str):
            found = source_of(repo, pkg_dir, value)
            if found:
                return found
    for candidate in ("src/index", "index", "src/main", "main"):
        joined = join_path(pkg_dir, candidate)
        found = probe(repo, joined) if joined is not None else None
        if found:
            return found
    return None


def split_package(spec: str) -> tuple[str, str]:
    parts = spec.split("/")
    if spec.startswith("@") and len(parts) > 1:
        return "/".join(parts[:2]), "/".join(parts[2:])
    return parts[0], "/".join(parts[1:])
