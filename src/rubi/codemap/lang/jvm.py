"""Java and Kotlin: package, imports and top-level declarations by pattern.

Imports resolve through the packages the files declare (not their folders, which
need not match in Kotlin): ``a.b.C`` is the file declaring ``package a.b`` whose stem
or top-level declaration is ``C``; nested classes and static members fall back to the
enclosing class; ``a.b.*`` imports the whole package (weight shared).
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections import defaultdict

from rubi.codemap.lang.base import RepoIndex, Resolution
from rubi.codemap.lang.text import LineIndex, blank_strings, identifiers, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["changed_names", "looks_up", "packages_index", "parse", "resolve"]

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.M)
_IMPORT = re.compile(r"^\s*import\s+(static\s+)?([\w.]+?)(\.\*)?\s*(?:as\s+\w+\s*)?;?\s*$", re.M)
_JAVA_TYPE = re.compile(
    r"^(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\s+)*"
    r"(class|interface|enum|record|@interface)\s+(\w+)",
    re.M,
)
_JAVA_METHOD = re.compile(
    r"^(?:    |\t)(?:(?:public|protected|static|final|abstract|synchronized|default|native)\s+)+"
    r"(?:<[^>]*>\s*)?[\w<>\[\],.? ]+?\s+(\w+)\s*\("
)
_KOTLIN_DECL = re.compile(
    r"^(?:(?:public|internal|private|protected|data|sealed|abstract|open|enum|annotation|inline"
    r"|value|inner|expect|actual|suspend|operator|infix|tailrec|external|const|override|fun)\s+)*"
    r"(class|interface|object|fun|val|var|typealias)\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?(\w+)",
    re.M,
)
_KEYWORDS = frozenset(
    [
        "abstract",
        "assert",
        "boolean",
        "break",
        "byte",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extends",
        "final",
        "finally",
        "float",
        "for",
        "goto",
        "if",
        "implements",
        "import",
        "instanceof",
        "int",
        "interface",
        "long",
        "native",
        "new",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "static",
        "super",
        "switch",
        "synchronized",
        "this",
        "throw",
        "throws",
        "transient",
        "try",
        "void",
        "volatile",
        "while",
        "var",
        "val",
        "fun",
        "object",
        "when",
        "is",
        "in",
        "as",
        "null",
        "true",
        "false",
    ]
)
_KOTLIN_KIND = {"fun": "function", "val": "const", "var": "variable", "typealias": "type"}
_STDLIB_PREFIXES = ("java.", "javax.", "jdk.", "sun.", "kotlin.", "android.")


def parse_java_methods(code: str, types: list[Symbol]) -> list[Symbol]:
    """Public/protected/static methods one indent deep, named ``Type.method``."""
    if not types:
        return []
    owner = types[0].name
    out: list[Symbol] = []
    for number, line in enumerate(code.split("\n"), start=1):
        match = _JAVA_METHOD.match(line)
        if match and match.group(1) not in _KEYWORDS:
            out.append(Symbol(f"{owner}.{match.group(1)}", "method", number))
    return out


def parse(text: str, language: str = "java") -> Parsed:
    """Parse a Java or Kotlin file.

    Returns:
        The package, imports (kinds ``import``, ``static``, ``wildcard``; target the
        dotted name), top-level declarations (Java methods as ``Type.method``), and
        identifiers for same-package references.
    """
    code = strip_comments(text, "c")
    lines = LineIndex(code)
    package = _PACKAGE.search(code)
    imports = []
    for match in _IMPORT.finditer(code):
        kind = "wildcard" if match.group(3) else "static" if match.group(1) else "import"
        imports.append(ImportSpec(kind, match.group(2)))
    symbols: list[Symbol] = []
    if language == "kotlin":
        for match in _KOTLIN_DECL.finditer(code):
            kind = _KOTLIN_KIND.get(match.group(1), match.group(1))
            symbols.append(Symbol(match.group(2), kind, lines.line(match.start())))
    else:
        types = [
            Symbol(m.group(2), m.group(1).lstrip("@"), lines.line(m.start()))
            for m in _JAVA_TYPE.finditer(code)
        ]
        symbols = types + parse_java_methods(code, types)
        symbols.sort(key=lambda s: (s.line, s.name))
    idents = identifiers(blank_strings(text, "c"), _KEYWORDS)
    return Parsed(
        imports=tuple(imports),
        symbols=tuple(symbols),
        package=package.group(1) if package else "",
        idents=idents,
    )


class _Packages:
    """Fully qualified names and packages declared by the JVM files."""

    def __init__(self, repo: RepoIndex) -> None:
        self.fqn: dict[str, str] = {}
        self.packages: dict[str, list[str]] = defaultdict(list)
        for path, (language, parsed) in sorted(repo.code.items()):
            if language not in ("java", "kotlin"):
                continue
            prefix = parsed.package + "." if parsed.package else ""
            self.packages[parsed.package].append(path)
            stem = posixpath.splitext(posixpath.basename(path))[0]
            self.fqn.setdefault(prefix + stem, path)
            for symbol in parsed.symbols:
                if "." not in symbol.name:
                    self.fqn.setdefault(prefix + symbol.name, path)


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve Java/Kotlin imports through declared packages.

    Returns:
        Targets; unresolved imports outside the JDK/Kotlin/Android are external by
        package (the dotted name without its class and member parts).
    """
    index = repo.memo("jvm", _Packages)
    result = Resolution()
    for spec in parsed.imports:
        name = spec.target
        if spec.kind == "wildcard" and name in index.packages:
            result.add([p for p in index.packages[name] if p != path])
            continue
        parts = name.split(".")
        found = None
        for k in range(len(parts), max(len(parts) - 3, 0), -1):
            found = index.fqn.get(".".join(parts[:k]))
            if found:
                break
        if found:
            if found != path:
                result.add([found])
        elif not name.startswith(_STDLIB_PREFIXES):
            pkg = list(itertools.takewhile(lambda p: not p[:1].isupper(), parts))
            result.external.add(".".join(pkg) or name)
    return result


def packages_index(repo: RepoIndex) -> object:
    """The index :func:`resolve` reads (declared names and packages of the JVM files),
    built once per :class:`RepoIndex`; opaque, for :func:`changed_names`."""
    return repo.memo("jvm", _Packages)


def changed_names(before: object, after: object) -> tuple[frozenset[str], frozenset[str]]:
    """What differs between two :func:`packages_index` results: ``(names, packages)``,
    the fully qualified names that lead elsewhere (or nowhere) and the packages whose
    files differ. A JVM file's resolution depends on its own parse and on the answers
    to these lookups only, so a file that looks up none of them (:func:`looks_up`)
    resolves as before."""
    assert isinstance(before, _Packages) and isinstance(after, _Packages)
    names = {
        k for k in before.fqn.keys() | after.fqn.keys() if before.fqn.get(k) != after.fqn.get(k)
    }
    packages = {
        k
        for k in before.packages.keys() | after.packages.keys()
        if before.packages.get(k) != after.packages.get(k)
    }
    return frozenset(names), frozenset(packages)


def looks_up(parsed: Parsed, names: frozenset[str], packages: frozenset[str]) -> bool:
    """True when :func:`resolve` of a file with this parse may read one of ``names``
    or ``packages`` (every lookup it can make, whether or not an earlier one hits)."""
    if not names and not packages:
        return False
    for spec in parsed.imports:
        if spec.kind == "wildcard" and spec.target in packages:
            return True
        prefix = spec.target  # the name, then without its last one and two parts
        for _ in range(3):
            if prefix in names:
                return True
            prefix, dot, _last = prefix.rpartition(".")
            if not dot:
                break
    return False
