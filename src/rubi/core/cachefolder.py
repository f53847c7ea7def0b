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

__all__ = ["cache_folder", "cache_home"]


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
    (``platformdirs._xdg.xdg_dir``, ``expand_user``): an absolute ``$XDG_CACHE_HOME``,
    else ``~/.cache`` under an absolute ``$HOME``; anything else (another system, a
    relative or missing ``HOME``) asks platformdirs."""
    android = hasattr(sys, "getandroidapilevel") or (
        os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system"
    )
    if sys.platform == "linux" and not android:
        base = os.environ.get("XDG_CACHE_HOME", "")
        if not posixpath.isabs(base):
            home = os.environ.get("HOME", "")
            base = posixpath.expanduser("~/.cache") if posixpath.isabs(home) else ""
        if base:
            return posixpath.join(base, "rubi")
    from platformdirs import user_cache_dir

    return str(user_cache_dir("rubi", appauthor=False))
