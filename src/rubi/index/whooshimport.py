"""Whoosh imported without two standard-library stacks it never uses here.

Whoosh's ``whoosh.compat`` binds ``urllib.request.urlretrieve`` (which nothing in
Whoosh calls), importing ``urllib.request`` and with it ``http.client``, ``email``
and ``ssl``; ``whoosh.reading`` takes its one ``@cached_property``
(``SegmentReader.deleted_docs_set``) from the ``cached_property`` package, which
imports ``asyncio`` to ask whether the property is a coroutine. Together 40–60 ms
of CPU in every process that reads the index, a third of Whoosh's own import, for
a cold recall hook that answers one prompt.

:func:`import_whoosh` imports those two Whoosh modules first, with a stand-in in
``sys.modules`` for just that import: a ``urlretrieve`` that imports the real one
when called, and the standard library's :func:`functools.cached_property` (the
same once-per-instance value in the instance's ``__dict__`` under the function's
name). The stand-ins are removed at once, so any later ``import urllib.request``
or ``import cached_property`` gets the real module; a module already imported is
used as it is. Run by ``rubi.index``'s package import, before any of its modules
imports Whoosh.

Four more modules Whoosh imports at its top and a search never uses (about 7 ms of
CPU a cold recall hook paid): ``calendar`` (and ``locale``, for date fields rubi's
schema does not have; ``whoosh.util.times``), ``queue`` (for Whoosh's multiprocess
writer; ``whoosh.compat``), ``html`` (and ``html.entities``, for highlighting;
``whoosh.compat.htmlescape``) get stand-ins that import the real module on first use
(:class:`_OnFirstUse`); ``hashlib`` (OpenSSL's ``_hashlib``), whose ``md5`` the
hashed term table (``whoosh.filedb.filetables``) calls for every term looked up,
gets the interpreter's built-in ``_md5.md5``: the same digest (RFC 1321) without
loading OpenSSL, as :mod:`rubi.core.digest` does for SHA-256.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

__all__ = ["import_whoosh"]


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    """``urllib.request.urlretrieve``, imported on the first call."""
    from urllib.request import urlretrieve

    return urlretrieve(*args, **kwargs)


class _OnFirstUse(ModuleType):
    """A module that imports the real one of its name on the first attribute asked
    of it (after the stand-in left ``sys.modules``) and answers from it."""

    def __getattr__(self, attr: str) -> Any:
        import importlib

        real = importlib.import_module(self.__name__)
        if real is self:  # asked while standing in: nothing is there yet
            raise AttributeError(attr)
        return getattr(real, attr)


def _escape(*args: Any, **kwargs: Any) -> Any:
    """``html.escape``, imported on the first call."""
    from html import escape

    return escape(*args, **kwargs)


def _md5() -> Any:
    """The built-in ``_md5.md5`` (``hashlib.md5`` where the interpreter lacks it)."""
    try:
        from _md5 import md5  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import md5
    return md5


def _stand_ins() -> dict[str, ModuleType]:
    from functools import cached_property

    request = ModuleType("urllib.request")
    request.urlretrieve = _urlretrieve  # type: ignore[attr-defined]
    package = ModuleType("cached_property")
    package.cached_property = cached_property  # type: ignore[attr-defined]
    html = _OnFirstUse("html")
    html.escape = _escape  # type: ignore[attr-defined]
    hashlib = _OnFirstUse("hashlib")
    hashlib.md5 = _md5()  # type: ignore[attr-defined]
    return {
        "urllib.request": request,
        "cached_property": package,
        "calendar": _OnFirstUse("calendar"),
        "queue": _OnFirstUse("queue"),
        "html": html,
        "hashlib": hashlib,
    }


def _one_thread() -> bool:
    """This process runs one thread (no ``threading`` thread was ever started, or all
    but the main one have ended): no other thread can import while the stand-ins are
    in ``sys.modules``."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def import_whoosh() -> None:
    """Import ``whoosh.compat``, ``whoosh.filedb.filetables`` and ``whoosh.reading``
    with the stand-ins (see the module docstring); nothing to do once they are
    imported. Only while the process
    runs one thread (a hook, a command): in a server another thread may import
    ``urllib.request`` meanwhile and would get the stand-in, so there Whoosh is
    imported as it is."""
    if "whoosh.reading" in sys.modules:
        return
    if not _one_thread():
        import whoosh.reading

        return
    placed = [n for n, mod in _stand_ins().items() if sys.modules.setdefault(n, mod) is mod]
    try:
        import whoosh.compat
        import whoosh.filedb.filetables
        import whoosh.reading  # noqa: F401
    finally:
        for name in placed:
            sys.modules.pop(name, None)
