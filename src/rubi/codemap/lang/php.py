"""PHP: namespaces, ``use`` and ``require``/``include`` by pattern.

A ``use`` of a class resolves to the file that declares it (namespace + class name),
else through the PSR-4 prefixes of every ``composer.json``; ``require __DIR__ . '/x.php'``
and friends resolve relative to the file, then to the repository root.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.text import LineIndex, blank_strings, identifiers, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse", "resolve"]

_NAMESPACE = re.compile(r"^[^\S\n]*namespace\s+([\w\\]+)\s*[;{]", re.M)
_USE = re.compile(
    r"^[^\S\n]*use\s+(?:function\s+|const\s+)?\\?([\w\\]+?)\\?"
    r"(?:\{([^}]*)\})?(?:\s+as\s+\w+)?\s*;",
    re.M,
)
_REQUIRE = re.compile(
    r"\b(?:require|require_once|include|include_once)\s*\(?\s*"
    r"(__DIR__\s*\.\s*|dirname\(__FILE__\)\s*\.\s*)?(['\"])([^'\"\n]+)\2"
)
_TYPE = re.compile(
    r"^[ \t]{0,4}(?:(?:abstract|final|readonly)\s+)*(class|interface|trait|enum)\s+(\w+)", re.M
)
_FUNCTION = re.compile(r"^[ \t]{0,4}function\s+&?\s*(\w+)", re.M)
_METHOD = re.compile(
    r"^[ \t]{4,8}(?:(?:public|protected|static|final|abstract)\s+)+function\s+&?\s*(\w+)", re.M
)
_KEYWORDS = frozenset(
    [
        "abstract",
        "class",
        "function",
        "public",
        "private",
        "protected",
        "static",
        "return",
        "new",
        "use",
        "namespace",
        "extends",
        "implements",
        "interface",
        "trait",
        "enum",
        "const",
        "self",
        "parent",
        "null",
        "true",
        "false",
    ]
)


def parse(text: str) -> Parsed:
    """Parse a PHP file.

    Returns:
        The namespace (as ``package``), imports (kind ``use`` with the class name,
        group uses expanded; kind ``require`` with the path, ``names=("dir",)`` when
        written relative to ``__DIR__``), classes/interfaces/traits/enums, functions,
        public/protected methods (``Class.method``), and identifiers.
    """
    code = strip_comments(text, "php")
    lines = LineIndex(code)
    namespace = _NAMESPACE.search(code)
    imports: list[ImportSpec] = []
    for match in _USE.finditer(code):
        base = match.group(1)
        if match.group(2) is None:
            imports.append(ImportSpec("use", base))
            continue
        for item in match.group(2).split(","):
            name = item.strip().split(" as ")[0].strip()
            if name:
                imports.append(ImportSpec("use", f"{base.rstrip(chr(92))}\\{name}"))
    for match in _REQUIRE.finditer(code):
        names = ("dir",) if match.group(1) else ()
        imports.append(ImportSpec("require", match.group(3), names))
    symbols = [Symbol(m.group(2), m.group(1), lines.line(m.start())) for m in _TYPE.finditer(code)]
    symbols += [
        Symbol(m.group(1), "function", lines.line(m.start())) for m in _FUNCTION.finditer(code)
    ]
    if symbols and symbols[0].kind != "function":
        owner = symbols[0].name
        symbols += [
            Symbol(f"{owner}.{m.group(1)}", "method", lines.line(m.start()))
            for m in _METHOD.finditer(code)
        ]
    symbols.sort(key=lambda s: (s.line, s.name))
    return Parsed(
        imports=tuple(imports),
        symbols=tuple(symbols),
        package=namespace.group(1) if namespace else "",
        idents=identifiers(blank_strings(text, "php"), _KEYWORDS),
    )


class _Classes:
    """Declared names (``Ns\\Class``) and PSR-4 prefixes."""

    def __init__(self, repo: RepoIndex) -> None:
        self.fqn: dict[str, str] = {}
        for path, (language, parsed) in sorted(repo.code.items()):
            if language != "php":
                continue
            prefix = parsed.package + "\\" if parsed.package else ""
            for symbol in parsed.symbols:
                if "." not in symbol.name:
                    self.fqn.setdefault((prefix + symbol.name).lower(), path)
        self.psr4: list[tuple[str, str]] = []
        for manifest in repo.listed_named("composer.json"):
            data = repo.read_json(manifest)
            folder = posixpath.dirname(manifest)
            for section in ("autoload", "autoload-dev"):
                table: Any = (data or {}).get(section, {})
                mapping = table.get("psr-4", {}) if isinstance(table, dict) else {}
                for prefix, dirs in mapping.items() if isinstance(mapping, dict) else []:
                    for d in (
                        [dirs] if isinstance(dirs, str) else dirs if isinstance(dirs, list) else []
                    ):
                        target = join_path(folder, str(d).rstrip("/")) if d else folder
                        if target is not None:
                            self.psr4.append((str(prefix), target))
        self.psr4.sort(key=lambda item: (-len(item[0]), item[1]))


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve PHP imports.

    Returns:
        Targets; unresolved namespaced classes are external by their first two
        namespace segments (``Symfony\\Component``); global names (``Exception``) are
        PHP's own and left out; unresolved requires are external as written.
    """
    index = repo.memo("php", _Classes)
    folder = posixpath.dirname(path)
    result = Resolution()
    for spec in parsed.imports:
        if spec.kind == "require":
            bases = [folder] if spec.names else [folder, ""]
            rel = spec.target.lstrip("/") if spec.names else spec.target  # __DIR__ . '/x'
            found = [j for b in bases if (j := join_path(b, rel)) and repo.is_code(j)]
            if found:
                result.add(found[:1])
            elif "$" not in spec.target:
                result.external.add(spec.target)
            continue
        name = spec.target.strip("\\")
        found_path = index.fqn.get(name.lower())
        if found_path is None and parsed.package:  # a trait used inside a class body
            found_path = index.fqn.get(f"{parsed.package}\\{name}".lower())
        if found_path is None:
            for prefix, target in index.psr4:
                if name.startswith(prefix.rstrip("\\") + "\\") or (name + "\\") == prefix:
                    rest = name[len(prefix.rstrip("\\")) + 1 :].replace("\\", "/")
                    candidate = join_path(target, rest + ".php")
                    if candidate and repo.is_code(candidate):
                        found_path = candidate
                        break
        if found_path:
            if found_path != path:
                result.add([found_path])
        elif "\\" in name:
            result.external.add("\\".join(name.split("\\")[:2]))
    return result
