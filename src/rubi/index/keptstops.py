"""The analysis chains' stop-word sets kept across one-shot processes.

A cold recall in an index of many languages reads the stop words of each of its
chains (:func:`rubi.index.wordterm.chain_stop_words`): at 6,500 notes in 18 languages,
the lists read and split and their words' accents folded cost 2.2 ms of its CPU on every
prompt, for the same sets each time. A process that searches once and exits (a cold
hook, a cold ``rubi search``: :func:`rubi.core.segmentreads.segments_mapped`) takes
them from one file in the user's cache folder instead (``marshal``: 0.7 ms for all 19),
and keeps the sets it had to make for the next one when it exits. Long-lived processes
make their sets once and never read or write the file.

A kept set is used only when what it was made from has not changed since, by the rule
Python uses for its bytecode files (each source's modification time and size): the
modules that make the sets (:mod:`rubi.index.snowball`, :mod:`rubi.index.wordterm`),
Whoosh's lists and accent map, and for a language whose list comes from the
``stop-words`` package, that list's file and folder. Anything else is made as before.
The file is read only when it is a regular file of this user that no one else may
write (:func:`rubi.core.dataclasscode.read_trusted`), written 0600 and atomically, and
it is rebuildable: a missing, damaged or stale one costs the next process its sets.
"""

from __future__ import annotations

import marshal
import os
import sys

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["FORMAT", "kept_or_made", "save", "sources", "store_file"]

FORMAT = 1
"""The file's layout: ``{language: (its sources' stamps, its set)}`` (``marshal``)."""

_MAX_BYTES = 4 << 20
"""A larger file is not read (all 19 chains' sets take about 60 KB)."""

_KEPT: dict[str, tuple[tuple[object, ...], frozenset[str]]] | None = None
"""The file's sets, read on first use."""
_NEW: dict[str, tuple[tuple[object, ...], frozenset[str]]] = {}
"""The sets this process made (to be kept by :func:`save`)."""
_PATH: list[str] = []
"""The file the kept sets were read from, and :func:`save` writes (one item)."""


def store_file() -> str:
    """``<cache folder>/stop-words-<bytecode tag>-f<format>.bin``."""
    from rubi.core.cachefolder import cache_folder

    return f"{cache_folder()}/stop-words-{sys.implementation.cache_tag}-f{FORMAT}.bin"


def sources(lang: str, maker: str) -> list[str]:
    """The files ``lang``'s chain stop words are made from (see the module docstring),
    ``maker`` the module that makes them."""
    import whoosh

    from rubi.index import snowball

    here = os.path.dirname(whoosh.__file__)
    found = [snowball.__file__, maker, f"{here}/lang/stopwords.py"]
    found.append(f"{here}/support/charset.py")
    name = snowball.STOP_WORD_SOURCES.get(lang)
    if name is not None:  # the package's list, where the package's folder is found now
        folder = snowball.stop_words_folder()
        found += [str(folder), f"{folder}/stop-words/{name}.txt"]
    return found


_STAMPED: dict[str, tuple[object, ...] | None] = {}
"""Each source's stamp, taken once per process (most languages share all theirs)."""


def _stamps(lang: str, maker: str) -> tuple[object, ...] | None:
    """Each source's path, modification time and size; None when one is missing."""
    out: list[object] = []
    for path in sources(lang, maker):
        if path not in _STAMPED:
            try:
                st = os.stat(path)
                _STAMPED[path] = (path, st.st_mtime_ns, st.st_size)
            except (OSError, TypeError, ValueError):
                _STAMPED[path] = None
        stamp = _STAMPED[path]
        if stamp is None:
            return None
        out += stamp
    return tuple(out)


def _read(path: str) -> dict[str, tuple[tuple[object, ...], frozenset[str]]]:
    from rubi.core.dataclasscode import read_trusted

    data = read_trusted(path, _MAX_BYTES)
    try:
        table = marshal.loads(data) if data else {}
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {
        lang: kept
        for lang, kept in table.items()
        if isinstance(lang, str)
        and isinstance(kept, tuple)
        and len(kept) == 2
        and isinstance(kept[0], tuple)
        and type(kept[1]) is frozenset
    }


def kept_or_made(lang: str, make: Callable[[str], frozenset[str]], maker: str) -> frozenset[str]:
    """``make(lang)``, or the set kept for ``lang`` when its sources (``maker``: the
    file of the module that makes it) are unchanged; a set made here is kept when the
    process exits (:func:`save`)."""
    global _KEPT
    if _KEPT is None:
        _PATH[:] = [store_file()]
        _KEPT = _read(_PATH[0])
    stamps = _stamps(lang, maker)
    found = _KEPT.get(lang)
    if stamps is not None and found is not None and found[0] == stamps:
        return found[1]
    made = make(lang)
    if stamps is not None:
        if not _NEW:
            import atexit

            atexit.register(save)
        _NEW[lang] = (stamps, made)
    return made


def save() -> bool:
    """Write the file, atomically, when this process made a set it did not hold (the
    file's other sets kept). Never raises: a set not kept is made again next time.

    Returns:
        Whether the file was written."""
    global _KEPT
    if not _NEW or not _PATH:
        return False
    from rubi.core.dataclasscode import write_trusted

    table = {**(_KEPT or {}), **_NEW}
    try:
        write_trusted(_PATH[0], marshal.dumps(table))
    except (OSError, ValueError):
        return False
    _KEPT = table
    _NEW.clear()
    return True
