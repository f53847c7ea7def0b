"""What resolvers share: the repository index and the result of resolving one file."""

from __future__ import annotations

import json
import logging
import posixpath
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from rubi.codemap.model import Parsed
from rubi.core.model import ScanWarning
from rubi.core.safeio import UnsafeFileError, read_bytes

__all__ = [
    "MAX_MANIFEST_BYTES",
    "RepoIndex",
    "Resolution",
    "join_path",
    "load_jsonc",
    "load_toml",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

MAX_MANIFEST_BYTES = 1_000_000
"""Manifests (package.json, tsconfig, go.mod, Cargo.toml...) larger than this are not
read: real ones are a few kB."""


@dataclass(slots=True)
class Resolution:
    """Where one file's imports lead.

    Attributes:
        targets: ``{repository path: weight}``; weights add up per target, capped at 1.
        external: names of imports that lead outside the repository.
    """

    targets: dict[str, float] = field(default_factory=dict)
    external: set[str] = field(default_factory=set)

    def add(self, paths: Sequence[str], weight: float = 1.0) -> None:
        """Record an import of ``paths`` (a package's files share ``weight``)."""
        if not paths:
            return
        share = weight / len(paths)
        for path in paths:
            self.targets[path] = min(1.0, self.targets.get(path, 0.0) + share)


def join_path(base_dir: str, rel: str) -> str | None:
    """Join and normalise a POSIX path; None when it leaves the repository."""
    joined = posixpath.normpath(posixpath.join(base_dir, rel)) if base_dir else rel
    joined = posixpath.normpath(joined)
    if joined == ".":
        return ""
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        return None
    return joined


_JSONC_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def load_jsonc(text: str) -> Any:
    """Parse JSON with comments and trailing commas (tsconfig.json, jsconfig.json).

    Raises:
        ValueError: the text is not JSON even after removing comments.
    """
    no_comments = _JSONC_TOKEN.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else "", text)
    parts = re.split(r'("(?:\\.|[^"\\])*")', no_comments)
    cleaned = "".join(
        part if i % 2 else _TRAILING_COMMA.sub(r"\1", part) for i, part in enumerate(parts)
    )
    return json.loads(cleaned)


def load_toml(text: str) -> dict[str, Any]:
    """Parse TOML (Cargo.toml).

    Raises:
        ValueError: invalid TOML.
    """
    return tomllib.loads(text)


class RepoIndex:
    """The repository as resolvers see it.

    Attributes:
        root: the repository folder (manifests are read from it).
        code: ``{path: (language, Parsed)}`` for every mapped file.
        listed: every listed path, code or not (manifests, assets).
        dirs: ``{folder: [code files directly inside, sorted]}``.
        warnings: manifests that could not be read.
    """

    def __init__(
        self, root: Path, code: Mapping[str, tuple[str, Parsed]], listed: Iterable[str]
    ) -> None:
        self.root = root
        self.code = code
        self.listed = frozenset(listed)
        self.dirs: dict[str, list[str]] = {}
        for path in sorted(code):
            self.dirs.setdefault(posixpath.dirname(path), []).append(path)
        self.warnings: list[ScanWarning] = []
        self._memo: dict[str, object] = {}
        self._texts: dict[str, str | None] = {}

    def is_code(self, path: str) -> bool:
        """True for a mapped code file."""
        return path in self.code

    def exists(self, path: str) -> bool:
        """True for any listed file (code, manifest or asset)."""
        return path in self.listed

    def files_in(self, folder: str) -> list[str]:
        """Code files directly in ``folder``, sorted."""
        return self.dirs.get(folder, [])

    def listed_named(self, *names: str) -> list[str]:
        """Listed paths whose file name is one of ``names``, sorted."""
        wanted = set(names)
        return sorted(p for p in self.listed if posixpath.basename(p) in wanted)

    def read_text(self, path: str) -> str | None:
        """A manifest's text (UTF-8), or None when missing, too large or unreadable.

        Unreadable manifests are reported once in :attr:`warnings`.
        """
        if path in self._texts:
            return self._texts[path]
        text: str | None = None
        try:
            full = self.root / path
            if full.is_file() and not full.is_symlink():
                got = read_bytes(self.root, full, limit=MAX_MANIFEST_BYTES, label=path)
                if got.truncated:
                    self.warnings.append(ScanWarning(path, "manifest too large; not read"))
                else:
                    text = got.data.decode("utf-8", errors="replace").removeprefix("\ufeff")
        except UnsafeFileError as exc:
            self.warnings.append(ScanWarning(path, exc.reason))
        except FileNotFoundError:
            pass
        except OSError as exc:
            self.warnings.append(ScanWarning(path, f"cannot be read ({exc.strerror})"))
        self._texts[path] = text
        return text

    def read_paths(self) -> frozenset[str]:
        """The paths :meth:`read_text` was asked for so far (manifests, read or not):
        resolution made against this index depends on their content."""
        return frozenset(self._texts)

    def read_json(self, path: str, *, comments: bool = False) -> dict[str, Any] | None:
        """A JSON (or JSONC) manifest as a dict; None (with a warning) when invalid."""
        text = self.read_text(path)
        if text is None:
            return None
        try:
            data = load_jsonc(text) if comments else json.loads(text)
        except ValueError as exc:
            self.warnings.append(ScanWarning(path, f"invalid JSON ({exc}); its settings ignored"))
            return None
        return data if isinstance(data, dict) else None

    def memo(self, key: str, factory: Callable[[RepoIndex], T]) -> T:
        """Build a per-language index once per run."""
        if key not in self._memo:
            self._memo[key] = factory(self)
        return cast(T, self._memo[key])

    def remember(self, key: str, value: object) -> None:
        """Give :meth:`memo` the index ``key`` made elsewhere (brought up to date from
        another :class:`RepoIndex`'s for these files)."""
        self._memo[key] = value
