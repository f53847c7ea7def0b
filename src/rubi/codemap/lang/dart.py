"""Dart: ``import``/``export``/``part`` by pattern, ``package:`` URIs via ``pubspec.yaml``."""

from __future__ import annotations

import posixpath
import re

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.text import LineIndex, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse", "resolve"]

_DIRECTIVE = re.compile(r"^[^\S\n]*(import|export|part)\s+['\"]([^'\"\n]+)['\"]", re.M)
_TYPE = re.compile(
    r"^(?:(?:abstract|base|final|sealed|interface|macro)\s+)*"
    r"(class|mixin|enum|extension|typedef)\s+(\w+)",
    re.M,
)
_FUNCTION = re.compile(
    r"^(?!(?:return|import|export|part|library|if|else|for|while)\b)"
    r"(?:[ ][^\S\n]++|[\w<>?,\[\] ]*?[\w<>?,\[\]][^\S\n]++)"
    r"(?!(?:if|for|while|switch|catch|return|assert|await|yield|throw|new|else|Function)\b)(\w+)"
    r"[^\S\n]*(?:<[^>\n]{0,500}>)?"
    r"\((?:[^;{}()]|\{(?:[^;{}()]|\([^;{}()]*\))*+\}|\([^;{}()]*\)){0,5000}+\)"
    r"\s*(?:async\*?|sync\*)?\s*(?:\{|=>)",
    re.M,
)
"""A function or method: its return type and name on one line (the name's line), its
parameters (named ``{…}`` and function-typed ``(…)`` ones included) within 5,000
characters; a control keyword (``if (x) {``) or ``Function`` is no name. Each part is
bounded, and the type cannot end in the spaces before the name, so a line of spaces,
thousands of blank lines or a long run of ``<`` cost time linear in the file."""
_CONSTRUCTOR = re.compile(r"^[ ]{1,4}(?:const\s+|factory\s+)?([A-Z]\w*)\.(\w+)[^\S\n]*\(", re.M)
"""A named constructor or factory in a class body (``Option._(``, ``factory
Color.fromJson(``), one level deep (Dart code is formatted with two spaces); kept when
its class is declared in the file (a call statement is deeper)."""
_VALUE = re.compile(r"^(final|const|var|late\s+final)\s+(?:[\w<>?,]+\s+)?(\w+)\s*=", re.M)
_PUBSPEC_NAME = re.compile(r"^name:\s*['\"]?([\w-]+)", re.M)


def parse(text: str) -> Parsed:
    """Parse a Dart file.

    Returns:
        Imports (kinds ``import``, ``export``, ``part``; target the URI), top-level
        classes, mixins, enums, extensions, typedefs, functions and values.
    """
    code = strip_comments(text, "c")
    lines = LineIndex(code)
    imports = [ImportSpec(m.group(1), m.group(2)) for m in _DIRECTIVE.finditer(code)]
    symbols = [Symbol(m.group(2), m.group(1), lines.line(m.start())) for m in _TYPE.finditer(code)]
    taken = {s.name for s in symbols}
    for match in _FUNCTION.finditer(code):
        if match.group(1) not in taken:
            symbols.append(Symbol(match.group(1), "function", lines.line(match.start())))
    classes = {s.name for s in symbols if s.kind in ("class", "enum", "extension")}
    for match in _CONSTRUCTOR.finditer(code):
        if match.group(1) in classes:
            name = f"{match.group(1)}.{match.group(2)}"
            symbols.append(Symbol(name, "constructor", lines.line(match.start())))
    for match in _VALUE.finditer(code):
        kind = "const" if match.group(1) == "const" else "variable"
        symbols.append(Symbol(match.group(2), kind, lines.line(match.start())))
    symbols.sort(key=lambda s: (s.line, s.name))
    return Parsed(imports=tuple(imports), symbols=tuple(symbols))


def _packages(repo: RepoIndex) -> dict[str, str]:
    """``{package name: folder}`` from every ``pubspec.yaml``."""
    found: dict[str, str] = {}
    for manifest in repo.listed_named("pubspec.yaml"):
        text = repo.read_text(manifest)
        match = _PUBSPEC_NAME.search(text or "")
        if match and match.group(1) not in found:
            found[match.group(1)] = posixpath.dirname(manifest)
    return found


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve Dart URIs: relative ones to the file, ``package:name/x.dart`` to
    ``<package folder>/lib/x.dart``.

    Returns:
        Targets; ``dart:`` libraries are left out; other packages are external by name.
    """
    packages = repo.memo("dart", _packages)
    folder = posixpath.dirname(path)
    result = Resolution()
    for spec in parsed.imports:
        uri = spec.target
        if uri.startswith("dart:"):
            continue
        candidate: str | None
        if uri.startswith("package:"):
            name, _, rest = uri[len("package:") :].partition("/")
            if name not in packages:
                result.external.add(name)
                continue
            candidate = join_path(packages[name], "lib/" + rest)
        elif ":" in uri:
            result.external.add(uri)
            continue
        else:
            candidate = join_path(folder, uri)
        if candidate and repo.is_code(candidate):
            if candidate != path:
                result.add([candidate])
        else:
            result.external.add(uri)
    return result
