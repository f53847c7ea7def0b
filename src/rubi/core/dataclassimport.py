"""``dataclasses`` imported without ``inspect`` until a class needs it.

The standard library's ``dataclasses`` imports ``inspect`` at its top, and ``inspect``
imports ``ast``, ``dis``, ``tokenize``, ``linecache`` and more: about 8 ms of CPU, a
fifth of what a cold tool hook costs above the interpreter's start. ``dataclasses``
calls it for one thing only: ``inspect.signature(cls)``, to write a docstring for a
class that has none (Python 3.11–3.13, ``dataclasses._process_class``). rubi's classes
have docstrings, so a hook never needs it.

:func:`import_dataclasses` imports ``dataclasses`` with a stand-in for ``inspect`` in
``sys.modules`` for just that import (:mod:`rubi.index.whooshimport` gives its
stand-ins to Whoosh's own modules instead, which is safe beside other threads): a
module whose first attribute look-up imports the real
``inspect`` and hands that to ``dataclasses`` from then on. The stand-in is removed at
once, so any later ``import inspect`` gets the real module. Nothing is done when
either module is imported already, or when another thread runs (it could import
``inspect`` meanwhile and get the stand-in). Called by the console script for a hook
(:mod:`rubi.entry`), before anything imports ``dataclasses``.

It also has ``dataclasses`` run the methods it writes from the compiled code kept in
the cache folder (:mod:`rubi.core.dataclasscode`) instead of compiling each text again.
"""

from __future__ import annotations

import sys
from types import ModuleType

from rubi.core.standin import import_with_stand_in, real_module

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["import_dataclasses"]


class _Inspect(ModuleType):
    """``inspect``, imported on the first attribute asked of it (then given to
    ``dataclasses`` in its place)."""

    def __getattr__(self, name: str) -> Any:
        real = real_module("inspect")  # never this stand-in (rubi.core.standin)
        dataclasses = sys.modules.get("dataclasses")
        if dataclasses is not None and getattr(dataclasses, "inspect", None) is self:
            dataclasses.inspect = real  # type: ignore[attr-defined]
        return getattr(real, name)


def import_dataclasses(role: str = "") -> None:
    """Import ``dataclasses`` with ``inspect`` deferred and its methods' code kept
    across processes (see the module docstring)."""
    if not import_with_stand_in("dataclasses", "inspect", _Inspect("inspect")):
        return
    import dataclasses

    from rubi.core.dataclasscode import install

    install(dataclasses, role=role)
