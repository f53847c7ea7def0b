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
from rubi.codemap.lang.jspackages import (
    Packages,
    match_subpath,
    package_file,
    probe,
    source_of,
    split_package,
)
from rubi.codemap.lang.tsconfig import TsConfigs
from rubi.codemap.model import Parsed

__all__ = ["NODE_BUILTINS", "REEXPORT_DEPTH", "defining_file", "resolve", "resolve_one"]

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


def resolve_one(repo: RepoIndex, path: str, spec: str) -> str | bool | None:
    """Resolve one specifier: a repository path, False for an existing non-code file
    (an image, JSON), or None when it leads outside the repository. Memoized per run
    by (folder, specifier)."""
    memo: dict[tuple[str, str], str | bool | None] = repo.memo("js.resolve_one", _new_memo)
    key = (posixpath.dirname(path), spec)
    if key not in memo:
        memo[key] = _resolve_uncached(repo, key[0], spec)
    return memo[key]


def _new_memo(_: RepoIndex) -> dict[Any, Any]:
    return {}


def _resolve_uncached(repo: RepoIndex, folder: str, spec: str) -> str | bool | None:
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
    packages = repo.memo("packages", Packages)
    if spec.startswith("#"):
        near = packages.nearest(folder)
        imports = near[1].get("imports") if near else None
        if near and isinstance(imports, dict):
            for target in match_subpath(imports, spec):
                found = source_of(repo, near[0], target)
                if found:
                    return found
        return None
    name, sub = split_package(spec)
    if name in packages.by_name:
        pkg_dir, data = packages.by_name[name]
        return package_file(repo, pkg_dir, data, sub)
    return None


REEXPORT_DEPTH = 4
"""Barrels followed at most (``pkg/index.ts`` → ``src/index.ts`` → ``src/x/index.ts``...)."""


def _defines(repo: RepoIndex, path: str, name: str) -> bool:
    return any(s.name == name for s in repo.code[path][1].symbols)


def _follow(repo: RepoIndex, path: str, name: str, depth: int) -> tuple[str, bool]:
    """``(file, sure)``: where ``name`` leads from ``path``, and whether that file
    defines it or is named for it by an explicit ``export { name } from``. Memoized."""
    memo: dict[tuple[str, str, int], tuple[str, bool]] = repo.memo("js.follow", _new_memo)
    key = (path, name, depth)
    if key not in memo:
        memo[key] = _follow_uncached(repo, path, name, depth)
    return memo[key]


def _follow_uncached(repo: RepoIndex, path: str, name: str, depth: int) -> tuple[str, bool]:
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
                name = split_package(spec.removeprefix("npm:").removeprefix("jsr:"))[0]
                if name not in NODE_BUILTINS:
                    result.external.add(name)
    return result
