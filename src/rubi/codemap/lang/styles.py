"""CSS, SCSS/Sass and Less: ``@import``, ``@use`` and ``@forward`` by pattern.

A specifier is tried relative to the file, then to the root, with the Sass rules:
extensions ``.scss``/``.sass``/``.css``/``.less``, partials (``_name.scss``) and
``_index``/``index`` files of a folder.
"""

from __future__ import annotations

import posixpath
import re

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.text import LineIndex, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse", "resolve"]

_AT_RULE = re.compile(r"@(import|use|forward)\s+([^;{]+)")
_TARGET = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)|['\"]([^'\"\n]+)['\"]")
_SYMBOLS = (
    ("variable", re.compile(r"^\$([\w-]+)\s*:", re.M)),
    ("variable", re.compile(r"^@([\w-]+)\s*:", re.M)),
    ("mixin", re.compile(r"^@mixin\s+([\w-]+)", re.M)),
    ("function", re.compile(r"^@function\s+([\w-]+)", re.M)),
    ("class", re.compile(r"^%([\w-]+)", re.M)),
)
_SUFFIXES = ("", ".scss", ".sass", ".css", ".less")


def parse(text: str) -> Parsed:
    """Parse a stylesheet.

    Returns:
        Imports (kinds ``import``, ``use``, ``forward``; one per quoted or ``url()``
        target), Sass/Less variables, mixins, functions and placeholders.
    """
    code = strip_comments(text, "css")
    lines = LineIndex(code)
    imports: list[ImportSpec] = []
    for rule in _AT_RULE.finditer(code):
        for target in _TARGET.finditer(rule.group(2)):
            imports.append(ImportSpec(rule.group(1), (target.group(1) or target.group(2)).strip()))
    symbols = [
        Symbol(m.group(1), kind, lines.line(m.start()))
        for kind, pattern in _SYMBOLS
        for m in pattern.finditer(code)
    ]
    symbols.sort(key=lambda s: (s.line, s.name))
    return Parsed(imports=tuple(imports), symbols=tuple(symbols))


def _candidates(base: str) -> list[str]:
    head, name = posixpath.split(base)
    partial = posixpath.join(head, "_" + name) if head else "_" + name
    out = [base + s for s in _SUFFIXES] + [partial + s for s in _SUFFIXES[1:]]
    for index in ("_index", "index"):
        out += [f"{base}/{index}{s}" for s in _SUFFIXES[1:]]
    return out


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve stylesheet imports.

    Returns:
        Targets; ``sass:`` modules are left out; URLs and packages (``~pkg/x``,
        ``pkg/x``) are external as written.
    """
    folder = posixpath.dirname(path)
    result = Resolution()
    for spec in parsed.imports:
        target = spec.target
        if target.startswith("sass:"):
            continue
        if "://" in target or target.startswith("//"):
            result.external.add(target)
            continue
        found = None
        for base in (folder, ""):
            joined = join_path(base, target.lstrip("~"))
            if joined is None:
                continue
            found = next((c for c in _candidates(joined) if repo.is_code(c)), None)
            if found:
                break
        if found:
            if found != path:
                result.add([found])
        else:
            result.external.add(target)
    return result
