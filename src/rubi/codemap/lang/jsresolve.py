"""Resolve JavaScript/TypeScript specifiers to repository files.

Order, as bundlers and ``tsc`` do it: relative specifiers (``./x``, ``../x``), then
``paths`` aliases and ``baseUrl`` of the nearest tsconfig/jsconfig (with ``extends``),
then packages of the repository itself (workspaces, or a package importing itself by
name) through their ``exports`` map or entry fields, then ``#imports`` of the nearest
package.json. Every candidate is probed with TypeScript's extensions and ``index``
files, and a ``.js`` specifier also finds the ``.ts`` source (ESM TypeScript). Entry
points that name build output (``./dist/index.js``) are mapped back to ``src/``.
"""

from __future__ import annotations

import posixpath
from typing import Any

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.tsconfig import TsConfigs
from rubi.codemap.model import Parsed

__all__ = ["NODE_BUILTINS", "REEXPORT_DEPTH", "defining_file", "resolve", "resolve_one"]

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

NODE_BUILTINS = frozenset(
    [
        "assert",
        "async_hooks",
        "buffer",
        "child_process",
        "cluster",
        "console",
        "constants",
        "crypto",
        "dgram",
        "diagnostics_channel",
        "dns",
        "domain",
        "events",
        "fs",
        "http",
        "http2",
        "https",
        "inspector",
        "module",
        "net",
        "os",
        "path",
        "perf_hooks",
        "process",
        "punycode",
        "querystring",
        "readline",
        "repl",
        "stream",
        "string_decoder",
        "sys",
        "test",
        "timers",
        "tls",
        "trace_events",
        "tty",
        "url",
        "util",
        "v8",
        "vm",
        "wasi",
        "worker_threads",
        "zlib",
    ]
)
"""Node's built-in modules: imports of them are neither edges nor external packages."""


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


def _from_build_output(repo: RepoIndex, pkg_dir: str, target: str) -> str | None:
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


def _match_subpath(mapping: dict[str, Any], subpath: str) -> list[str]:
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


class _Packages:
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
        while True:
            if folder in self.by_dir:
                return folder, self.by_dir[folder]
            if not folder:
                return None
            folder = posixpath.dirname(folder)


def _package_file(repo: RepoIndex, pkg_dir: str, data: dict[str, Any], sub: str) -> str | None:
    exports = data.get("exports")
    subpath = "." if not sub else "./" + sub
    if isinstance(exports, str | list) or (
        isinstance(exports, dict) and exports and not any(k.startswith(".") for k in exports)
    ):
        exports = {".": exports}
    if isinstance(exports, dict):
        for target in _match_subpath(exports, subpath):
            found = _from_build_output(repo, pkg_dir, target)
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
            found = _from_build_output(repo, pkg_dir, value)
            if found:
                return found
    for candidate in ("src/index", "index", "src/main", "main"):
        joined = join_path(pkg_dir, candidate)
        found = probe(repo, joined) if joined is not None else None
        if found:
            return found
    return None


def _split_package(spec: str) -> tuple[str, str]:
    parts = spec.split("/")
    if spec.startswith("@") and len(parts) > 1:
        return "/".join(parts[:2]), "/".join(parts[2:])
    return parts[0], "/".join(parts[1:])


def resolve_one(repo: RepoIndex, path: str, spec: str) -> str | bool | None:
    """Resolve one specifier: a repository path, False for an existing non-code file
    (an image, JSON), or None when it leads outside the repository."""
    folder = posixpath.dirname(path)
    if spec.startswith((".", "/")):
        base = join_path(folder, spec) if spec.startswith(".") else join_path("", spec[1:])
        if base is None:
            return None
        clean = base.split("?")[0]
        return probe(repo, clean) or (False if repo.exists(clean) else None)
    configs = repo.memo("tsconfig", TsConfigs)
    for base in configs.candidates(folder, spec):
        found = probe(repo, base)
        if found:
            return found
    packages = repo.memo("packages", _Packages)
    if spec.startswith("#"):
        near = packages.nearest(folder)
        imports = near[1].get("imports") if near else None
        if near and isinstance(imports, dict):
            for target in _match_subpath(imports, spec):
                found = _from_build_output(repo, near[0], target)
                if found:
                    return found
        return None
    name, sub = _split_package(spec)
    if name in packages.by_name:
        pkg_dir, data = packages.by_name[name]
        return _package_file(repo, pkg_dir, data, sub)
    return None


REEXPORT_DEPTH = 4
"""Barrels followed at most (``pkg/index.ts`` → ``src/index.ts`` → ``src/x/index.ts``...)."""


def _defines(repo: RepoIndex, path: str, name: str) -> bool:
    return any(s.name == name for s in repo.code[path][1].symbols)


def _follow(repo: RepoIndex, path: str, name: str, depth: int) -> tuple[str, bool]:
    """``(file, sure)``: where ``name`` leads from ``path``, and whether that file
    defines it or is named for it by an explicit ``export { name } from``."""
    if _defines(repo, path, name):
        return path, True
    if depth <= 0:
        return path, False
    for spec in repo.code[path][1].imports:
        explicit = name in spec.names
        if spec.kind != "export" or not (explicit or "*" in spec.names):
            continue
        target = resolve_one(repo, path, spec.target)
        if not isinstance(target, str) or target == path:
            continue
        found, sure = _follow(repo, target, name, depth - 1)
        if explicit:
            return found, True
        if sure:  # through ``export *``: only where the name really is
            return found, True
    return path, False


def defining_file(repo: RepoIndex, path: str, name: str, depth: int = REEXPORT_DEPTH) -> str:
    """Follow a barrel: the file that defines ``name`` imported from ``path``, through
    its ``export { name } from`` and ``export * from``; ``path`` itself when it defines
    the name or the trail ends."""
    return _follow(repo, path, name, depth)[0]


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve a JS/TS file's imports.

    ``import { a, b } from 'x'`` goes through barrels (``index.ts`` re-exports) to
    the files defining ``a`` and ``b``, which share the import's weight.

    Returns:
        Targets (weight 1 per import) and external packages by package name (``react``,
        ``@scope/pkg``); relative specifiers that lead nowhere are external as written;
        Node built-ins (``fs``, ``node:path``) and protocol specifiers of runtimes
        (``bun:``) are left out.
    """
    result = Resolution()
    for item in parsed.imports:
        spec = item.target.strip()
        if not spec or spec.startswith(("node:", "bun:", "data:", "virtual:")):
            continue
        found = resolve_one(repo, path, spec)
        if isinstance(found, str):
            names = [n for n in item.names if n != "*"] if item.kind == "import" else []
            targets = {defining_file(repo, found, n) for n in names} or {found}
            result.add(sorted(t for t in targets if t != path))
        elif found is None:
            if spec.startswith((".", "/", "#")) or "://" in spec:
                result.external.add(spec)
            else:
                name = _split_package(spec.removeprefix("npm:").removeprefix("jsr:"))[0]
                if name not in NODE_BUILTINS:
                    result.external.add(name)
    return result
