"""Where the mapped files' imports lead, kept per file so that an edit can redo a few.

A full build resolves every file (:func:`resolve_all`); an incremental one
(:mod:`rubi.codemap.incremental`) re-resolves some files (:func:`Resolved.resolve`),
redoes the same-package references of some packages (:func:`Resolved.rescope`) and
joins each changed file's out-edges again (:func:`Resolved.join`). Both give the
same edges for the same files: one code path computes them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rubi.codemap.lang import RepoIndex, resolve_file
from rubi.codemap.lang.scope import ScopeKey, group_edges, scope_key
from rubi.codemap.model import Parsed
from rubi.core.model import ScanWarning

__all__ = ["MANIFEST_NAMES", "FileResolution", "Resolved", "is_manifest", "resolve_all"]

logger = logging.getLogger(__name__)

FileResolution = tuple[dict[str, float], tuple[str, ...]]
"""One file's resolution: ``({target path: weight}, external names sorted)``."""


@dataclass(slots=True)
class Resolved:
    """Every mapped file's resolution and out-edges.

    Attributes:
        code: ``{path: (language, Parsed)}`` of every mapped file (the dict the
            :class:`RepoIndex` reads; updated in place).
        repo: the index the resolutions were made against.
        files: ``{path: FileResolution}``; a file whose resolver failed has none.
        failures: ``{path: warning}`` for those files.
        group_of: ``{path: ScopeKey}`` of the files in same-package references.
        scope_out: ``{user: {definer: weight}}``, same-package references.
        out: ``{path: {target: weight}}``, the file's edges (imports and same-package
            references joined), targets sorted; every mapped file has an entry.
    """

    code: dict[str, tuple[str, Parsed]]
    repo: RepoIndex
    files: dict[str, FileResolution] = field(default_factory=dict)
    failures: dict[str, ScanWarning] = field(default_factory=dict)
    group_of: dict[str, ScopeKey] = field(default_factory=dict)
    scope_out: dict[str, dict[str, float]] = field(default_factory=dict)
    out: dict[str, dict[str, float]] = field(default_factory=dict)

    def resolve(self, paths: Iterable[str]) -> None:
        """Resolve ``paths`` (mapped files) again against :attr:`repo`."""
        for path in paths:
            self.failures.pop(path, None)
            self.files.pop(path, None)
            language, parsed = self.code[path]
            try:
                result = resolve_file(language, path, parsed, self.repo)
            except Exception as exc:  # a resolver bug on one file must not stop the map
                logger.warning("resolver failed on %s", path, exc_info=True)
                self.failures[path] = ScanWarning(
                    path, f"imports not resolved ({type(exc).__name__})"
                )
                continue
            self.files[path] = (
                dict(sorted(result.targets.items())),
                tuple(sorted(result.external)),
            )

    def forget(self, paths: Iterable[str]) -> None:
        """Drop the resolutions of files that are no longer mapped (their parses left
        :attr:`code` already; :meth:`rescope` them for their references)."""
        for path in paths:
            self.files.pop(path, None)
            self.failures.pop(path, None)
            self.out.pop(path, None)

    def rescope(self, paths: Iterable[str], *, every: bool = False) -> set[str]:
        """Redo the same-package references of the packages ``paths`` belonged to or
        belong to now (all packages with ``every``), after those files changed, came
        or went (:attr:`code` already says so).

        Returns:
            The files whose references may have changed (old and new members).
        """
        keys: set[ScopeKey] = set()
        for path in paths:
            old = self.group_of.pop(path, None)
            if old is not None:
                keys.add(old)
            entry = self.code.get(path)
            if entry is not None:
                key = scope_key(path, entry[0], entry[1])
                if key is not None:
                    self.group_of[path] = key
                    keys.add(key)
        if every:
            keys = set(self.group_of.values())
        members: dict[ScopeKey, list[str]] = {k: [] for k in keys}
        for path, key in self.group_of.items():
            if key in members:
                members[key].append(path)
        touched: set[str] = set()
        for user in list(self.scope_out):
            if self.group_of.get(user) in members or user not in self.group_of:
                touched.add(user)
                del self.scope_out[user]
        for group in members.values():
            group.sort()
            touched.update(group)
            for (user, definer), weight in group_edges(self.code, group).items():
                self.scope_out.setdefault(user, {})[definer] = weight
        return touched

    def join(self, paths: Iterable[str]) -> None:
        """Recompute the out-edges of ``paths`` from their resolution and references."""
        for path in paths:
            if path not in self.code:
                self.out.pop(path, None)
                continue
            edges: dict[str, float] = {}
            resolution = self.files.get(path)
            if resolution is not None:
                for target, weight in resolution[0].items():
                    if target != path and target in self.code:
                        edges[target] = weight
            for target, weight in self.scope_out.get(path, {}).items():
                edges[target] = min(1.0, edges.get(target, 0.0) + weight)
            self.out[path] = dict(sorted(edges.items()))

    def edges(self) -> dict[tuple[str, str], float]:
        """``{(importer, imported): weight}`` of every file, sorted."""
        return {(src, dst): w for src in sorted(self.out) for dst, w in self.out[src].items()}

    def external(self) -> dict[str, tuple[str, ...]]:
        """``{path: external names}`` of the files resolved."""
        return {path: resolution[1] for path, resolution in self.files.items()}

    def warnings(self) -> list[ScanWarning]:
        """The resolvers' failures and the manifests that could not be read."""
        return [*self.failures.values(), *self.repo.warnings]


MANIFEST_NAMES = frozenset(
    {"go.mod", "package.json", "Cargo.toml", "composer.json", "pubspec.yaml"}
)
"""Files the resolvers read (besides ``tsconfig``/``jsconfig`` files and what they
extend): a change to one can move any file's imports."""
_CONFIG = re.compile(r"^(?:ts|js)config(?:\.[\w.-]+)?\.json$")


def is_manifest(path: str) -> bool:
    """True for a file whose content the resolvers read (:data:`MANIFEST_NAMES`, a
    ``tsconfig``/``jsconfig``), or whose presence moves load paths (``*.gemspec``,
    ``Gemfile``)."""
    name = path.rpartition("/")[2]
    return (
        name in MANIFEST_NAMES
        or bool(_CONFIG.match(name))
        or name == "Gemfile"
        or name.endswith(".gemspec")
    )


def resolve_all(root: Path, code: dict[str, tuple[str, Parsed]], listed: list[str]) -> Resolved:
    """Resolve every mapped file: imports through the languages' resolvers, then the
    same-package references (:func:`rubi.codemap.lang.scope_edges`)."""
    resolved = Resolved(code, RepoIndex(root, code, listed))
    paths = sorted(code)
    resolved.resolve(paths)
    resolved.rescope(paths, every=True)
    resolved.join(paths)
    return resolved
