"""``pathlib`` imported without ``urllib.parse`` until a path is made a ``file:`` URI.

``pathlib`` binds ``urllib.parse.quote_from_bytes`` at its top for one method,
``Path.as_uri``, and ``urllib.parse`` imports ``ipaddress``: about 2.3 ms of CPU,
a fifteenth of what a cold tool hook costs above the interpreter's start, for a method
no hook calls. :func:`import_pathlib` imports ``pathlib`` with a stand-in for
``urllib.parse`` in ``sys.modules`` for just that import, as
:mod:`rubi.core.dataclassimport` does for ``inspect`` and
:mod:`rubi.index.whooshimport` for Whoosh's unused imports: a ``quote_from_bytes``
that imports the real one when called. The stand-in is removed at once, so any later
``import urllib.parse`` gets the real module. Nothing is done when either module is
imported already, or when another thread runs. Called by the console script for a
hook (:mod:`rubi.entry`), before anything imports ``pathlib``.
"""

from __future__ import annotations

from types import ModuleType

from rubi.core.standin import import_with_stand_in, real_module

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["import_pathlib"]


def _quote_from_bytes(*args: Any, **kwargs: Any) -> Any:
    """``urllib.parse.quote_from_bytes``, imported on the first call
    (:func:`rubi.core.standin.real_module`: never the stand-in's own)."""
    return real_module("urllib.parse").quote_from_bytes(*args, **kwargs)


def import_pathlib() -> None:
    """Import ``pathlib`` with ``urllib.parse`` deferred (see the module docstring)."""
    stand_in = ModuleType("urllib.parse")
    stand_in.quote_from_bytes = _quote_from_bytes  # type: ignore[attr-defined]
    import_with_stand_in("pathlib", "urllib.parse", stand_in)
