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

A stand-in asked for an attribute during that import (an import hook reading the
module then, or a thread ``threading`` does not count) must not import the real module
by name: ``sys.modules`` still holds the stand-in, which would answer for itself until
the recursion limit. :func:`real_module` takes the stand-in out first.
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["import_with_stand_in", "one_thread", "real_module"]

_STANDING: dict[str, ModuleType] = {}
"""Each deferred module's stand-in while it is in ``sys.modules``."""


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
    _STANDING[deferred] = stand_in
    sys.modules[deferred] = stand_in
    try:
        __import__(module)
    finally:
        if sys.modules.get(deferred) is stand_in:
            sys.modules.pop(deferred, None)
        _STANDING.pop(deferred, None)
    return True


def real_module(name: str) -> ModuleType:
    """The real module ``name`` (imported now if it is not), never its stand-in: one
    still in ``sys.modules`` (its first use came during the import it stands in for)
    is taken out first."""
    current = sys.modules.get(name)
    if current is not None and current is _STANDING.get(name):
        sys.modules.pop(name, None)
    __import__(name)
    return sys.modules[name]
