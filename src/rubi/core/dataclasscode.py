"""The methods ``dataclasses`` writes for each class, compiled once and kept.

``@dataclass`` writes the source of a class's ``__init__``, ``__repr__``, ``__eq__``,
``__setattr__`` and the rest as text and compiles it with ``exec``, for every class,
in every process: 75–80% of the cost of making a dataclass. A cold recall hook at
6,334 notes makes 39 of them (216 ``exec`` calls, 18 ms of CPU compiling), a Stop or
SessionEnd hook 8–9 (5 ms): a fifth of what those hooks cost above the interpreter's
start.

:class:`CodeCache` stands in for ``exec`` inside the ``dataclasses`` module (a module
global of that name shadows the builtin there, and nowhere else): a source text it
has compiled before is run from the code object kept for it, anything else is
compiled as ``dataclasses`` compiles it (``compile(text, "<string>", "exec")``, no
``__future__`` flag inherited) and kept. The code objects live in one file in the
user's cache folder, :func:`cache_file` (``marshal``, named after the interpreter's
bytecode tag: another Python never reads it), loaded once per process (each text's
code decoded when it is first asked for) and written
again, atomically, by a process that compiled something new (:func:`save`). The
same text compiles to the same code, so the classes are the ones ``exec`` makes:
the cache changes when a class is made, never what it is.

The file holds code that is run: it is read only when it is a regular file owned by
this user and writable by no one else, as every derived file rubi loads
(:func:`rubi.core.picklefiles.check_trusted`); a file that is not, or that does not
decode to a table of texts and code objects, is ignored (and replaced by the next
write). It is rebuildable: deleting it costs the next hooks their compiles.

Installed by :func:`rubi.core.dataclassimport.import_dataclasses` for a hook process.
"""

from __future__ import annotations

import builtins
import marshal
import os
import stat
import sys
from types import CodeType

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any, BinaryIO

__all__ = [
    "FORMAT",
    "MAX_ENTRIES",
    "CodeCache",
    "cache_file",
    "install",
    "read_trusted",
    "save",
    "write_trusted",
]

FORMAT = 2
"""The layout of the file: a ``marshal``-ed dict ``{source text: the marshal bytes of
its code object}`` (a process decodes the code of the texts it runs only: loading the
whole table of a user's hooks, about 250 texts, took 1.2 ms, the texts alone 0.3); in
its name, with the interpreter's bytecode tag and optimisation level."""

MAX_ENTRIES = 4000
"""Source texts the file keeps at most. Texts of classes rubi no longer makes (after
an upgrade) stay until then; beyond it the file keeps only what the writing process
used."""

_MAX_BYTES = 8 << 20
"""A file larger than this is not read (a few hundred entries take about 100 KB)."""


def cache_file(role: str = "") -> Path:
    """Where the compiled methods are kept: ``<cache folder>/dataclass-code-<tag>.bin``
    (the tag: ``sys.implementation.cache_tag``, the format and the optimisation
    level), ``-<role>`` before ``.bin`` for a role (:func:`rubi.core.regexcode.role_of`:
    each hook event keeps its own file)."""
    from rubi.core.cachefolder import cache_home

    tag = f"{sys.implementation.cache_tag}-f{FORMAT}-o{sys.flags.optimize}"
    return cache_home() / f"dataclass-code-{tag}{'-' + role if role else ''}.bin"


def open_trusted(path: str | os.PathLike[str], most: int = _MAX_BYTES) -> int | None:
    """An open read-only descriptor of ``path`` when it is a regular file of at most
    ``most`` bytes, owned by this user and writable by no one else (symlinks not
    followed, a FIFO not waited on); else None. The caller closes it. The one check of
    every kept-code file (:func:`read_trusted`, :mod:`rubi.core.modulecode`)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        trusted = stat.S_ISREG(st.st_mode) and st.st_size <= most
        getuid = getattr(os, "getuid", None)
        if trusted and getuid is not None:
            trusted = st.st_uid == getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    except OSError:
        trusted = False
    if not trusted:
        os.close(fd)
        return None
    return fd


def read_trusted(path: str | os.PathLike[str], most: int = _MAX_BYTES) -> bytes | None:
    """The file's bytes when :func:`open_trusted` trusts it; else None (also the reader
    of :mod:`rubi.core.regexcode`)."""
    fd = open_trusted(path, most)
    if fd is None:
        return None
    try:
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def write_trusted(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically as the user's alone (0600, whatever the
    umask: a file the group may write would never be read back by
    :func:`read_trusted`), its folder made first.

    Raises:
        OSError: the folder or the file cannot be written."""
    from pathlib import Path  # a write is rare: pathlib is imported by then

    from rubi.core.atomic import atomic_write_stream

    def write(fh: BinaryIO) -> None:
        fh.write(data)

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_stream(target, write, mode=0o600)


def _decode(data: bytes) -> dict[str, bytes]:
    """The table in ``data``; empty when it is not a dict of texts to bytes."""
    try:
        table = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, bytes)}


def _code_of(raw: bytes | None) -> CodeType | None:
    """The code object ``raw`` holds (``marshal``), None when it holds none."""
    if raw is None:
        return None
    try:
        code = marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


class CodeCache:
    """Compiled code of source texts, by text (see the module docstring).

    Args:
        path: the file to load from and :meth:`save` to; None: nothing is read or
            written (the table lives in this process only), unless ``where`` names it.
        where: called for the file's path when the first text is asked for (a hook
            the engine answers makes no class, and never looks for the file).
    """

    def __init__(
        self, path: Path | None = None, *, where: Callable[[], Path] | None = None
    ) -> None:
        self.path = path
        self._where = where
        self._loaded: dict[str, bytes] | None = None
        self._used: dict[str, CodeType] = {}
        self.compiled = 0
        """Texts compiled in this process (not found in the file)."""

    def _table(self) -> dict[str, bytes]:
        if self._loaded is None:
            self._loaded = {}  # a class made while the path is found compiles anew
            if self.path is None and self._where is not None:
                self.path = self._where()
            data = read_trusted(self.path) if self.path is not None else None
            self._loaded = _decode(data) if data else {}
        return self._loaded

    def code(self, source: str) -> CodeType:
        """The code of ``source``, compiled as ``exec`` compiles a text in a module
        without ``__future__`` imports (the way ``dataclasses`` runs it)."""
        found = self._used.get(source)
        if found is None:
            found = _code_of(self._table().get(source))
            if found is None:
                found = compile(source, "<string>", "exec", dont_inherit=True)
                self.compiled += 1
            self._used[source] = found
        return found

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """``exec(source, globals, locals)``, a text run from its kept code."""
        if type(source) is str:
            source = self.code(source)
        builtins.exec(source, globals, locals)

    def save(self) -> bool:
        """Write the file, atomically, when this process compiled a text the file did
        not hold: what it held and what this process used (only the latter beyond
        :data:`MAX_ENTRIES`). Never raises: a cache that cannot be written is
        compiled again next time.

        Returns:
            Whether the file was written."""
        if not self.compiled or self.path is None:
            return False
        try:
            used = {text: marshal.dumps(code) for text, code in self._used.items()}
            table = {**self._table(), **used}
            if len(table) > MAX_ENTRIES:
                table = used
            write_trusted(self.path, marshal.dumps(table))
        except (OSError, ValueError):
            return False
        self._loaded = table
        self.compiled = 0
        return True


_INSTALLED: CodeCache | None = None


def install(dataclasses: Any, cache: CodeCache | None = None, role: str = "") -> CodeCache:
    """Have the ``dataclasses`` module compile through ``cache`` (a new one over
    :func:`cache_file` of ``role``, looked for when the first class is made, when None)
    from now on; the one installed already when there is one."""
    global _INSTALLED
    if _INSTALLED is None:
        if cache is None:
            cache = CodeCache(where=lambda: cache_file(role))
        _INSTALLED = cache
        dataclasses.exec = _INSTALLED.exec
    return _INSTALLED


def save() -> bool:
    """Write the installed cache's file when it compiled something new
    (:meth:`CodeCache.save`); False when none is installed."""
    return _INSTALLED.save() if _INSTALLED is not None else False
