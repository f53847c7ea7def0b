"""The user's own settings: ``config.toml`` in the user config folder.

``platformdirs.user_config_dir("rubi")`` (on Linux ``$XDG_CONFIG_HOME/rubi``, default
``~/.config/rubi``). Settings that name a path outside the project (the personal
vault) come only from here or the environment, never from a project's
``.rubi/config.toml``: that file arrives with ``git clone`` and must not be able to
point rubi at a folder of the user's (to index it, return its notes, or write there).

```toml
personal_vault = "~/notes/rubi"   # the personal vault (env RUBI_VAULT wins)
```
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

__all__ = ["USER_PATH_SETTINGS", "user_config_file", "user_settings"]

log = logging.getLogger(__name__)

USER_PATH_SETTINGS = ("personal_vault",)
"""Keys honoured only in the user config: a project's config.toml naming them is ignored
(and ``rubi doctor`` says so)."""

MAX_CONFIG_BYTES = 256_000
"""A config file larger than this is not a config file; it is not read."""


def user_config_file() -> Path:
    """Where the user config lives (it may not exist)."""
    from rubi.core.cachefolder import config_folder

    return Path(config_folder()) / "config.toml"


def user_settings() -> dict[str, Any]:
    """The user config as a table; empty when absent or unreadable (one warning)."""
    path = user_config_file()
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("%s: unreadable (%s); using defaults", path, exc.strerror)
        return {}
    if len(data) > MAX_CONFIG_BYTES:
        log.warning("%s: larger than %d bytes; not read", path, MAX_CONFIG_BYTES)
        return {}
    import tomllib  # only for a config there (about 2 ms of a first search)

    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        log.warning("%s: not valid TOML (%s); using defaults", path, exc)
        return {}
