"""tsconfig/jsconfig ``paths`` and ``baseUrl``, as ``tsc`` reads them.

The configs that apply to a file are those in the nearest folder above it that holds
any ``tsconfig*.json`` or ``jsconfig*.json`` (``tsconfig.json`` first), so a root
tsconfig that only lists ``references`` still finds the aliases of its siblings.
``extends`` is followed for relative paths (packages in ``node_modules`` are not in the
repository). ``paths`` are relative to ``baseUrl`` when set, else to the config that
declares them; ``${configDir}`` is the folder of the config in use.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rubi.codemap.lang.base import join_path

if TYPE_CHECKING:
    from rubi.codemap.lang.base import RepoIndex

__all__ = ["TsConfigs"]

_CONFIG_NAME = re.compile(r"^(?:ts|js)config(?:\.[\w.-]+)?\.json$")
_MAX_EXTENDS = 8
"""Deeper ``extends`` chains are cut (and cycles stop)."""


@dataclass(frozen=True, slots=True)
class _Aliases:
    """One config's ``paths`` aliases and ``baseUrl``."""

    paths: tuple[tuple[str, tuple[str, ...]], ...]  # key → repository-relative templates
    base_url: str | None


class TsConfigs:
    """Aliases of every tsconfig/jsconfig in the repository, loaded on demand."""

    def __init__(self, repo: RepoIndex) -> None:
        self.repo = repo
        self.by_dir: dict[str, list[str]] = {}
        for path in sorted(repo.listed):
            if _CONFIG_NAME.match(posixpath.basename(path)):
                self.by_dir.setdefault(posixpath.dirname(path), []).append(path)
        for names in self.by_dir.values():
            names.sort(
                key=lambda p: (
                    not p.endswith("/tsconfig.json") and p != "tsconfig.json",
                    not p.endswith("jsconfig.json"),
                    p,
                )
            )
        self._aliases: dict[str, _Aliases] = {}
        self._near: dict[str, list[_Aliases]] = {}

    def _options(self, path: str, config_dir: str, depth: int) -> dict[str, Any]:
        """compilerOptions of ``path`` merged over its ``extends``, with the folder each
        relative setting is relative to stored as ``__baseUrlDir``/``__pathsDir``."""
        data = self.repo.read_json(path, comments=True) if depth < _MAX_EXTENDS else None
        if data is None:
            return {}
        here = posixpath.dirname(path)
        merged: dict[str, Any] = {}
        extends = data.get("extends")
        for parent in [extends] if isinstance(extends, str) else extends or []:
            if isinstance(parent, str) and parent.startswith("."):
                target = join_path(here, parent if parent.endswith(".json") else parent + ".json")
                if target is not None:
                    merged.update(self._options(target, config_dir, depth + 1))
        options = data.get("compilerOptions")
        if isinstance(options, dict):
            if isinstance(options.get("baseUrl"), str):
                merged["baseUrl"] = options["baseUrl"]
                merged["__baseUrlDir"] = here
            if isinstance(options.get("paths"), dict):
                merged["paths"] = options["paths"]
                merged["__pathsDir"] = here
        return merged

    def _load(self, path: str) -> _Aliases:
        if path not in self._aliases:
            config_dir = posixpath.dirname(path)
            options = self._options(path, config_dir, 0)
            base_url = None
            raw = options.get("baseUrl")
            if isinstance(raw, str):
                if "${configDir}" in raw:
                    base_url = join_path(config_dir, raw.replace("${configDir}", "."))
                else:
                    base_url = join_path(options["__baseUrlDir"], raw)
            paths_base = base_url if base_url is not None else options.get("__pathsDir", config_dir)
            paths: list[tuple[str, tuple[str, ...]]] = []
            for key, targets in (options.get("paths") or {}).items():
                if not (isinstance(key, str) and isinstance(targets, list)):
                    continue
                templates = []
                for target in targets:
                    if not isinstance(target, str):
                        continue
                    if "${configDir}" in target:
                        joined = join_path(config_dir, target.replace("${configDir}", "."))
                    else:
                        joined = join_path(paths_base, target)
                    if joined is not None:
                        templates.append(joined)
                paths.append((key, tuple(templates)))
            self._aliases[path] = _Aliases(tuple(paths), base_url)
        return self._aliases[path]

    def _nearest(self, folder: str) -> list[_Aliases]:
        if folder not in self._near:
            probe = folder
            while probe not in self.by_dir and probe:
                probe = posixpath.dirname(probe)
            names = self.by_dir.get(probe, [])
            self._near[folder] = [self._load(p) for p in names]
        return self._near[folder]

    def candidates(self, folder: str, spec: str) -> list[str]:
        """Paths (to probe with extensions) that an alias or ``baseUrl`` maps ``spec`` to,
        in the order ``tsc`` tries them, for a file in ``folder``."""
        out: list[str] = []
        for aliases in self._nearest(folder):
            best: tuple[int, str, tuple[str, ...]] | None = None
            for key, targets in aliases.paths:
                head, star, tail = key.partition("*")
                if key == spec:
                    best = (len(key) + 1_000_000, "", targets)
                    break
                fits = star and spec.startswith(head) and spec.endswith(tail)
                fits = fits and len(spec) >= len(head) + len(tail)
                if fits and (best is None or len(head) > best[0]):  # longest prefix wins
                    best = (len(head), spec[len(head) : len(spec) - len(tail)], targets)
            if best is not None:
                out.extend(template.replace("*", best[1]) for template in best[2])
            if aliases.base_url is not None:
                joined = join_path(aliases.base_url, spec)
                if joined is not None:
                    out.append(joined)
        return out
