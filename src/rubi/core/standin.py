"""A module imported with one of its own imports replaced by a stand-in, for that
import only.

A few standard modules a cold hook or a starting server imports bind, at their top,
another module they need for one rarely used call: ``pathlib`` binds ``urllib.parse``
(``Path.as_uri``), ``dataclasses`` binds ``inspect`` (a docstring for a class without
one), ``logging`` binds ``traceback`` (a record's traceback). :func:`import_with_stand_in`
puts a stand-in for the second module into ``sys.modules`` for the first one's import
and removes it at once, so any later import of that name gets the real module; the
stand-in imports the real one when it is first used (:mod:`rubi.core.pathlibimport`,
:mod:`rubi.core.dataclassimport`, :mod:`rubi.core.loggingimport` make theirs).
Nothing is done when either module is imported already, or when another thread runs
(it could import the deferred module meanwhile and get the stand-in).
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["import_with_stand_in", "one_thread"]


def one_thread() -> bool:
    """No ``threading`` thread but the main one runs (or none was ever started)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def import_with_stand_in(module: str, deferred: str, stand_in: ModuleType) -> bool:
    """Import the top-level ``module`` with ``stand_in`` as ``sys.modules[deferred]``
    during that import only.

    Returns:
        True when ``module`` was imported so; False when nothing was done (``module``
        or ``deferred`` imported already, or another thread runs).
    """
    if module in sys.modules or deferred in sys.modules or not one_thread():
        return False
    sys.modules[deferred] = stand_in
    try:
        __import__(module)
    finally:
        if sys.modules.get(deferred) is stand_in:
            del sys.modules[deferred]
    return True
