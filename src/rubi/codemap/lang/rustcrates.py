"""The crates of a Rust repository and the module tree under each crate root."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from rubi.codemap.lang.base import RepoIndex, join_path, load_toml
from rubi.core.model import ScanWarning

__all__ = ["CrateRoot", "Crates", "module_dir", "module_file", "module_path"]


@dataclass(frozen=True, slots=True)
class CrateRoot:
    """A crate root file (``lib.rs``, ``main.rs``, a bin, test, example or bench)."""

    file: str
    dir: str
    name: str
    is_lib: bool


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


class Crates:
    """Crate roots from every ``Cargo.toml``, and workspace crates by import name."""

    def __init__(self, repo: RepoIndex) -> None:
        self.roots: list[CrateRoot] = []
        self.by_name: dict[str, CrateRoot] = {}
        for manifest in repo.listed_named("Cargo.toml"):
            text = repo.read_text(manifest)
            if text is None:
                continue
            try:
                data = load_toml(text)
            except ValueError as exc:
                repo.warnings.append(ScanWarning(manifest, f"invalid TOML ({exc}); ignored"))
                continue
            self._add(repo, posixpath.dirname(manifest), data)
        self.roots.sort(key=lambda r: (-len(r.dir), not r.is_lib, r.file))
        self._of: dict[str, CrateRoot | None] = {}

    def _add(self, repo: RepoIndex, folder: str, data: dict[str, Any]) -> None:
        package = _table(data, "package")
        pkg_name = str(package.get("name", posixpath.basename(folder) or "crate"))
        lib = _table(data, "lib")

        def add(rel: str | None, name: str, is_lib: bool) -> None:
            file = join_path(folder, rel) if rel else None
            if file and repo.is_code(file) and all(r.file != file for r in self.roots):
                root = CrateRoot(file, posixpath.dirname(file), name.replace("-", "_"), is_lib)
                self.roots.append(root)
                if is_lib and root.name not in self.by_name:
                    self.by_name[root.name] = root

        add(lib.get("path") or "src/lib.rs", str(lib.get("name", pkg_name)), True)
        bins = data.get("bin")
        for item in bins if isinstance(bins, list) else []:
            if isinstance(item, dict):
                name = str(item.get("name", pkg_name))
                add(item.get("path") or f"src/bin/{name}.rs", name, False)
        add("src/main.rs", pkg_name, False)
        for sub in ("src/bin", "tests", "examples", "benches"):
            prefix = join_path(folder, sub)
            for file in repo.files_in(prefix or ""):
                if file.endswith(".rs"):
                    add(posixpath.relpath(file, folder) if folder else file, pkg_name, False)

    def root_of(self, path: str) -> CrateRoot | None:
        """The crate root a file belongs to: itself if it is one, else the root in the
        deepest folder above it (a library before binaries)."""
        if path not in self._of:
            found: CrateRoot | None = None
            for root in self.roots:
                if root.file == path:
                    found = root
                    break
            if found is None:
                folder = posixpath.dirname(path)
                for root in self.roots:
                    if not root.dir or folder == root.dir or folder.startswith(root.dir + "/"):
                        found = root
                        break
            self._of[path] = found
        return self._of[path]


def module_path(root: CrateRoot, path: str) -> list[str]:
    """Module path of a file under its crate root (``[]`` for the root itself)."""
    if path == root.file:
        return []
    rel = path[len(root.dir) + 1 :] if root.dir else path
    rel = rel.removesuffix(".rs").removesuffix("/mod")
    return [part for part in rel.split("/") if part]


def module_dir(root: CrateRoot, path: str) -> str:
    """Folder where the child modules of ``path`` live."""
    folder = posixpath.dirname(path)
    if path == root.file or posixpath.basename(path) == "mod.rs":
        return folder
    stem = posixpath.basename(path).removesuffix(".rs")
    return posixpath.join(folder, stem) if folder else stem


def module_file(
    repo: RepoIndex, root: CrateRoot, segments: list[str], *, exact: bool = False
) -> str | None:
    """The file of the longest module prefix of ``segments`` (only the full path when
    ``exact``); the crate root for an empty path."""
    stop = len(segments) - 1 if exact else -1
    for k in range(len(segments), stop, -1):
        if k == 0:
            return root.file
        base = (
            posixpath.join(root.dir, *segments[:k]) if root.dir else posixpath.join(*segments[:k])
        )
        for candidate in (base + ".rs", base + "/mod.rs"):
            if repo.is_code(candidate):
                return candidate
    return None
