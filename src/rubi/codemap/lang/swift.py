"""Swift: type and function declarations by pattern (symbols only).

Swift imports name modules, not files, so there is nothing to resolve to a file; the
symbols (types, extensions, protocols, functions, properties) are what lets a query
that names ``DataRequest`` or ``validate`` find its file.
"""

from __future__ import annotations

import re

from rubi.codemap.lang.text import LineIndex, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse"]

_MODIFIERS = (
    r"(?:(?:@\w+(?:\([^)]*\))?|public|open|internal|private|fileprivate|final|static|class|"
    r"override|mutating|nonmutating|convenience|required|indirect|lazy|dynamic|nonisolated|"
    r"package|weak|unowned)\s+)*"
)
_TYPE = re.compile(
    rf"^[ \t]*{_MODIFIERS}(class|struct|enum|protocol|extension|actor|typealias)\s+"
    r"([A-Za-z_][\w.]*)",
    re.M,
)
_FUNC = re.compile(rf"^[ \t]*{_MODIFIERS}(func|init|subscript)\s*([A-Za-z_]\w*)?", re.M)
_IMPORT = re.compile(r"^[^\S\n]*(?:@\w+\s+)?import\s+(?:\w+\s+)?([\w.]+)", re.M)
MAX_SYMBOLS = 300


def parse(text: str) -> Parsed:
    """Parse a Swift file: its imports (modules, never resolved) and declarations.

    Returns:
        Symbols with kinds ``class``, ``struct``, ``enum``, ``protocol``,
        ``extension``, ``actor``, ``typealias`` and ``function`` (methods included,
        since Swift code lives in types and extensions).
    """
    code = strip_comments(text, "c")
    lines = LineIndex(code)
    imports = tuple(ImportSpec("import", m.group(1)) for m in _IMPORT.finditer(code))
    symbols: list[Symbol] = []
    seen: set[tuple[str, str]] = set()
    for m in _TYPE.finditer(code):
        key = (m.group(2), m.group(1))
        if key not in seen:
            seen.add(key)
            symbols.append(Symbol(m.group(2), m.group(1), lines.line(m.start())))
    for m in _FUNC.finditer(code):
        name = m.group(2) if m.group(1) == "func" else m.group(1)
        if name and (name, "function") not in seen:
            seen.add((name, "function"))
            symbols.append(Symbol(name, "function", lines.line(m.start())))
    symbols.sort(key=lambda s: (s.line, s.name))
    return Parsed(imports=imports, symbols=tuple(symbols[:MAX_SYMBOLS]))
