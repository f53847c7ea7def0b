"""The modules a cold hook imports, found and loaded from one kept file.

A cold recall hook imports about 160 modules from source files (rubi's, Whoosh's, the
standard library's). For each one Python's path finder walks ``sys.path`` (or the
package's ``__path__``) asking each folder's finder for the name, then the source
loader stats the source, opens, reads and checks its ``.pyc`` and unmarshals it:
about 800 system calls and the import system's own Python, 7–8 ms of the 100 ms of
CPU a cold recall costs at 6,900 notes (``docs/benchmarks-history.md``, "issue 29:
a cold UserPromptSubmit at 6.9k notes, the modules found and loaded from one file,
twenty-eighth pass").

:class:`KeptModules` is a meta path finder that a cold hook puts first
(:func:`install`, from :mod:`rubi.entry`). It answers for the modules its role's file
holds (:func:`cache_file`; each hook event keeps its own, as
:mod:`rubi.core.dataclasscode` does): the module's source file, whether it is a
package, the package path it was found in, the source's ``st_mtime_ns`` and size,
and the ``marshal`` bytes of the code the source loader ran for it. The spec it gives
is the one the path finder gives (``spec_from_file_location`` of the same file), its
loader a source loader (:class:`_KeptLoader`, a ``SourceFileLoader``) whose
``get_code`` returns the kept code instead of reading the ``.pyc``: the module is
the same, its ``__file__``, ``__cached__``, ``__path__`` and resource reading too.

When it answers, the answer is the one the path finder would give:

- the file's header names this interpreter (its bytecode tag, magic number and
  optimisation level), this process's ``sys.path`` (``''`` as the working folder)
  and the meta path finders' types; anything else and nothing is answered;
- every folder a kept module was searched in (each ``sys.path`` entry, each package
  folder) has the ``st_mtime_ns`` it had when the file was written: a file added,
  removed or renamed there (a module that would now shadow a kept one, as the path
  finder's own folder cache notices it) and nothing is answered;
- a kept module's source has its kept ``st_mtime_ns`` and size (the ``.pyc``'s own
  check, to the nanosecond), and it is asked for in the same package path; else
  that module is left to the other finders.

The file holds code that is run: it is read only when it is a regular file owned by
this user and writable by no one else (:func:`_map_trusted`, the checks of
:func:`rubi.core.dataclasscode.read_trusted`), mapped rather than read (no copy of the
2–3 MB: 1.4 ms of CPU less at load 13; rubi replaces it by renaming, never in place),
and a file that does not decode to the expected shapes answers nothing. It is
rebuildable: a hook that imported a module from source (none kept, or a kept one
stale) writes it again as it exits (:func:`save`), each module checked again first:
the folders stamped, then each module found afresh by the other finders (their
folder caches cleared) at the same file, its source stamped before and after its
code is read. Deleting the file costs the next hook its imports from source.
"""

from __future__ import annotations

import marshal
import mmap
import os
import sys
from _frozen_importlib_external import (
    MAGIC_NUMBER,
    ExtensionFileLoader,
    SourceFileLoader,
    spec_from_file_location,
)
from types import CodeType

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

__all__ = ["FORMAT", "MAX_MODULES", "KeptModules", "cache_file", "install", "save"]

FORMAT = 2
"""The file's layout: four bytes (little-endian) giving the length of the head, the
head (the ``marshal`` of ``(FORMAT, header, folders, modules)``: the header
:func:`_header`, folders ``{path: st_mtime_ns, or -1 when absent}``, modules ``{name:
(source path, is a package, package path or None, st_mtime_ns, size, start, end)}``),
then the ``marshal`` bytes of every kept module's code, ``start:end`` of them each
(unmarshalled only for the modules a process imports: the whole table of a cold
recall's 200 modules, 3 MB, took 2 ms to unmarshal); an extension module's are empty:
it is found from the file and loaded by its own loader."""

MAX_MODULES = 2000
"""Modules the file keeps at most (a cold recall imports about 160 from source)."""

_MAX_BYTES = 32 << 20
"""A file larger than this is not read (a cold recall's takes about 2 MB)."""

Entry = tuple[str, bool, "tuple[str, ...] | None", int, int, "bytes | memoryview"]
"""A kept module: source path, is a package, package path (None: top level),
``st_mtime_ns``, size, the ``marshal`` bytes of its code (empty: an extension module)."""


def cache_file(role: str = "") -> str:
    """Where ``role``'s modules are kept:
    ``<cache folder>/module-code-<tag>-f<FORMAT>-o<optimisation>-<role>-<path>.bin``
    (the tag: ``sys.implementation.cache_tag``; ``<path>``: :func:`_path_key` of this
    process's search path, so that the ``rubi`` script, ``python -m rubi`` in one
    project and in another keep a file each instead of rewriting one in turn)."""
    from rubi.core.cachefolder import cache_folder

    tag = f"{sys.implementation.cache_tag}-f{FORMAT}-o{sys.flags.optimize}"
    role = f"-{role}" if role else ""
    return os.path.join(cache_folder(), f"module-code-{tag}{role}-{_path_key()}.bin")


def _path_key() -> str:
    """Eight hex digits naming this process's search path (:func:`_search_path`): a
    32-bit FNV-1a hash of its entries (no hash module imported for it; the file's
    header holds the path itself, which is what is checked)."""
    h = 0x811C9DC5
    for byte in "\0".join(_search_path()).encode("utf-8", "surrogateescape"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def _search_path() -> tuple[str, ...]:
    """``sys.path`` as the path finder reads it: ``''`` is the working folder."""
    return tuple(entry or os.getcwd() for entry in sys.path if isinstance(entry, str))


def _header(path: tuple[str, ...]) -> tuple[Any, ...]:
    """What the kept modules were found and compiled for: this interpreter, the search
    path and the meta path finders' types."""
    finders = tuple(
        f"{type(f).__module__}.{type(f).__qualname__}"
        if not isinstance(f, type)
        else f.__qualname__
        for f in sys.meta_path
        if not isinstance(f, KeptModules)
    )
    return (sys.implementation.cache_tag, MAGIC_NUMBER, sys.flags.optimize, path, finders)


def _stamp(path: str) -> int:
    """``st_mtime_ns`` of ``path``, -1 when it cannot be read."""
    try:
        return os.stat(path).st_mtime_ns
    except (OSError, ValueError):
        return -1


class _KeptLoader(SourceFileLoader):
    """The source loader of one kept module, given its kept code: ``get_code`` returns
    that code (once), else reads the ``.pyc`` or the source as usual."""

    def __init__(self, fullname: str, path: str, code: bytes | memoryview | None) -> None:
        super().__init__(fullname, path)
        self._kept = code

    def get_code(self, fullname: str) -> CodeType:
        kept, self._kept = self._kept, None
        if kept is not None and fullname == self.name:
            try:
                code = marshal.loads(kept)
            except (EOFError, ValueError, TypeError):
                code = None
            if isinstance(code, CodeType):
                return code
        found: CodeType | None = super().get_code(fullname)
        if found is None:  # a source loader always has code; for the type checker
            raise ImportError(f"no code for {fullname}", name=fullname)
        return found


def _map_trusted(path: str, most: int) -> mmap.mmap | None:
    """The file at ``path`` mapped read-only when it is a regular file of 1 to ``most``
    bytes, owned by this user and writable by no one else (symlinks not followed:
    :func:`rubi.core.dataclasscode.open_trusted`, the one check); else None."""
    from rubi.core.dataclasscode import open_trusted

    fd = open_trusted(path, most)
    if fd is None:
        return None
    try:
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ)  # ValueError: an empty file
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def _decode(
    data: bytes | mmap.mmap | None, header: tuple[Any, ...]
) -> tuple[dict[str, int], dict[str, Entry]]:
    """The folders and modules of a file's ``data`` (:data:`FORMAT`) when it was
    written for ``header`` and every folder it names is as it was; else nothing. Each
    module's code is a view of ``data``, unmarshalled when the module is imported."""
    if not data or len(data) < 4:
        return {}, {}
    head = int.from_bytes(data[:4], "little") + 4
    try:
        kept = marshal.loads(memoryview(data)[4:head])
    except (EOFError, ValueError, TypeError):
        return {}, {}
    if not (isinstance(kept, tuple) and len(kept) == 4 and kept[0] == FORMAT):
        return {}, {}
    _, written_for, folders, index = kept
    if written_for != header or not isinstance(folders, dict) or not isinstance(index, dict):
        return {}, {}
    for folder, stamp in folders.items():
        if not isinstance(folder, str) or _stamp(folder) != stamp:
            return {}, {}
    codes = memoryview(data)[head:]
    modules: dict[str, Entry] = {}
    for name, entry in index.items():
        try:
            *found, start, end = entry
            if 0 <= start <= end <= len(codes):
                modules[name] = (*found, codes[start:end])
        except (TypeError, ValueError):
            continue
    return folders, modules


def _encode(header: tuple[Any, ...], folders: dict[str, int], modules: dict[str, Entry]) -> bytes:
    """The file's bytes (:data:`FORMAT`) for these folders and modules."""
    index, codes, at = {}, [], 0
    for name, (*found, code) in modules.items():
        codes.append(code)
        index[name] = (*found, at, at + len(code))
        at += len(code)
    head = marshal.dumps((FORMAT, header, folders, index))
    return b"".join([len(head).to_bytes(4, "little"), head, *codes])


class KeptModules:
    """A meta path finder (``importlib.abc.MetaPathFinder``'s protocol) answering for
    the modules of one kept file (see the module docstring).

    Args:
        path: the file; None keeps nothing (a finder that answers nothing).
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._search = _search_path()
        self._header = _header(self._search)
        data = _map_trusted(path, _MAX_BYTES) if path is not None else None
        self._folders, self._modules = _decode(data, self._header)
        self._before = frozenset(sys.modules)
        self._served: set[str] = set()
        self._off = False

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The kept module's spec, None for anything else (a name not kept, asked in
        another package path, or whose source changed)."""
        entry = self._modules.get(fullname)
        if entry is None or self._off:
            return None
        try:
            origin, package, parent, mtime, size, code = entry
            if (None if path is None else tuple(path)) != parent:
                return None
            st = os.stat(origin)
        except (OSError, TypeError, ValueError):
            return None
        if (
            st.st_mtime_ns != mtime
            or st.st_size != size
            or not isinstance(code, (bytes, memoryview))
        ):
            return None
        self._served.add(fullname)
        loader = (
            _KeptLoader(fullname, origin, code) if code else ExtensionFileLoader(fullname, origin)
        )
        return spec_from_file_location(
            fullname,
            origin,
            loader=loader,
            submodule_search_locations=[os.path.dirname(origin)] if package else None,
        )

    def invalidate_caches(self) -> None:
        """Nothing cached to drop (each answer stats its source)."""

    def _new(self) -> list[tuple[str, ModuleType]]:
        """The modules imported since this finder was made from a source file or an
        extension module's, kept or not."""
        found = []
        for name, module in list(sys.modules.items()):
            if name in self._before:
                continue
            spec = getattr(module, "__spec__", None)
            loader = getattr(spec, "loader", None)
            if type(loader) in _KEPT_LOADERS and isinstance(getattr(spec, "origin", None), str):
                found.append((name, module))
        return found

    def save(self) -> bool:
        """Write the file, atomically, when a module was imported from source since
        this finder was made: every module imported since from a source file, each
        checked again (see the module docstring), and the kept ones not imported this
        time when no folder changed. Never raises: a file that cannot be written is
        imported from source next time.

        Returns:
            Whether the file was written."""
        if self.path is None or self._search != _search_path():
            return False
        new = self._new()
        if all(name in self._served for name, _ in new):
            return False
        try:
            return self._write(new)
        except (OSError, ValueError, TypeError, ImportError):
            return False

    def _write(self, new: list[tuple[str, ModuleType]]) -> bool:
        from rubi.core.dataclasscode import write_trusted

        if self.path is None:
            return False
        parents = {name: _parent_path(name) for name, _ in new}
        folders = {p: _stamp(p) for p in self._search}
        for parent in parents.values():
            folders.update((p, _stamp(p)) for p in parent or ())
        for entry_finder in list(sys.path_importer_cache.values()):  # found afresh below
            if entry_finder is not None and hasattr(entry_finder, "invalidate_caches"):
                entry_finder.invalidate_caches()  # (not PathFinder's: 3.12's imports metadata)
        modules: dict[str, Entry] = {}
        self._off = True
        try:
            for name, module in new:
                entry = self._entry(name, module, parents[name])
                if entry is not None:
                    modules[name] = entry
        finally:
            self._off = False
        if self._unmoved(folders):  # the kept modules stay, their folders stamped too
            folders = {**self._folders, **folders}
            for name, entry in self._modules.items():
                if len(modules) >= MAX_MODULES:
                    break
                modules.setdefault(name, entry)
        header = self._header  # the finders as the next hook's install will see them
        write_trusted(self.path, _encode(header, folders, modules))
        self._folders, self._modules = folders, modules
        return True

    def _unmoved(self, folders: dict[str, int]) -> bool:
        """Whether every folder the file read holds, and every one of ``folders``
        (this run's, just stamped) that it holds, has its stamp still: then the file's
        modules this run did not import are kept, with their folders' stamps. A folder
        of a package no earlier run imported is not in the file and moves nothing: two
        kinds of hook in turn (a prompt naming code, one in Russian) dropped each
        other's modules, each importing its own from source and writing the file again
        every time; and a module kept without its folder's stamp was answered after a
        package of its name was made beside it."""
        old = self._folders
        return all(old.get(p, stamp) == stamp for p, stamp in folders.items()) and all(
            _stamp(p) == stamp for p, stamp in old.items() if p not in folders
        )

    def _entry(self, name: str, module: ModuleType, parent: tuple[str, ...] | None) -> Entry | None:
        """``module``'s entry, None when the other finders now find another file (or
        none), its source changed meanwhile or its code cannot be had."""
        spec = module.__spec__
        origin = getattr(spec, "origin", None)
        if spec is None or not isinstance(origin, str):
            return None
        found = _find_elsewhere(name, list(parent) if parent is not None else None)
        if found is None or found.origin != origin:
            return None
        if type(found.loader) not in (SourceFileLoader, ExtensionFileLoader):
            return None
        before = os.stat(origin)
        kept = self._modules.get(name)
        code: bytes | memoryview
        if type(found.loader) is ExtensionFileLoader:
            code = b""  # found only: its loader loads it
        elif (
            kept is not None
            and kept[0] == origin
            and (kept[3], kept[4]) == (before.st_mtime_ns, before.st_size)
        ):
            code = kept[5]  # as kept (a view of the file read)
        else:
            code = marshal.dumps(SourceFileLoader(name, origin).get_code(name))
        after = os.stat(origin)
        if (before.st_mtime_ns, before.st_size) != (after.st_mtime_ns, after.st_size):
            return None
        package = spec.submodule_search_locations is not None
        return (origin, package, parent, after.st_mtime_ns, after.st_size, code)


def _parent_path(name: str) -> tuple[str, ...] | None:
    """The package path ``name`` is searched in (its package's ``__path__``); None at
    the top level."""
    package, _, _ = name.rpartition(".")
    if not package:
        return None
    return tuple(getattr(sys.modules.get(package), "__path__", None) or ())


def _find_elsewhere(name: str, path: list[str] | None) -> ModuleSpec | None:
    """``name``'s spec from the meta path finders other than :class:`KeptModules`
    (each of which answers nothing while it writes)."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if isinstance(finder, KeptModules) or find is None:
            continue
        spec: ModuleSpec | None = find(name, path)
        if spec is not None:
            loader = getattr(spec.loader, "_loader", spec.loader)  # a wrapping loader's
            spec.loader = loader
            return spec
    return None


_KEPT_LOADERS = (SourceFileLoader, _KeptLoader, ExtensionFileLoader)
"""The loaders of the modules a file keeps (an extension module is found only)."""

_INSTALLED: KeptModules | None = None


def install(role: str = "") -> KeptModules:
    """Put a :class:`KeptModules` of ``role``'s file first on ``sys.meta_path`` (the
    one installed already when there is one)."""
    global _INSTALLED
    if _INSTALLED is None:
        _INSTALLED = KeptModules(cache_file(role))
        sys.meta_path.insert(0, _INSTALLED)
    return _INSTALLED


def save() -> bool:
    """Write the installed finder's file when this process imported a module from
    source (:meth:`KeptModules.save`); False when none is installed."""
    return _INSTALLED.save() if _INSTALLED is not None else False
