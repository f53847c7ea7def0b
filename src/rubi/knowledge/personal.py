"""The personal vault: preferences and knowledge that follow a person across projects.

Location: ``$RUBI_VAULT``, else ``personal_vault`` in the project's
``.rubi/config.toml``, else ``~/rubi-vault/personal``. Created on first write; searched
together with the project vault, its ids prefixed ``personal:``.
"""

from __future__ import annotations

import logging
import os
import tomllib
from pathlib import Path

from rubi.paths import VaultPaths, find_vault

__all__ = ["DEFAULT_PERSONAL_VAULT", "PERSONAL_PREFIX", "personal_paths", "personal_root"]

log = logging.getLogger(__name__)

PERSONAL_PREFIX = "personal:"
DEFAULT_PERSONAL_VAULT = Path("~/rubi-vault/personal")


def personal_root(project: VaultPaths | None = None) -> Path:
    """Where the personal vault is (it may not exist yet)."""
    env = os.environ.get("RUBI_VAULT")
    if env:
        return Path(env).expanduser()
    if project is not None:
        config = project.root / "config.toml"
        try:
            value = tomllib.loads(config.read_text(encoding="utf-8")).get("personal_vault")
        except FileNotFoundError:
            value = None
        except (OSError, tomllib.TOMLDecodeError) as exc:
            log.warning("%s: unreadable (%s); using the default personal vault", config, exc)
            value = None
        if isinstance(value, str) and value.strip():
            return Path(value).expanduser()
    return DEFAULT_PERSONAL_VAULT.expanduser()


def personal_paths(project: VaultPaths | None = None, *, create: bool = False) -> VaultPaths | None:
    """The personal vault's paths; None when it does not exist and ``create`` is False.

    Raises:
        OSError: it cannot be created.
    """
    root = personal_root(project)
    if not root.is_dir():
        if not create:
            return None
        (root / "notes").mkdir(parents=True, exist_ok=True)
        (root / ".gitignore").write_text(".index/\n", encoding="utf-8")
    if project is not None and root.resolve() == project.root.resolve():
        return None  # the same folder: nothing extra to search
    return find_vault(root)
