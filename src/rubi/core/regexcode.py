"""The regular expressions a process compiles, compiled once and kept.

``re.compile`` parses a pattern and writes the matcher's code for it (``re._parser``,
``re._compiler``, pure Python) in every process that asks for it: a cold recall hook
compiles about 65 patterns (rubi's, Whoosh's analysers and stemmers, the secret
patterns its output is checked against: 5.3 ms of CPU at 6,400 notes), numpy's
import some 80 more, a tool hook a dozen.

:class:`RegexCache` stands in for ``re._compiler.compile``, which ``re`` calls for a
pattern its own cache of the process does not hold: a ``str`` or ``bytes`` pattern
with flags it has compiled before is handed to ``_sre.compile`` with the code kept
for it (what ``re._compiler.compile`` hands it: the final flags, the code, the group
count and the group names), anything else is compiled as ``re._compiler.compile``
compiles it and kept. The same pattern and flags give the same code, so the patterns
are the ones ``re`` makes (they compare equal: ``Pattern.__eq__`` compares the code);
``_sre.compile`` validates the code it is given, and a record it refuses is compiled
anew. The records live in one file in the user's cache folder, :func:`cache_file`
(``marshal``, named after the interpreter's bytecode tag and ``_sre.MAGIC``: another
Python never reads it), loaded once per process when the first pattern is compiled
(each record decoded when it is first asked for) and written again, atomically, by a
process that compiled something new (:func:`save`).

The file is read only when it is a regular file owned by this user and writable by no
one else (:func:`rubi.core.dataclasscode.read_trusted`); a file that does not decode to
a table of patterns and records is ignored (and replaced by the next write). It is
rebuildable: deleting it costs the next processes their compiles.

Installed for a hook process and a command by :mod:`rubi.entry`, and for a bare
``rubi serve`` by :mod:`rubi.cli.servebare` (saved at its exit), on the interpreters
whose ``re._compiler.compile`` is the one this module writes records for (CPython
3.11 to 3.13); elsewhere :func:`install` leaves ``re`` as it is.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # re's engine, loaded with re
import marshal
import os
import sys

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Where = str | os.PathLike[str]

__all__ = ["FORMAT", "MAX_ENTRIES", "RegexCache", "cache_file", "install", "role_of", "save"]

FORMAT = 2
"""The layout of the file: a ``marshal``-ed dict ``{key: the marshal bytes of (final
flags, code, groups - 1, group index, index group)}``, the key ``(pattern, flags)`` of
a ``str`` pattern, ``(flags, pattern)`` of a ``bytes`` one (:func:`_key`)."""

MAX_ENTRIES = 2000
"""Patterns the file keeps at most; beyond it the file keeps only what the writing
process compiled or used."""

_MAX_BYTES = 16 << 20
"""A file larger than this is not read."""

_DEBUG = 128
"""``re.DEBUG`` (``SRE_FLAG_DEBUG``) as a plain int: ``flags & re.DEBUG`` on an int is
``RegexFlag.__rand__``, Python code that makes a flag of the result, for every pattern
compiled (checked by the tests against ``re.DEBUG``)."""

_VERSIONS = ((3, 11), (3, 12), (3, 13))
"""Interpreters whose ``re._compiler.compile`` hands ``_sre.compile`` what the records
hold (checked by the tests against ``re.compile`` itself)."""


def cache_file(role: str = "") -> str:
    """Where the records are kept: ``<cache folder>/regex-code-<tag>.bin`` (the tag:
    ``sys.implementation.cache_tag``, the interpreter's full version, ``_sre.MAGIC``,
    ``_sre.CODESIZE`` and the format: ``re``'s compiler may write other code for a
    pattern in a bug-fix release, which keeps the magic number). Named without
    ``pathlib``: ``json``'s import asks for it, before :mod:`rubi.core.pathlibimport`
    imports ``pathlib`` without ``urllib.parse``."""
    from rubi.core.cachefolder import cache_folder

    version = f"{sys.implementation.cache_tag}-v{sys.hexversion:x}"
    tag = f"{version}-m{_sre.MAGIC}-c{_sre.CODESIZE}-f{FORMAT}"
    return os.path.join(cache_folder(), f"regex-code-{tag}{'-' + role if role else ''}.bin")


def role_of(event: str) -> str:
    """The role whose code files (this module's and :mod:`rubi.core.dataclasscode`'s)
    a ``rubi hook <event>`` process reads and writes: ``hook-<event>`` for an event
    name of ASCII letters (at most 40), else ``hook``. Each event keeps what it makes:
    a cold recall read the patterns and classes of every command and hook before
    (220 and 590 KB, 0.5 and 0.9 ms of CPU to load; its own, 36 and 214 KB: 0.25
    and 0.45 ms)."""
    if event.isascii() and event.isalpha() and len(event) <= 40:
        return "hook-" + event
    return "hook"


def _decode(data: bytes) -> dict[tuple[Any, Any], bytes]:
    """The table in ``data``; empty when it is not a dict of :func:`_key` to bytes."""
    try:
        table = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {
        k: v
        for k, v in table.items()
        if isinstance(k, tuple)
        and len(k) == 2
        and (
            (type(k[0]) is str and type(k[1]) is int) or (type(k[0]) is int and type(k[1]) is bytes)
        )
        and isinstance(v, bytes)
    }


def _key(p: str | bytes, flags: int) -> tuple[Any, Any]:
    """A pattern's key in the table: ``(pattern, flags)``, the other way round for a
    ``bytes`` pattern. A ``str`` and a ``bytes`` pattern of the same ASCII text hash
    alike, and the table's lookup would compare them: a ``BytesWarning`` under
    ``python -b`` (an error raised by ``re.compile`` under ``-bb``); keyed this way
    their first items are a text and a number."""
    return (p, flags) if type(p) is str else (flags, p)


class RegexCache:
    """Compiled patterns' code, by pattern and flags (see the module docstring).

    Args:
        path: the file to load from and :meth:`save` to; None: nothing is read or
            written (the table lives in this process only), unless ``where`` names it.
        where: called for the file's path when the first pattern is compiled.
    """

    def __init__(
        self, path: Where | None = None, *, where: Callable[[], Where] | None = None
    ) -> None:
        self.path = path
        self._where = where
        self._loaded: dict[tuple[Any, Any], bytes] | None = None
        self._used: dict[tuple[Any, Any], bytes] = {}
        self._loading = False
        self.compiled = 0
        """Patterns compiled in this process (not found in the file)."""

    def _table(self) -> dict[tuple[Any, Any], bytes]:
        if self._loaded is None:
            self._loaded = {}  # a pattern compiled while the path is found compiles anew
            self._loading = True
            try:
                if self.path is None and self._where is not None:
                    self.path = self._where()
                if self.path is not None:
                    from rubi.core.dataclasscode import read_trusted

                    data = read_trusted(self.path, _MAX_BYTES)
                    self._loaded = _decode(data) if data else {}
            finally:
                self._loading = False
        return self._loaded

    def compile(self, p: Any, flags: int = 0) -> Any:
        """``re._compiler.compile(p, flags)``, from the kept record when there is one."""
        if (
            self._loading  # compiled while the file is found and read: never kept
            or type(p) not in (str, bytes)
            or not isinstance(flags, int)
            or int(flags) & _DEBUG
        ):
            return _compile_anew(p, flags)[0]
        key = _key(p, int(flags))
        raw = self._used.get(key)
        if raw is None:
            raw = self._table().get(key)
        if raw is not None:
            found = _from_record(p, raw)
            if found is not None:
                self._used[key] = raw
                return found
        pattern, record = _compile_anew(p, flags)
        self._used[key] = marshal.dumps(record)
        self.compiled += 1
        return pattern

    def save(self) -> bool:
        """Write the file, atomically, when this process compiled a pattern the file did
        not hold: what it held and what this process used (only the latter beyond
        :data:`MAX_ENTRIES`). Never raises: a cache that cannot be written is compiled
        again next time.

        Returns:
            Whether the file was written."""
        if not self.compiled or self.path is None:
            return False
        try:
            table = {**self._table(), **self._used}
            if len(table) > MAX_ENTRIES:
                table = dict(self._used)
            from rubi.core.dataclasscode import write_trusted

            write_trusted(self.path, marshal.dumps(table))
        except (OSError, ValueError):
            return False
        self._loaded = table
        self.compiled = 0
        return True


def _compile_anew(p: Any, flags: int) -> tuple[Any, tuple[Any, ...]]:
    """The pattern as ``re._compiler.compile`` makes it (its body, 3.11–3.13), and the
    record of what it handed ``_sre.compile``."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    if _compiler.isstring(p):
        pattern = p
        p = _parser.parse(p, flags)
    else:
        pattern = None
    code = _compiler._code(p, flags)
    if flags & _compiler.SRE_FLAG_DEBUG:
        print()
        _compiler.dis(code)
    groupindex = p.state.groupdict
    indexgroup: list[str | None] = [None] * p.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    # Plain ints (the opcodes are an int subclass ``marshal`` does not write): the
    # same values for ``_sre``.
    record = (
        int(flags | p.state.flags),
        [int(c) for c in code],
        int(p.state.groups - 1),
        dict(groupindex),
        tuple(indexgroup),
    )
    return _sre.compile(pattern, *record), record


def _from_record(pattern: Any, raw: bytes) -> Any:
    """The compiled pattern of ``pattern`` from its record, None when the record does
    not decode or ``_sre`` refuses it."""

    try:
        record = marshal.loads(raw)
        final, code, groups, groupindex, indexgroup = record
        if not (
            type(final) is int
            and type(code) is list
            and type(groups) is int
            and type(groupindex) is dict
            and type(indexgroup) is tuple
        ):
            return None
        return _sre.compile(pattern, final, code, groups, groupindex, indexgroup)
    except (EOFError, ValueError, TypeError, RuntimeError, OverflowError):
        return None


_INSTALLED: RegexCache | None = None


def install(cache: RegexCache | None = None, role: str = "") -> RegexCache | None:
    """Have ``re`` compile through ``cache`` (a new one over :func:`cache_file` of
    ``role``, looked for when the first pattern is compiled, when None) from now on; the
    one installed already when there is one; None on an interpreter this module keeps
    no records for (nothing changed)."""
    global _INSTALLED
    if sys.implementation.name != "cpython" or sys.version_info[:2] not in _VERSIONS:
        return None
    if _INSTALLED is None:
        from re import _compiler  # type: ignore[attr-defined]

        if cache is None:
            cache = RegexCache(where=lambda: cache_file(role))
        _INSTALLED = cache
        _compiler.compile = _INSTALLED.compile
    return _INSTALLED


def save() -> bool:
    """Write the installed cache's file when it compiled something new
    (:meth:`RegexCache.save`); False when none is installed."""
    return _INSTALLED.save() if _INSTALLED is not None else False
