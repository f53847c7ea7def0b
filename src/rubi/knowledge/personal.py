"""The personal vault: preferences and knowledge that follow a person across projects.

Location: ``$RUBI_VAULT``, else ``personal_vault`` in the user config
(:mod:`rubi.knowledge.userconfig`), else ``~/rubi-vault/personal``. Never from a project's
``.rubi/config.toml``: a cloned repository must not choose which of the user's folders
rubi indexes and writes into. Created on first write; searched together with the
project vault, its ids prefixed ``personal:`` (:func:`rubi.search.merge.merge_personal`
ranks it below the project), unless ``personal = false`` in the user config or the
project's ``.rubi/config.toml`` leaves it out of searches (:func:`personal_searched`;
turning it off is the one personal setting a project may make).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from rubi.core.model import ScanWarning
from rubi.core.paths import VaultPaths, find_vault
from rubi.knowledge.userconfig import USER_PATH_SETTINGS, user_config_file, user_settings

__all__ = [
    "DEFAULT_PERSONAL_VAULT",
    "PERSONAL_PREFIX",
    "ignored_project_settings",
    "personal_paths",
    "personal_root",
    "personal_searched",
]

log = logging.getLogger(__name__)

PERSONAL_PREFIX = "personal:"
DEFAULT_PERSONAL_VAULT = Path("~/rubi-vault/personal")


def personal_root(project: VaultPaths | None = None) -> Path:
    """Where the personal vault is (it may not exist yet): ``$RUBI_VAULT``, else the
    user config's ``personal_vault``, else :data:`DEFAULT_PERSONAL_VAULT`. ``project``
    is accepted for symmetry and never consulted (see the module docstring)."""
    env = os.environ.get("RUBI_VAULT")
    if env:
        return Path(env).expanduser()
    value = user_settings().get("personal_vault")
    if isinstance(value, str) and value.strip():
        return Path(value).expanduser()
    return DEFAULT_PERSONAL_VAULT.expanduser()


def ignored_project_settings(project: VaultPaths) -> list[ScanWarning]:
    """Path settings in the project's ``config.toml`` that rubi ignores, one warning
    each (for ``rubi doctor``)."""
    import tomllib  # a search never reads this: it loads typing (about 2 ms)

    from rubi.core.safeio import UnsafeFileError, allowed_root, read_text
    from rubi.knowledge.userconfig import MAX_CONFIG_BYTES

    allowed, where = allowed_root(project.root, project.project_root)
    try:  # a regular file inside the project, bounded (a FIFO would hang `rubi doctor`)
        text = read_text(allowed, project.root / "config.toml", limit=MAX_CONFIG_BYTES, where=where)
        table = tomllib.loads(text)
    except (OSError, UnsafeFileError, tomllib.TOMLDecodeError):
        return []
    return [
        ScanWarning(
            "config.toml",
            f"{key} is ignored in a project's config (a cloned repository must not choose "
            f"the user's folders); set it in {user_config_file()} or the environment",
        )
        for key in USER_PATH_SETTINGS
        if key in table
    ]


def personal_searched(project: VaultPaths | None) -> bool:
    """Whether searches include the personal vault: False when ``personal = false`` is
    set in the user config or in ``project``'s ``config.toml`` (an unreadable project
    config counts as unset; ``rubi doctor`` reports it)."""
    if user_settings().get("personal") is False:
        return False
    if project is None:
        return True
    from rubi.core.projectconfig import read_config

    table, _ = read_config(project.root, project.project_root)
    return table.get("personal") is not False


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
    # Opened whoever owns it, as a `--vault` is: the user named it (RUBI_VAULT or the
    # user config, never a project's config.toml), or it is under their home (the
    # default), where no other user can make it. The walk's owner check
    # (rubi.core.paths.walked_vault) is for a folder found above the working folder.
    return find_vault(root)
