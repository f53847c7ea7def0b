"""The user's rubi cache folder, named without importing anything heavy.

Its own module so that what runs before the rest of rubi is imported (the code cache
of :mod:`rubi.core.dataclasscode`, loaded before the first dataclass is made, and the
patterns' of :mod:`rubi.core.regexcode`, loaded when ``json`` compiles its first
pattern, before :mod:`rubi.core.pathlibimport` ran) can find it; :mod:`rubi.core.paths`
re-exports it. :func:`cache_folder` names it without importing ``pathlib``, whose
first import would bring ``urllib.parse`` and ``ipaddress`` in (2.3 ms of a hook).
"""

from __future__ import annotations

import os
import posixpath
import sys

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["cache_folder", "cache_home", "config_folder", "state_folder"]


def cache_home() -> Path:
    """:func:`cache_folder` as a ``Path``."""
    from pathlib import Path

    return Path(cache_folder())


def cache_folder() -> str:
    """The user's rubi cache folder (``platformdirs.user_cache_dir("rubi")``; on Linux
    ``$XDG_CACHE_HOME/rubi``, default ``~/.cache/rubi``).

    Every hook with a vault asks for it (the vault's derived-data folder is in it), and
    importing platformdirs on Linux imports ``tempfile`` and with it ``shutil``,
    ``random``, ``bz2`` and ``lzma``: about 7 ms of a tool hook's 45 ms of CPU. So on
    Linux the two usual cases are answered here, as platformdirs answers them
    (:func:`_xdg_folder`); anything else asks platformdirs."""
    return _folder("XDG_CACHE_HOME", "~/.cache", "user_cache_dir")


def config_folder() -> str:
    """The user's rubi config folder (``platformdirs.user_config_dir("rubi")``; on
    Linux ``$XDG_CONFIG_HOME/rubi``, default ``~/.config/rubi``), answered as
    :func:`cache_folder` is: a search asks whether the user config leaves the personal
    vault out, and importing platformdirs cost a server's first search 7 ms of CPU."""
    return _folder("XDG_CONFIG_HOME", "~/.config", "user_config_dir")


def state_folder() -> str:
    """The user's rubi state folder (``platformdirs.user_state_dir("rubi")``; on Linux
    ``$XDG_STATE_HOME/rubi``, default ``~/.local/state/rubi``), answered as
    :func:`cache_folder` is: ``rubi serve --http`` reads its bearer token there before
    it listens, and importing platformdirs cost that start 7 ms of CPU."""
    return _folder("XDG_STATE_HOME", "~/.local/state", "user_state_dir")


def _folder(variable: str, default: str, ask: str) -> str:
    """:func:`_xdg_folder`, else platformdirs' function named ``ask`` for ``rubi``."""
    found = _xdg_folder(variable, default)
    if found:
        return found
    import platformdirs

    return str(getattr(platformdirs, ask)("rubi", appauthor=False))


def _xdg_folder(variable: str, default: str) -> str:
    """``<$variable>/rubi`` for an absolute ``$variable``, else ``<default>/rubi``
    under an absolute ``$HOME``, on Linux (not Android), as platformdirs answers them
    (``platformdirs._xdg.xdg_dir``, ``expand_user``); "" for anything else (another
    system, a relative or missing ``HOME``): ask platformdirs."""
    android = hasattr(sys, "getandroidapilevel") or (
        os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system"
    )
    if sys.platform != "linux" or android:
        return ""
    base = os.environ.get(variable, "")
    if not posixpath.isabs(base):
        home = os.environ.get("HOME", "")
        base = posixpath.expanduser(default) if posixpath.isabs(home) else ""
    return posixpath.join(base, "rubi") if base else ""
