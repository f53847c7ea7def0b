"""C, C++ and Objective-C: ``#include``/``#import`` by pattern.

``#include "x.h"`` is looked up next to the file, at the root, in ``include/`` and
``src/`` folders, and finally by path suffix anywhere in the repository (the closest
match to the including file wins), which is how build systems' include paths usually
end up. ``<x.h>`` skips the file's own folder; an unresolved ``<...>`` is a system or
third-party header.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.text import LineIndex, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse", "resolve"]

_TEMPLATE_HEAD = r"template\s*<[^>]{0,500}>\s*"
"""A template's head before a type; bounded, as each pattern's parts that may cross lines
are: an unclosed one (``template <`` on each of thousands of lines) scanned to the end
of the file from every line, in time quadratic in the file's size."""
_PARAMS = r"\((?:[^;{}()]|\((?:[^;{}()]|\([^;{}()]*\))*\))*\)"
r"""A parameter list, its parentheses balanced two levels deep (``int (*cb)(int)``,
``int x __attribute__((unused))``): it ends at its own closing parenthesis, where a
lazy ``\([^;{}]*?\)`` went on past every later one, to the end of a file of
``f(x)`` lines from each of them (quadratic)."""
_INCLUDE = re.compile(r"^[ \t]*#[ \t]*(?:include|import)[ \t]*([<\"])([^>\"\n]+)[>\"]", re.M)
_TYPE = re.compile(
    rf"^(?:typedef\s+)?(?:{_TEMPLATE_HEAD})?(struct|class|union|enum(?:\s+class)?)\s+"
    r"(?:\w+\s+)*?(\w+)\s*(?:final\s*)?(?:[:{]|$)",
    re.M,
)
_TYPEDEF = re.compile(r"^typedef\s++([^;{}()]{0,500}+);", re.M)
r"""A typedef up to its ``;``, its name the last word (:func:`_typedef_name`). Possessive:
a lazy body tried ``\b(\w+)\s*;`` at each of its 500 characters from every ``typedef``
line (3.7 s a MB of ``typedef`` lines), and ``\s+`` gave back each character of a run
of blank lines to it (a ``typedef`` before 200 kB of them: 4.5 s)."""
_TYPEDEF_BODY = re.compile(r"^[ \t]*typedef\s+(?:struct|union|enum)\b[^{};()]{0,200}\{", re.M)
"""A typedef of a struct, union or enum with its body (``typedef struct {``): its name
follows the body's closing brace (:func:`_typedef_bodies`)."""
_AFTER_BODY = re.compile(r"\s*(?:[A-Z][A-Z0-9_]*\s+)*(\w+)\s*[;,\[]")
_BRACE = re.compile(r"[{}]")
_WORD = re.compile(r"\w+")
_TEMPLATE_ARGS = r"(?:<[^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*>)"
"""A template's arguments in a qualified name, one level of nesting (``base_sink<Mutex>``,
``formatter<std::tm, Char>``)."""
_EXPORT_MACRO = r"(?:[A-Z][A-Z0-9_]*\([^()\n]{0,200}\)[ \t]*)?"
"""A macro that wraps a function's return type (``CJSON_PUBLIC(cJSON *) cJSON_Parse(``,
``PHP_FUNCTION``-style export macros), before its other words."""
_FUNCTION = re.compile(
    r"^(?!(?:if|for|while|switch|return|else|do|case|typedef|using|namespace|static_assert)\b)"
    rf"{_EXPORT_MACRO}(?:[A-Za-z_][\w \t\*&:<>,~]*?[ \t\*&])?"
    rf"((?:[A-Za-z_]\w*{_TEMPLATE_ARGS}?::)*~?[A-Za-z_]\w*)[ \t]*{_PARAMS}"
    rf"(?>(?:\s*[A-Za-z_]\w*\s*{_PARAMS}){{0,4}})\s*"  # throw(), __attribute__((x))
    r"(?:const\s*)?"
    r"(?:noexcept\s*)?\{",
    re.M,
)
_TEMPLATE_ARGS_RE = re.compile(_TEMPLATE_ARGS)
_CPP_SYNTAX = re.compile(r"\w::[~A-Za-z_]|^[ \t]*(?:namespace\s+\w|template\s*<|class\s+\w)", re.M)
"""C++ in a file: a qualified name, a namespace, a template or a class. A ``.h`` file is
mapped as C (its extension says no more), and a C++ project's headers hold most of its
definitions, indented inside namespaces and class bodies."""
_CPP_TYPE = re.compile(
    rf"^[ \t]*(?:{_TEMPLATE_HEAD})?(struct|class|union|enum(?:\s+class)?)\s+"
    r"(?:\w+\s+)*?(\w+)\s*(?:final\s*)?(?:[:{]|$)",
    re.M,
)
_INIT = r"[\w:<>.]+\s*(?:\((?:[^;{}()]|\([^;{}()]*\))*\)|\{[^;{}]*\})"
"""One member initialiser of a constructor (``formatter_{std::move(f)}``, ``a_(x)``)."""
_CPP_FUNCTION = re.compile(
    r"^[ \t]*(?!(?:if|for|while|switch|return|else|do|case|catch|typedef|using|namespace"
    r"|static_assert|throw|new|delete|sizeof|co_return|co_await|co_yield)\b)"
    rf"{_EXPORT_MACRO}(?:[A-Za-z_][\w \t\*&:<>,~]*?[ \t\*&])?"
    rf"((?:[A-Za-z_]\w*{_TEMPLATE_ARGS}?::)*~?[A-Za-z_]\w*)[ \t]*"
    r"\((?:[^;{}()]|\([^;{}()]*\))*\)\s*"  # balanced: a call's lambda argument is no body
    # qualifiers, and macros that stand for them (``FMT_NOEXCEPT``); atomic: a word
    # taken here is never wanted later, and no input backtracks through it; at most
    # eight, as a file of macro calls (``F(X)`` lines) was otherwise read on to its end
    # from each of its lines (quadratic)
    r"(?>(?:(?:const|volatile|override|final|noexcept|[A-Z][A-Z0-9_]*)\b"
    r"(?:\([^;{}()]*\))?\s*|&+\s*){0,8})"
    r"(?:->\s*[^;{}=()]+?\s*)?"
    rf"(?>:\s*{_INIT}(?:\s*,\s*{_INIT})*\s*)?\{{",
    re.M,
)
"""A C++ function or member definition at any indentation, with what may stand between
its parameters and its body: qualifiers, a trailing return type, a constructor's
member initialisers."""
_MACRO_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def _qualified(name: str) -> str:
    """A C++ qualified name as the other languages' members read: template arguments
    dropped, ``::`` as ``.`` (``spdlog::sinks::base_sink<Mutex>::flush`` →
    ``spdlog.sinks.base_sink.flush``), so that its last part is a name of its own
    (:func:`rubi.graph.code.symbol_names`, :func:`rubi.codemap.symbol_text`)."""
    return _TEMPLATE_ARGS_RE.sub("", name).replace("::", ".") if ":" in name else name


def _typedef_name(body: str) -> str | None:
    """The word that ends a typedef's body (before its ``;``, spaces allowed), or None
    (``typedef int *;``)."""
    word = _WORD.match(body.rstrip()[::-1])  # read from the end: no try at each start
    return word.group()[::-1] if word else None


def _typedef_bodies(code: str) -> list[tuple[str, int]]:
    """``(name, offset)`` of each typedef'd struct, union or enum body
    (``typedef struct { … } parse_buffer;``): the word after the brace that closes it.
    The braces are matched in one pass over the file (time linear in its size); a body
    that never closes names nothing."""
    heads = {m.end() - 1: m.start() for m in _TYPEDEF_BODY.finditer(code)}
    if not heads:
        return []
    out: list[tuple[str, int]] = []
    open_at: list[int] = []
    for brace in _BRACE.finditer(code):
        if brace.group() == "{":
            open_at.append(brace.start())
        elif open_at:
            opened = open_at.pop()
            if opened in heads:
                name = _AFTER_BODY.match(code, brace.end())
                if name:
                    out.append((name.group(1), heads[opened]))
    return out


def parse(text: str) -> Parsed:
    """Parse a C/C++/Objective-C file.

    Returns:
        Imports (kind ``quote`` or ``angle``, target the header path), and
        structs/classes/unions/enums, typedefs and functions defined at column 0.
    """
    code = strip_comments(text, "c")
    lines = LineIndex(code)
    imports = [
        ImportSpec("quote" if m.group(1) == '"' else "angle", m.group(2).strip())
        for m in _INCLUDE.finditer(code)
    ]
    cpp = _CPP_SYNTAX.search(code) is not None
    symbols = [
        Symbol(m.group(2), m.group(1).split()[0], lines.line(m.start()))
        for m in (_CPP_TYPE if cpp else _TYPE).finditer(code)
    ]
    symbols += [
        Symbol(name, "type", lines.line(m.start()))
        for m in _TYPEDEF.finditer(code)
        if (name := _typedef_name(m.group(1)))
    ]
    symbols += [Symbol(name, "type", lines.line(at)) for name, at in _typedef_bodies(code)]
    symbols += [
        Symbol(_qualified(m.group(1)), "function", lines.line(m.start()))
        for m in (_CPP_FUNCTION if cpp else _FUNCTION).finditer(code)
        # an indented call of a macro before a block (``SPDLOG_TRY {``, ``TEST(a, b) {``)
        if not (cpp and _MACRO_NAME.fullmatch(m.group(1)))
    ]
    symbols.sort(key=lambda s: (s.line, s.name))
    unique: dict[str, Symbol] = {}
    for symbol in symbols:
        unique.setdefault(symbol.name, symbol)
    return Parsed(imports=tuple(imports), symbols=tuple(unique.values()))


class _Headers:
    """Include folders and every code file by name, for suffix matching."""

    def __init__(self, repo: RepoIndex) -> None:
        self.include_dirs = sorted(
            {d for d in repo.dirs if posixpath.basename(d) in ("include", "src", "inc")},
            key=lambda d: (d.count("/"), d),
        )
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for path in sorted(repo.code):
            self.by_name[posixpath.basename(path)].append(path)


def _common_prefix(a: str, b: str) -> int:
    return len(posixpath.commonpath([a, b])) if a and b else 0


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve includes to repository headers.

    Returns:
        Targets; an unresolved ``"x.h"`` is external as written; an unresolved
        ``<lib/x.h>`` is external by its first folder; ``<stdio.h>`` is left out.
    """
    index = repo.memo("cfamily", _Headers)
    folder = posixpath.dirname(path)
    result = Resolution()
    for spec in parsed.imports:
        bases = ([folder] if spec.kind == "quote" else []) + [""] + index.include_dirs
        found = None
        for base in bases:
            candidate = join_path(base, spec.target)
            if candidate and repo.is_code(candidate):
                found = candidate
                break
        if found is None:
            suffix = "/" + spec.target.lstrip("./")
            matches = [
                p
                for p in index.by_name.get(posixpath.basename(spec.target), [])
                if p.endswith(suffix)
            ]
            if matches:
                found = min(matches, key=lambda p: (-_common_prefix(p, path), len(p), p))
        if found:
            if found != path:
                result.add([found])
        elif spec.kind == "quote":
            result.external.add(spec.target)
        elif "/" in spec.target:
            result.external.add(spec.target.split("/")[0])
    return result
