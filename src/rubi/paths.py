"""Where a vault and its derived data live.

A project vault is the ``.rubi/`` folder found from the current folder upward; any
folder of markdown (an Obsidian vault) can be named with ``--vault``. Derived data
goes to ``<vault>/.index/``, or, when the vault is read-only, to a per-vault folder
under the user cache (``$XDG_CACHE_HOME/rubi/indexes/``, default ``~/.cache``).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from rubi.config import INDEX_DIRNAME
from rubi.errors import VaultNotFoundError

__all__ = ["PROJECT_VAULT_DIRNAME", "VaultPaths", "cache_home", "find_vault"]

PROJECT_VAULT_DIRNAME = ".rubi"


def cache_home() -> Path:
    """``$XDG_CACHE_HOME/rubi`` (default ``~/.cache/rubi``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "rubi"


@dataclass(frozen=True, slots=True)
class VaultPaths:
    """The folders of one vault.

    Attributes:
        root: the vault folder (absolute).
        index_dir: where derived data lives.
        project_root: the folder holding ``.rubi/`` for a project vault, else None.
    """

    root: Path
    index_dir: Path
    project_root: Path | None = None

    @property
    def whoosh_dir(self) -> Path:
        return self.index_dir / "whoosh"

    @property
    def state_file(self) -> Path:
        return self.index_dir / "manifest.pickle"

    @property
    def notes_file(self) -> Path:
        return self.index_dir / "notes.pickle"

    @property
    def codemap_file(self) -> Path:
        return self.index_dir / "codemap.pickle"

    @property
    def codemap_cache(self) -> Path:
        return self.index_dir / "codemap-cache.json"

    @property
    def stale_cache(self) -> Path:
        return self.index_dir / "stale.pickle"

    @property
    def graph_file(self) -> Path:
        return self.index_dir / "graph.pickle"

    @property
    def lock_file(self) -> Path:
        return self.index_dir / "index.lock"


def _index_dir_for(root: Path) -> Path:
    local = root / INDEX_DIRNAME
    if local.is_dir() and os.access(local, os.W_OK):
        return local
    if not local.exists() and os.access(root, os.W_OK):
        return local
    slug = re.sub(r"[^A-Za-z0-9]+", "-", root.name).strip("-")[:40] or "vault"
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:12]
    return cache_home() / "indexes" / f"{slug}-{digest}"


def find_vault(vault: Path | str | None = None, cwd: Path | None = None) -> VaultPaths:
    """Locate the vault to work on.

    Args:
        vault: an explicit vault folder (``--vault``); None to search for ``.rubi/``
            from ``cwd`` upward.
        cwd: where to start the upward search (default: the current folder).

    Returns:
        The :class:`VaultPaths`.

    Raises:
        VaultNotFoundError: ``vault`` is not an existing folder, or no ``.rubi/`` is
            found above ``cwd``.
    """
    if vault is not None:
        root = Path(vault).expanduser()
        if not root.exists():
            raise VaultNotFoundError(f"{root}: no such folder; pass an existing vault folder")
        if not root.is_dir():
            raise VaultNotFoundError(f"{root}: not a folder; pass the vault folder, not a file")
        root = root.resolve()
        project = root.parent if root.name == PROJECT_VAULT_DIRNAME else None
        if (root / PROJECT_VAULT_DIRNAME).is_dir() and not any(root.glob("*.md")):
            # `--vault .` in a project: mean its .rubi/ vault.
            project, root = root, root / PROJECT_VAULT_DIRNAME
        return VaultPaths(root, _index_dir_for(root), project)
    start = (cwd or Path.cwd()).resolve()
    for folder in (start, *start.parents):
        candidate = folder / PROJECT_VAULT_DIRNAME
        if candidate.is_dir():
            return VaultPaths(candidate, _index_dir_for(candidate), folder)
    raise VaultNotFoundError(
        f"{start}: no {PROJECT_VAULT_DIRNAME}/ here or above; run `rubi init` or pass --vault PATH"
    )
