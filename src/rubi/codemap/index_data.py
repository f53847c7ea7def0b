"""What the search index and the graph need from the map, ready to use.

The Whoosh index stores each code file's path, its symbols and a bounded slice of its
text; the graph adds ``imports``, ``in_module`` and ``about_file`` edges. These helpers
keep those decisions (how much text, how symbols read as words) next to the map.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from rubi.codemap.model import CodeFile, CodeMap
from rubi.core.safeio import UnsafeFileError, read_bytes

__all__ = [
    "INDEX_SYMBOLS",
    "INDEX_TEXT_CHARS",
    "comment_text",
    "drop_license_header",
    "graph_edges",
    "read_text_slice",
    "symbol_text",
]

_COMMENT_LINE = re.compile(r"^\s*(?://+|#+(?![!\[])|/\*+|\*+(?!/)|--|;;+|%+)\s?(.*)$")
_DOCSTRING = re.compile(r'("""|\'\'\')(.*?)\1', re.S)


def comment_text(text: str) -> str:
    """The prose of a source file: comment lines and docstrings, markers removed.

    Natural-language questions ("panic recovery middleware") are answered by what the
    comments say ("Recoverer is a middleware that recovers from panics"), which code
    identifiers alone do not.
    """
    lines = [m.group(1) for m in map(_COMMENT_LINE.match, text.splitlines()) if m]
    lines += [m.group(2) for m in _DOCSTRING.finditer(text)]
    return "\n".join(line for line in lines if line.strip())


_HEADER = re.compile(r"\A\s*(?:/\*.*?\*/|(?:[ \t]*(?://|#)[^\n]*(?:\n|\Z))+)", re.S)
_LICENSE = re.compile(
    r"copyright|spdx-license-identifier|licensed under|permission is hereby granted", re.I
)


_HEADER_BYTES = 8192
"""Bytes read beyond the slice so that a license header (a GPL one is about 1 kB) is
not cut inside its comment."""


def drop_license_header(text: str) -> str:
    """``text`` without its license header: the first comment block (``/* … */``, or
    consecutive ``//`` or ``#`` lines) when it names a copyright or a license.

    The same dozen lines head every file of many projects (spring-framework: 95% of its
    files), so they find nothing, and they were a quarter of a code file's index terms.
    """
    found = _HEADER.match(text)
    if found is None or not _LICENSE.search(found.group(0)):
        return text
    return text[found.end() :].lstrip("\n")


INDEX_TEXT_CHARS = 20_000
"""Characters of a code file that go into the index: the head of a file (imports,
docstring, main definitions) carries most of its searchable words; whole generated
files would bloat the index."""


def read_text_slice(repo_root: Path, path: str, max_chars: int = INDEX_TEXT_CHARS) -> str:
    """The first ``max_chars`` characters of a mapped file, decoded leniently, after
    its license header (:func:`drop_license_header`).

    Args:
        repo_root: the repository.
        path: a repository-relative path from ``CodeMap.files``.
        max_chars: characters at most.

    Returns:
        The text, cut after the last newline within the limit when there is one; "" when
        the file cannot be read any more (it changed since the map was built) or is
        refused by :mod:`rubi.core.safeio` (it now leads outside the repository, or is no
        longer a regular file).
    """
    try:
        data = read_bytes(repo_root, path, limit=max_chars * 4 + _HEADER_BYTES).data
    except (OSError, UnsafeFileError):
        return ""
    text = drop_license_header(data.decode("utf-8", errors="replace").lstrip("\ufeff"))
    if len(text) <= max_chars:
        return text
    cut = text.rfind("\n", 0, max_chars)
    return text[: cut + 1 if cut > 0 else max_chars]


INDEX_SYMBOLS = 2_000
"""Symbols of one file that go into the index, in source order: a hand-written file
has far fewer; a generated one with 50,000 functions would spend most of an index
run stemming names nobody asks for."""


def symbol_text(file: CodeFile, max_symbols: int = INDEX_SYMBOLS) -> str:
    """A file's first ``max_symbols`` symbols as one searchable string: each name as
    written, and for ``Class.method`` both parts (``Flask.dispatch_request Flask
    dispatch_request``)."""
    words: list[str] = []
    for symbol in file.symbols[:max_symbols]:
        words.append(symbol.name)
        if "." in symbol.name:
            words.extend(part for part in re.split(r"[.:]+", symbol.name) if part)
    return " ".join(dict.fromkeys(words))


def graph_edges(code_map: CodeMap) -> Iterator[tuple[str, str, str, float]]:
    """The map's edges for the knowledge graph, in a stable order.

    Yields:
        ``(source, relation, target, weight)``: ``(file, "imports", file, weight)``
        for every import edge, then ``(file, "in_module", module name, 1.0)`` for every
        file. Node kinds are implied: files are repository paths, modules are names
        of ``code_map.modules``.
    """
    for (src, dst), weight in code_map.edges.items():
        yield src, "imports", dst, weight
    for path, file in code_map.files.items():
        yield path, "in_module", file.module, 1.0
