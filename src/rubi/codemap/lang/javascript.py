"""JavaScript and TypeScript (also .vue/.svelte scripts): imports and symbols by pattern.

Comments are removed first (keeping strings), so an ``import`` in a JSDoc example is
not an import. Covered: ``import … from``, bare ``import '…'``, ``export … from``,
``require('…')``, ``import('…')`` and ``import x = require('…')``. Symbols are the
declarations that start a line (top level), exported or not, plus ``export { a, b }``
names, the methods of top-level classes (``export class``, ``module.exports = class``)
and of top-level object literals a module is made of (``module.exports = {``).
Resolution is in :mod:`.jsresolve`.
"""

from __future__ import annotations

import bisect
import re

from rubi.codemap.lang.text import LineIndex, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse"]

_Q = r"""(?P<q>['"])(?P<spec>[^'"\n]+)(?P=q)"""
_IMPORT_PATTERNS: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "import": (
        (
            "import",
            re.compile(
                r"import\s+(?:type\s+)?(?P<clause>(?:(?!(?<![\w$])import\b)[\w*${}\s,])+?)"
                r"\s*\bfrom\s*" + _Q
            ),
        ),
        ("import", re.compile(r"import\s*" + _Q)),
        ("dynamic", re.compile(r"import\s*\(\s*" + _Q)),
    ),
    "export": (
        (
            "export",
            re.compile(
                r"export\s+(?:type\s+)?(?P<clause>\*(?:\s+as\s+[\w$]+)?|\{[^{}]*\})\s*from\s*" + _Q
            ),
        ),
    ),
    "require": (("require", re.compile(r"require\s*\(\s*" + _Q + r"\s*\)")),),
}
"""Patterns tried where each keyword occurs (found with ``str.find``, which is much
faster than letting a regex scan for a look-behind at every position). A clause stops
at the next ``import`` keyword and at a ``{`` inside braces: scanning on to the end of
the file from each of thousands of ``import`` lines without ``from`` was quadratic."""


def _names(clause: str, kind: str) -> tuple[str, ...]:
    """Names an import or re-export takes from its module: ``{ a, b as c }`` → a, b;
    ``* as ns`` of an import → none (the whole module); ``export * from`` → ``*``;
    ``export * as ns from`` → ``ns`` (a name that stands for the whole module)."""
    clause = clause.strip()
    if clause == "*":
        return ("*",)
    if kind == "export" and clause.startswith("*"):
        return (clause.rsplit(None, 1)[-1],)
    if "{" not in clause:
        return ()
    inner = clause[clause.index("{") + 1 : clause.rfind("}") if "}" in clause else None]
    names = []
    for item in inner.split(","):
        name = item.strip().removeprefix("type ").split(" as ")[0].strip()
        if name and name != "default":
            names.append(name)
    return tuple(names)


_STRING = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'")


def _keyword_offsets(code: str, keyword: str, strings: list[tuple[int, int]]) -> list[int]:
    """Offsets of ``keyword`` not preceded by an identifier character or a dot, and
    not inside a string literal (test code often holds source in strings)."""
    starts = [span[0] for span in strings]
    out: list[int] = []
    start = code.find(keyword)
    while start >= 0:
        before = code[start - 1] if start else " "
        inside = bisect.bisect_right(starts, start) - 1
        in_string = inside >= 0 and strings[inside][1] > start
        if not (before.isalnum() or before in "_$.") and not in_string:
            out.append(start)
        start = code.find(keyword, start + len(keyword))
    return out


_SYMBOL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "function",
        re.compile(r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)", re.M),
    ),
    (
        "class",
        re.compile(
            r"^(?:module\.exports\s*=\s*)?(?:export\s+)?(?:default\s+)?(?:declare\s+)?"
            r"(?:abstract\s+)?class\s+([\w$]+)",
            re.M,
        ),
    ),
    ("const", re.compile(r"^export\s+(?:declare\s+)?const\s+(?!enum\b)([\w$]+)", re.M)),
    (
        "function",
        re.compile(
            r"^(?:const|let|var)\s+([\w$]+)[^\S\n]*(?::[^=\n]*)?=[^\S\n]*(?:async\s+)?"
            r"(?:function\b|(?:\((?:[^()]|\([^()]*\))*\)|[\w$]+)\s*(?::[^=\n{]*)?=>)",
            re.M,
        ),
    ),
    ("variable", re.compile(r"^export\s+(?:declare\s+)?(?:let|var)\s+([\w$]+)", re.M)),
    ("type", re.compile(r"^(?:export\s+)?(?:declare\s+)?type\s+([\w$]+)\s*[=<]", re.M)),
    ("interface", re.compile(r"^(?:export\s+)?(?:declare\s+)?interface\s+([\w$]+)", re.M)),
    ("enum", re.compile(r"^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([\w$]+)", re.M)),
    ("namespace", re.compile(r"^(?:export\s+)?(?:declare\s+)?namespace\s+([\w$.]+)", re.M)),
    ("variable", re.compile(r"^(?:module\.)?exports\.([\w$]+)\s*=", re.M)),
)
_EXPORT_WORD = re.compile(r"export\s")
_DECLARATOR = re.compile(r"\s*([\w$]+)[^\S\n]*(?=[:=,;!]|$)", re.M)
_TOP_LEVEL = re.compile(r"[\w$@]")
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


_TOKEN = re.compile(r"""(['"`])(?:\\.|(?!\1)[^\\\n])*\1?|=>|[=!<>]=|[\n()\[\]{}<>;,=/]""")
_REGEX = re.compile(r"/(?![/*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+/[A-Za-z]*")
"""A regular expression literal (``/[/,]x = 1/g``), whose commas, brackets and ``=``
are no declarators'."""
_REGEX_CHARS = 200
"""The longest regular expression literal read as one (a longer one is read as before,
token by token): each ``(/[`` of a line looked for its end to the line's end (a line
of 7,000, 2 s)."""
_BEFORE_REGEX = frozenset("=(,[!&|?:{};+-*%<>~^")
"""What a ``/`` starting a regular expression literal follows (after a name, a
number or a closing bracket it divides)."""


def _statement_ends(code: str, at: int, nested: bool) -> bool:
    """Whether the line end at ``at`` ends the declaration: the next line starts a new
    statement (a word at its first column), or nothing is open and the line does not
    end in ``,`` or ``=``."""
    if _TOP_LEVEL.match(code, at + 1):
        return True
    return not nested and code[max(0, at - 200) : at].rstrip()[-1:] not in (",", "=")


def _more_declarators(code: str, start: int) -> list[tuple[str, int]]:
    """The names after the first of ``export const a = 1, b = 2``: commas outside
    brackets, strings and type arguments (``Map<K, V>`` before the ``=``), up to the
    statement's end (:func:`_statement_ends`, ``;``)."""
    names: list[tuple[str, int]] = []
    depth = angle = 0
    init = False
    end = min(len(code), start + 20_000)
    at = start
    while (token := _TOKEN.search(code, at, end)) is not None:
        at, text = token.end(), token.group()
        if text == "/":
            before = code[max(0, token.start() - 200) : token.start()].rstrip()[-1:]
            reach = min(end, token.start() + _REGEX_CHARS)
            literal = _REGEX.match(code, token.start(), reach) if before in _BEFORE_REGEX else None
            at = literal.end() if literal else at
        elif text == "\n":
            if _statement_ends(code, token.start(), bool(depth or angle)):
                break
        elif text in _BRACKETS:
            depth += _BRACKETS[text]
            if depth < 0:
                break
        elif depth or text[0] in "'\"`":
            continue
        elif text in ("<", ">"):  # a type's arguments, before the ``=``
            angle = max(angle + (text == "<" and not init) - (text == ">"), 0)
        elif angle:
            continue
        elif text == ";":
            break
        elif text == "=":
            init = True
        elif text == ",":
            match = _DECLARATOR.match(code, token.end())
            if match is None:
                break
            names.append((match.group(1), match.start(1)))
            init = False
    return names


def _declared_with(code: str, match: re.Match[str], kind: str) -> list[tuple[str, int]]:
    """The further names of an exported ``const``/``let``/``var`` list (none for others)."""
    if kind not in ("const", "variable") or not _EXPORT_WORD.match(code, match.start()):
        return []
    return _more_declarators(code, match.end())


_EXPORT_LIST = re.compile(r"^export\s*\{([^{}]*)\}\s*(?!\s*from)(?:;|$)", re.M)
_CLASS_LINE = re.compile(
    r"^(?:module\.exports\s*=\s*)?(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?"
    r"class\s+([\w$]+)"
)
_METHOD_LINE = re.compile(
    r"(?:(?:public|protected|private|static|async|get|set|readonly|override|abstract"
    r"|declare)\s+)*\*?\s*#?(?!(?:if|for|while|switch|return|constructor|catch|function)\b)"
    r"([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\s*\("
)
"""A method declaration after its line's indentation, which must be the first
member's (:func:`_methods`): in a file indented by two spaces, a statement four deep
(``    super()``, ``    debug('listen')``) is no method."""


_OBJECT_LINE = re.compile(
    r"^(?:(?:const|let|var)\s+([\w$]+)\s*=\s*)?(module\.exports\s*=\s*|export\s+default\s+)?\{$"
)
"""A top-level object literal a module is made of, opened on its own line:
``module.exports = {``, ``export default {``, ``const proto = module.exports = {``,
``const helpers = {`` (group 1: the variable, the methods' owner when there is one)."""
_PROPERTY_FUNCTION = re.compile(
    r"([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>)"
)
"""An object literal's function-valued property (``name: function (…) {``, ``name:
(…) =>``)."""


def _object_head(line: str) -> str | None:
    """The owner of the methods of a top-level object literal opened on ``line``
    ("" for ``module.exports = {`` and ``export default {``), or None."""
    match = _OBJECT_LINE.match(line.rstrip())
    if match is None or not (match.group(1) or match.group(2)):
        return None
    return match.group(1) or ""


def _methods(code: str) -> list[Symbol]:
    """Methods one indent deep inside top-level classes (``Class.method``) and
    top-level object literals (``proto.method``; a bare ``method`` for the object a
    module exports: ``module.exports = {``, ``export default {``), getters and
    setters included."""
    out: list[Symbol] = []
    current: str | None = None
    literal = False
    indent = ""  # the first member's indentation ("" until it is seen)
    for number, line in enumerate(code.split("\n"), start=1):
        if not line.strip():
            continue
        head = _CLASS_LINE.match(line)
        if head:
            current, literal, indent = head.group(1), False, ""
            continue
        owner = _object_head(line)
        if owner is not None:
            current, literal, indent = owner, True, ""
            continue
        if line.startswith("}"):
            current = None
            continue
        if line.startswith("`"):
            continue  # the end of a template literal (emptied), not the class's end
        if current is not None and not line[0].isspace():
            current = None
        if current is None:
            continue
        indent = indent or line[: len(line) - len(line.lstrip())]
        if not line.startswith(indent) or line[len(indent)].isspace():
            continue  # deeper than a member: a statement of a method's body
        match = _METHOD_LINE.match(line, len(indent))
        if literal:
            match = _PROPERTY_FUNCTION.match(line, len(indent)) or (
                match if match and line.rstrip().endswith("{") else None
            )
        if match and not line.rstrip().endswith(";"):
            name = match.group(1)
            out.append(Symbol(f"{current}.{name}" if current else name, "method", number))
    return out


def parse(text: str) -> Parsed:
    """Parse a JavaScript/TypeScript file.

    Args:
        text: the decoded source.

    Returns:
        Imports in source order (kinds ``import``, ``export``, ``require``,
        ``dynamic``; target is the specifier as written; names are those taken in
        braces, ``("*",)`` for ``export * from``) and symbols in line order.
    """
    code = strip_comments(text, "c", blank_templates=True)
    lines = LineIndex(code)
    found: list[tuple[int, ImportSpec]] = []
    strings = [m.span() for m in _STRING.finditer(code)]
    for keyword, patterns in _IMPORT_PATTERNS.items():
        for offset in _keyword_offsets(code, keyword, strings):
            for kind, pattern in patterns:
                match = pattern.match(code, offset)
                if match:
                    taken = _names(match.groupdict().get("clause") or "", kind)
                    found.append((offset, ImportSpec(kind, match.group("spec"), taken)))
                    break
    found.sort(key=lambda item: item[0])
    symbols: list[Symbol] = []
    names: set[str] = set()
    for kind, pattern in _SYMBOL_PATTERNS:
        for match in pattern.finditer(code):
            name = match.group(1)
            if name not in names:
                names.add(name)
                symbols.append(Symbol(name, kind, lines.line(match.start())))
            for more, at in _declared_with(code, match, kind):
                if more not in names:
                    names.add(more)
                    symbols.append(Symbol(more, kind, lines.line(at)))
    for match in _EXPORT_LIST.finditer(code):
        for item in match.group(1).split(","):
            name = item.split(" as ")[-1].strip()
            if name.startswith("type "):
                name = name[5:].strip()
            if re.fullmatch(r"[\w$]+", name) and name not in names and name != "default":
                names.add(name)
                symbols.append(Symbol(name, "variable", lines.line(match.start())))
    symbols.extend(_methods(code))
    symbols.sort(key=lambda s: (s.line, s.name))
    return Parsed(imports=tuple(spec for _, spec in found), symbols=tuple(symbols))
