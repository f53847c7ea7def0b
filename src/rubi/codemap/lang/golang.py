"""Go: imports, package clause and symbols by pattern; imports resolved via ``go.mod``.

An import path names a package (a folder), so it resolves to that folder's non-test
``.go`` files that define a name the importer uses (``errors.New`` leads to the file
that defines ``New``, not to the four other files of ``errors``), which share the
weight of the import; to every file of the folder when the importer uses none of
their names. Files of one package see each other's names without imports; those
references are added in :mod:`.scope`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.text import LineIndex, blank_strings, identifiers, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["KEYWORDS", "parse", "resolve"]

KEYWORDS = frozenset(
    [
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
        "bool",
        "byte",
        "complex64",
        "complex128",
        "error",
        "float32",
        "float64",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "rune",
        "string",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
        "any",
        "true",
        "false",
        "nil",
        "iota",
        "append",
        "cap",
        "close",
        "copy",
        "delete",
        "len",
        "make",
        "new",
        "panic",
        "print",
        "println",
        "recover",
    ]
)

_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)
_IMPORT_ONE = re.compile(r"^import\s+(?:[\w.]+\s+)?[\"`]([^\"`\n]+)[\"`]", re.M)
_IMPORT_BLOCK = re.compile(r"^(import)\s*\(", re.M)
_IMPORT_LINE = re.compile(r"^[^\S\n]*(?:[\w.]+\s+)?[\"`]([^\"`\n]+)[\"`]", re.M)
_FUNC = re.compile(r"^func\s+(\w+)\s*[\[(]", re.M)
_METHOD = re.compile(r"^func\s*\(\s*(?:\w+\s+)?\*?\s*(\w+)(?:\[[^\]]*\])?\s*\)\s*(\w+)", re.M)
_TYPE = re.compile(r"^type\s+(\w+)(?:\[[^\]]*\])?\s+(struct|interface)?", re.M)
_DECL_BLOCK = re.compile(r"^(type|const|var)\s*\(", re.M)
# ``ErrY, ErrZ = 1, 2`` and ``var a, b int`` define every name of the list
_NAMES = r"(\w+(?:[^\S\n]*,[^\S\n]*\w+)*)"
_BLOCK_ITEM = re.compile(r"^\t" + _NAMES + r"(?:\s+(struct|interface))?", re.M)
_VALUE = re.compile(r"^(const|var)\s+" + _NAMES, re.M)


def _blocks(code: str, head: re.Pattern[str]) -> Iterator[tuple[str, int, str]]:
    """``(keyword, start, body)`` of each block ``head`` opens (``var (``), its body up
    to the first line starting with ``)``. One scan: a lazy ``(.*?)^\\)`` searched
    from every unclosed head to the file's end (``var (`` repeated, 120 KB, parsed in
    4.3 s); with no closing line after a head, none closes after a later one either."""
    at = 0
    while (match := head.search(code, at)) is not None:
        close = code.find("\n)", match.end())
        if close < 0:
            return
        yield match.group(1), match.end(), code[match.end() : close + 1]
        at = close + 2


def _names(names: str) -> list[str]:
    """The names of a declaration's list (``A, B``), the blank ``_`` left out."""
    return [name for name in (part.strip() for part in names.split(",")) if name != "_"]


def parse(text: str) -> Parsed:
    """Parse a Go file.

    Returns:
        Imports (kind ``import``, target the import path), the package name, top-level
        functions, methods (``Type.Method``), types, consts and vars, and the file's
        identifiers (for same-package references).
    """
    code = strip_comments(text, "c")
    lines = LineIndex(code)
    imports = [ImportSpec("import", m.group(1)) for m in _IMPORT_ONE.finditer(code)]
    for _, _, body in _blocks(code, _IMPORT_BLOCK):
        imports.extend(ImportSpec("import", m.group(1)) for m in _IMPORT_LINE.finditer(body))
    symbols: list[Symbol] = []
    for match in _FUNC.finditer(code):
        symbols.append(Symbol(match.group(1), "function", lines.line(match.start())))
    for match in _METHOD.finditer(code):
        name = f"{match.group(1)}.{match.group(2)}"
        symbols.append(Symbol(name, "method", lines.line(match.start())))
    for match in _TYPE.finditer(code):
        symbols.append(Symbol(match.group(1), match.group(2) or "type", lines.line(match.start())))
    kind_of = {"type": "type", "const": "const", "var": "variable"}
    for keyword, start, body in _blocks(code, _DECL_BLOCK):
        base = lines.line(start) - 1
        for item in _BLOCK_ITEM.finditer(body):
            kind = item.group(2) or kind_of[keyword]
            line = base + body.count("\n", 0, item.start()) + 1
            symbols.extend(Symbol(name, kind, line) for name in _names(item.group(1)))
    for match in _VALUE.finditer(code):
        kind = "const" if match.group(1) == "const" else "variable"
        line = lines.line(match.start())
        symbols.extend(Symbol(name, kind, line) for name in _names(match.group(2)))
    symbols.sort(key=lambda s: (s.line, s.name))
    package = _PACKAGE.search(code)
    idents = identifiers(blank_strings(text, "c"), KEYWORDS)
    return Parsed(
        imports=tuple(imports),
        symbols=tuple(symbols),
        package=package.group(1) if package else "",
        idents=idents,
    )


_MODULE = re.compile(r"^module\s+\"?([^\s\"]+)\"?", re.M)
_REPLACE = re.compile(r"^[^\S\n]*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s+=>\s+(\.\.?/\S*)\s*$", re.M)


def _modules(repo: RepoIndex) -> list[tuple[str, str]]:
    """``(module path, folder)`` of every go.mod and local ``replace``, longest first."""
    found: list[tuple[str, str]] = []
    for path in repo.listed_named("go.mod"):
        text = repo.read_text(path)
        if not text:
            continue
        folder = posixpath.dirname(path)
        match = _MODULE.search(text)
        if match:
            found.append((match.group(1), folder))
        for rep in _REPLACE.finditer(text):
            target = join_path(folder, rep.group(2))
            if target is not None:
                found.append((rep.group(1), target))
    found.sort(key=lambda item: (-len(item[0]), item[1]))
    return found


def _package_files(repo: RepoIndex, folder: str) -> list[str]:
    return [p for p in repo.files_in(folder) if p.endswith(".go") and not p.endswith("_test.go")]


def _exported(parsed: Parsed) -> set[str]:
    """The names a file defines that another package can name (``pkg.Name``): its
    top-level functions, types, consts and vars that start with a capital letter."""
    return {s.name for s in parsed.symbols if s.kind != "method" and s.name[:1].isupper()}


def _used(files: list[str], parsed: Parsed, repo: RepoIndex) -> list[str]:
    """The files of an imported package that define a name the importer uses; empty
    when it uses none that the parses show (an import for its side effects, a name
    defined in a way the patterns miss): then the import goes to every file."""
    used = set(parsed.idents)
    exported: dict[str, set[str]] = repo.memo("go.exported", lambda _: {})
    found = []
    for target in files:
        names = exported.get(target)
        if names is None:
            entry = repo.code.get(target)
            names = exported[target] = _exported(entry[1]) if entry is not None else set()
        if not used.isdisjoint(names):
            found.append(target)
    return found


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve a Go file's imports through the module paths of ``go.mod`` files.

    Returns:
        The imported packages' files whose names the file uses (weight 1 shared per
        import; every file of the package when it uses none); standard library
        imports (no dot in the first path element) are left out; other unresolved
        imports are external by import path.
    """
    modules = repo.memo("go.mod", _modules)
    result = Resolution()
    for spec in parsed.imports:
        target = spec.target
        for module, folder in modules:
            if target == module or target.startswith(module + "/"):
                sub = target[len(module) + 1 :]
                pkg_dir = posixpath.join(folder, sub) if folder and sub else folder or sub
                files = [f for f in _package_files(repo, pkg_dir) if f != path]
                if files or _package_files(repo, pkg_dir):
                    result.add(_used(files, parsed, repo) or files)
                    break
        else:
            first = target.split("/")[0]
            if "." in first:
                result.external.add(target)
    return result
