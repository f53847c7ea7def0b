"""Java and Kotlin: package, imports and top-level declarations by pattern.

Imports resolve through the packages the files declare (not their folders, which
need not match in Kotlin): ``a.b.C`` is the file declaring ``package a.b`` whose stem
or top-level declaration is ``C``; nested classes and static members fall back to the
enclosing class; ``a.b.*`` imports the whole package (weight shared).
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import re
from collections import defaultdict
from collections.abc import Mapping

from rubi.codemap.lang.base import RepoIndex, Resolution
from rubi.codemap.lang.text import LineIndex, blank_strings, identifiers, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = [
    "Lookups",
    "changed_names",
    "looks_up",
    "packages_index",
    "parse",
    "resolve",
    "updated_index",
]

FileParse = tuple[str, Parsed]
"""``(language, parse)`` of a mapped file."""

_PACKAGE = re.compile(r"^[^\S\n]*package\s+([\w.]+)", re.M)
_IMPORT = re.compile(
    r"^[^\S\n]*import\s+(static\s+)?([\w.]+?)(\.\*)?\s*(?:as\s+\w+\s*)?;?\s*$", re.M
)
_JAVA_TYPE = re.compile(
    r"^(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\s+)*"
    r"(class|interface|enum|record|@interface)\s+(\w+)",
    re.M,
)
_JAVA_METHOD = re.compile(
    r"(?:(?:public|protected|static|final|abstract|synchronized|default|native)\s+)+"
    r"(?:<[^>]*>\s*)?[\w<>\[\],.? ]+?\s+(\w+)\s*\("
)
"""A method declaration after its line's indentation (:func:`parse_java_methods` checks
that the indentation is one level of the file's)."""
_MEMBER_INDENT = re.compile(r"^([ \t]+)(?:public|protected|private|static|final|abstract)\b", re.M)
_KOTLIN_MODIFIERS = (
    r"(?:(?:@[\w.:]+(?:\([^()\n]*\))?|public|internal|private|protected|data|sealed|abstract"
    r"|open|enum|annotation|inline|value|inner|expect|actual|suspend|operator|infix|tailrec"
    r"|external|const|override|lateinit|fun)\s+)*"
)
"""A declaration's modifiers, with annotations on its line (``@JvmStatic``,
``@Throws(IOException::class)``) and ``fun`` of a ``fun interface``."""
_KOTLIN_DECL = re.compile(
    rf"^{_KOTLIN_MODIFIERS}"
    r"(class|interface|object|fun|val|var|typealias)\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?(\w+)",
    re.M,
)
_KOTLIN_OWNERS = frozenset({"class", "interface", "object"})
_KOTLIN_NESTED = re.compile(
    rf"^([ \t]+)((?:companion\s+)?{_KOTLIN_MODIFIERS}(?:companion\s+)?)"
    r"(class|interface|object|fun|typealias)\b[^\S\n]*(?:<[^>\n]*>\s*)?"
    r"(?:[\w.<>?, ]+\.)?(\w*)",
    re.M,
)
"""An indented type or function declaration (its indentation, ``companion``, kind,
name; a companion object's name may be empty); read by :func:`parse_kotlin_members`."""
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


def member_indent(code: str) -> str:
    """The file's indentation of one level: the leading whitespace of its first member
    declared with a modifier (four spaces, a tab, or Google style's two); four
    spaces when no member says."""
    match = _MEMBER_INDENT.search(code)
    return match.group(1) if match else "    "


def parse_java_methods(code: str, types: list[Symbol]) -> list[Symbol]:
    """Public/protected/static methods one indent deep (the file's own indentation,
    :func:`member_indent`), named ``Type.method``."""
    if not types:
        return []
    owner = types[0].name
    indent = member_indent(code)
    out: list[Symbol] = []
    for number, line in enumerate(code.split("\n"), start=1):
        if not line.startswith(indent):
            continue
        match = _JAVA_METHOD.match(line, len(indent))
        if match and match.group(1) not in _KEYWORDS:
            out.append(Symbol(f"{owner}.{match.group(1)}", "method", number))
    return out


def parse_kotlin_members(code: str, lines: LineIndex) -> list[Symbol]:
    """Kotlin members: functions (kind ``method``) and types declared in a class,
    interface or object body, named ``Owner.name``; a companion object's members are
    the owner's. A declaration belongs to the closest declaration above it that is
    less indented; one inside a function body is local and left out, as are
    properties (one in a class body reads as a local in a block).

    Args:
        code: the file with comments removed (newlines kept).
        lines: the line index of ``code``.

    Returns:
        Members in source order (top-level declarations are :data:`_KOTLIN_DECL`'s).
    """
    stack: list[tuple[int, str, str]] = []  # (indentation, kind, owner name) of the open ones
    top = [(m.start(), 0, m.group(1), m.group(2)) for m in _KOTLIN_DECL.finditer(code)]
    nested = [
        (
            m.start(),
            len(m.group(1).expandtabs(4)),
            m.group(3),
            m.group(4),
            "companion" in m.group(2),
        )
        for m in _KOTLIN_NESTED.finditer(code)
    ]
    events = sorted([(*t, False) for t in top] + nested)
    out: list[Symbol] = []
    for start, indent, kind, name, companion in events:
        while stack and stack[-1][0] >= indent:
            stack.pop()
        owner = stack[-1] if stack else None
        if indent == 0:  # a top-level value or type alias owns nothing (``= object : X {``)
            stack.append((0, kind, name if kind in _KOTLIN_OWNERS else ""))
            continue
        if owner is None or owner[1] == "fun" or not owner[2]:  # local, or in an expression
            stack.append((indent, "fun", ""))
            continue
        if companion and kind == "object":
            stack.append((indent, kind, owner[2]))
            continue
        if not name:
            stack.append((indent, "fun", ""))  # an anonymous object: its members are not named
            continue
        qualified = f"{owner[2]}.{name}"
        out.append(Symbol(qualified, "method" if kind == "fun" else kind, lines.line(start)))
        stack.append((indent, kind, qualified if kind in _KOTLIN_OWNERS else ""))
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
        symbols += parse_kotlin_members(code, lines)
        symbols.sort(key=lambda s: (s.line, s.name))
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


_JVM = frozenset({"java", "kotlin"})


def _declared(path: str, parsed: Parsed) -> set[str]:
    """The fully qualified names a JVM file declares: its stem and its top-level
    declarations, in its package."""
    prefix = parsed.package + "." if parsed.package else ""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    names = {prefix + stem}
    names.update(prefix + s.name for s in parsed.symbols if "." not in s.name)
    return names


class _Packages:
    """Fully qualified names and packages declared by the JVM files.

    Attributes:
        fqn: ``{name: path}``, the first path (sorted) that declares the name.
        packages: ``{package: paths}``, sorted, of the packages with files.
        owners: ``{name: paths}``, sorted: every path that declares the name.
    """

    def __init__(self, repo: RepoIndex | None = None) -> None:
        self.fqn: dict[str, str] = {}
        self.packages: dict[str, list[str]] = defaultdict(list)
        self.owners: dict[str, list[str]] = {}
        if repo is None:
            return
        for path, (language, parsed) in sorted(repo.code.items()):
            if language not in _JVM:
                continue
            self.packages[parsed.package].append(path)
            for name in _declared(path, parsed):
                self.owners.setdefault(name, []).append(path)
        self.fqn = {name: paths[0] for name, paths in self.owners.items()}


def _without(table: dict[str, list[str]], key: str, path: str) -> None:
    paths = [p for p in table.get(key, ()) if p != path]
    if paths:
        table[key] = paths
    else:
        table.pop(key, None)


def _with(table: dict[str, list[str]], key: str, path: str) -> None:
    paths = list(table.get(key, ()))
    if path not in paths:
        bisect.insort(paths, path)
    table[key] = paths


def updated_index(
    before: object, changes: Mapping[str, tuple[FileParse | None, FileParse | None]]
) -> tuple[object, frozenset[str], frozenset[str]]:
    """A :func:`packages_index` result brought up to date for files that came, went
    or changed, without going over the others; ``before`` is left as it was.

    Args:
        before: the index of the files as they were.
        changes: ``{path: ((language, parse) before or None, after or None)}``.

    Returns:
        ``(index, names, packages)``: the new index (give it to
        :meth:`RepoIndex.remember`) and what :func:`changed_names` of the two gives.
    """
    assert isinstance(before, _Packages)
    index = _Packages()
    index.owners = dict(before.owners)
    index.packages = defaultdict(list, before.packages)
    names: set[str] = set()
    packages: set[str] = set()
    for path, (old, new) in changes.items():
        for side, change in ((old, _without), (new, _with)):  # the old parse out first
            if side is None or side[0] not in _JVM:
                continue
            change(index.packages, side[1].package, path)
            packages.add(side[1].package)
            for name in _declared(path, side[1]):
                change(index.owners, name, path)
                names.add(name)
    index.fqn = dict(before.fqn)
    for name in names:
        owners = index.owners.get(name)
        if owners:
            index.fqn[name] = owners[0]
        else:
            index.fqn.pop(name, None)
    moved = frozenset(n for n in names if before.fqn.get(n) != index.fqn.get(n))
    regrouped = frozenset(p for p in packages if before.packages.get(p) != index.packages.get(p))
    return index, moved, regrouped


class Lookups:
    """Which JVM files may look up which names and packages (:func:`looks_up`,
    inverted): the files to resolve again when names or packages change, without
    going over every file. Updated with :meth:`add` and :meth:`discard`."""

    def __init__(self, code: Mapping[str, FileParse] | None = None) -> None:
        self.names: dict[str, set[str]] = {}
        self.packages: dict[str, set[str]] = {}
        for path, (language, parsed) in (code or {}).items():
            if language in _JVM:
                self.add(path, parsed)

    @staticmethod
    def _keys(parsed: Parsed) -> tuple[list[str], list[str]]:
        names: list[str] = []
        packages: list[str] = []
        for spec in parsed.imports:
            if spec.kind == "wildcard":
                packages.append(spec.target)
            prefix = spec.target  # as looks_up: the name, then without one and two parts
            for _ in range(3):
                names.append(prefix)
                prefix, dot, _last = prefix.rpartition(".")
                if not dot:
                    break
        return names, packages

    def add(self, path: str, parsed: Parsed) -> None:
        """Count ``path`` (a JVM file) with this parse."""
        names, packages = self._keys(parsed)
        for name in names:
            self.names.setdefault(name, set()).add(path)
        for package in packages:
            self.packages.setdefault(package, set()).add(path)

    def discard(self, path: str, parsed: Parsed) -> None:
        """Forget ``path`` as counted with this parse."""
        names, packages = self._keys(parsed)
        for table, keys in ((self.names, names), (self.packages, packages)):
            for key in keys:
                found = table.get(key)
                if found is not None:
                    found.discard(path)
                    if not found:
                        del table[key]

    def users(self, names: frozenset[str], packages: frozenset[str]) -> set[str]:
        """The files for which :func:`looks_up` of ``names`` and ``packages`` is True."""
        out: set[str] = set()
        for name in names:
            out.update(self.names.get(name, ()))
        for package in packages:
            out.update(self.packages.get(package, ()))
        return out


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
