"""Whoosh imported without two standard-library stacks it never uses here.

Whoosh's ``whoosh.compat`` binds ``urllib.request.urlretrieve`` (which nothing in
Whoosh calls), importing ``urllib.request`` and with it ``http.client``, ``email``
and ``ssl``; ``whoosh.reading`` takes its one ``@cached_property``
(``SegmentReader.deleted_docs_set``) from the ``cached_property`` package, which
imports ``asyncio`` to ask whether the property is a coroutine. Together 40–60 ms
of CPU in every process that reads the index, a third of Whoosh's own import, for
a cold recall hook that answers one prompt.

:func:`import_whoosh` installs a meta path finder for ``whoosh`` that gives
stand-ins to the import statements of every Whoosh module loaded from then on (their
own ``__import__``), never placed in
``sys.modules``: a ``urlretrieve`` that imports the real one when called, and the
standard library's :func:`functools.cached_property` (the same once-per-instance
value in the instance's ``__dict__`` under the function's name). Any other import of
``urllib.request`` or ``cached_property``, later or in another thread at the same
time (a server's), gets the real module; a module already imported is used as it
is. Run by ``rubi.index``'s package import, before any of its modules imports
Whoosh. (Stand-ins placed in ``sys.modules`` for the import could only be used
while one thread ran: a server imported the whole stacks with its first search.)

Four more modules Whoosh imports at its top and a search never uses (about 7 ms of
CPU a cold recall hook paid): ``calendar`` (and ``locale``, for date fields rubi's
schema does not have; ``whoosh.util.times``), ``queue`` (for Whoosh's multiprocess
writer; ``whoosh.compat``), ``html`` (and ``html.entities``, for highlighting;
``whoosh.compat.htmlescape``) get stand-ins that import the real module on first use
(:class:`_OnFirstUse`); ``hashlib`` (OpenSSL's ``_hashlib``), whose ``md5`` the
hashed term table (``whoosh.filedb.filetables``) calls for every term looked up,
gets the interpreter's built-in ``_md5.md5``: the same digest (RFC 1321) without
loading OpenSSL, as :mod:`rubi.core.digest` does for SHA-256.

Three more get :class:`_OnFirstUse` stand-ins (about 1.5–2 ms of a cold recall's CPU):
``tempfile`` (with ``shutil``, ``bz2``, ``lzma`` and ``random``; ``whoosh.filedb.filestore``
calls ``tempfile.gettempdir`` only to make a temporary storage, which a search never
does), ``random`` (and ``_sha512``; ``whoosh.util``'s random names and bytes, for
writers' segment names) and ``shutil`` (``whoosh.filedb.compound`` copies files with
its ``copyfileobj`` only when it assembles a compound segment, a writer's work).
Last, two of Whoosh's word-level algorithms its analysis module binds and rubi's
analysis never runs (its own chains stem through Snowball): the Porter stemmer
(``whoosh.lang.porter``, a dozen patterns compiled at import) and the Double
Metaphone (``whoosh.lang.dmetaphone``), about 1.3 ms together; their stand-ins hold
functions that import the real module on their first call.

And the Snowball package (``whoosh.lang.snowball``), whose ``__init__`` imports all
fourteen of Whoosh's pure-Python Snowball ports to fill its ``classes`` table, where
rubi stems with two of them (English and Russian, :mod:`rubi.index.stemming`; every
other language through PyStemmer, :func:`rubi.index.snowball.stemmer`): about 4 ms of a
cold recall's CPU on its ``from .danish import DanishStemmer`` lines. The package's own
relative imports of a language module not loaded yet get a stand-in whose class is a
function that imports the real module on its first call and makes an instance of the
real class (what ``whoosh.lang.stemmer_for_language`` does with it:
``classes[lang]().stem``). The package's names for the classes stay those functions;
the modules themselves (``whoosh.lang.snowball.danish``) are the real ones.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Mapping, Sequence
from types import ModuleType

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from typing import Any

__all__ = ["import_whoosh"]


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    """``urllib.request.urlretrieve``, imported on the first call."""
    from urllib.request import urlretrieve

    return urlretrieve(*args, **kwargs)


class _OnFirstUse(ModuleType):
    """A module that imports the real one of its name on the first attribute asked
    of it (stand-ins never enter ``sys.modules``) and answers from it."""

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


def _copyfileobj(*args: Any, **kwargs: Any) -> Any:
    """``shutil.copyfileobj``, imported on the first call."""
    from shutil import copyfileobj

    return copyfileobj(*args, **kwargs)


def _lazy_functions(module: str, *names: str) -> ModuleType:
    """A stand-in for ``module`` whose ``names`` are functions that import the real
    module on their first call and call its function (or class) of that name."""
    stand_in = _OnFirstUse(module)
    for name in names:

        def call(*args: Any, _name: str = name, **kwargs: Any) -> Any:
            import importlib

            return getattr(importlib.import_module(module), _name)(*args, **kwargs)

        call.__name__ = call.__qualname__ = name
        setattr(stand_in, name, call)
    return stand_in


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
    shutil = _OnFirstUse("shutil")
    shutil.copyfileobj = _copyfileobj  # type: ignore[attr-defined]
    return {
        "urllib.request": request,
        "cached_property": package,
        "calendar": _OnFirstUse("calendar"),
        "queue": _OnFirstUse("queue"),
        "html": html,
        "hashlib": hashlib,
        "tempfile": _OnFirstUse("tempfile"),
        "random": _OnFirstUse("random"),
        "shutil": shutil,
        "whoosh.lang.porter": _lazy_functions("whoosh.lang.porter", "stem"),
        "whoosh.lang.dmetaphone": _lazy_functions("whoosh.lang.dmetaphone", "double_metaphone"),
    }


class _WhooshLoader:
    """A Whoosh module's own loader, run with :func:`_import` as the module's
    ``__import__``: its import statements get the stand-ins, nothing else does. The
    module's ``__loader__`` and ``__spec__.loader`` are the real loader's again before
    its code runs (``pkgutil``, ``inspect`` and resource readers see a plain module)."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        module.__dict__["__builtins__"] = _BUILTINS
        self._loader.exec_module(module)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._loader, attr)


class _WhooshFinder:
    """A meta path finder (``importlib.abc.MetaPathFinder``'s protocol; that module
    imports ``importlib.resources``): finds ``whoosh`` and its modules as the other
    finders do, and has each run by a :class:`_WhooshLoader`; any other name is left to
    the other finders."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "whoosh" and not fullname.startswith("whoosh."):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec: ModuleSpec | None = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _WhooshLoader(spec.loader)  # type: ignore[assignment]
                return spec
        return None


_SNOWBALL = "whoosh.lang.snowball"
"""The package whose relative imports of its language modules get stand-ins."""

_STAND_INS: dict[str, ModuleType] = {}
"""The stand-ins by module name, made on the first :func:`import_whoosh`."""


def _import(
    name: str,
    globals: Mapping[str, Any] | None = None,
    locals: Mapping[str, Any] | None = None,
    fromlist: Sequence[str] | None = (),
    level: int = 0,
) -> ModuleType:
    """``__import__`` for the Whoosh modules :func:`import_whoosh` loads: a stand-in
    for a name of :data:`_STAND_INS` not imported yet, else the real import."""
    stand_in = _STAND_INS.get(name) if level == 0 and name not in sys.modules else None
    if stand_in is not None and (fromlist or "." not in name):
        return stand_in
    if level == 1 and fromlist and globals is not None and globals.get("__name__") == _SNOWBALL:
        module = f"{_SNOWBALL}.{name}"
        if module not in sys.modules:  # one language's port: its classes made on first use
            return _lazy_functions(module, *fromlist)
    return builtins.__import__(name, globals, locals, fromlist or (), level)


_BUILTINS: dict[str, Any] = {**builtins.__dict__, "__import__": _import}
"""The builtins of a Whoosh module loaded by :class:`_WhooshLoader`."""


def import_whoosh() -> None:
    """Have every Whoosh module this process loads get the stand-ins (see the module
    docstring) and import what the query analysis needs (``whoosh.compat``,
    ``whoosh.analysis``); nothing to do the second time. The reading and writing
    stacks (``whoosh.reading``, ``whoosh.codec.whoosh3``, ``whoosh.filedb``,
    ``whoosh.fields``) load when first imported, with the stand-ins too: a process
    that reads the index without Whoosh (:mod:`rubi.index.segmentfiles`) never loads
    them. The stand-ins never enter ``sys.modules``: each Whoosh module loaded gets
    them through its own ``__import__`` (:class:`_WhooshFinder`, kept first on
    ``sys.meta_path``; it answers for ``whoosh`` names only), so another thread
    importing ``urllib.request`` or ``queue`` at the same time (a server's) gets the
    real module, and a server's first search pays no more than a hook's."""
    if not _STAND_INS:
        _STAND_INS.update(_stand_ins())
    if not any(isinstance(f, _WhooshFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _WhooshFinder())
    import whoosh.analysis
    import whoosh.compat  # noqa: F401
