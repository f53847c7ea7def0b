"""Per-language parsers (bytes → :class:`~rubi.codemap.model.Parsed`, path-independent,
so cacheable by content) and resolvers (specifiers → repository files)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rubi.codemap.lang import (
    cfamily,
    dart,
    golang,
    javascript,
    jsresolve,
    jvm,
    php,
    python,
    ruby,
    rust,
    styles,
    swift,
)
from rubi.codemap.lang.base import RepoIndex, Resolution
from rubi.codemap.lang.scope import scope_edges
from rubi.codemap.model import Parsed

__all__ = [
    "PARSER_VERSION",
    "RepoIndex",
    "Resolution",
    "parse_source",
    "resolve_file",
    "scope_edges",
]

PARSER_VERSION = 8
"""Bump when any parser's output changes: cached parses of older versions are dropped
(and bump :data:`rubi.codemap.modules.RESOLVER_VERSION` with it, so that a saved map of
unchanged files is mapped again). 6: C++ members by their own name (``a::B::f`` read as
``a.B.f``, template arguments dropped) and C++ definitions at any indentation.
7: C and C++ patterns bounded (a parameter list balanced two levels deep, at most eight
qualifier macros, a template head or typedef of at most 500 characters): the same
symbols on 270 files of spdlog, hiredis and fmt, other output only on such edge cases.
8: Kotlin members (``Owner.method``, nested types, a companion's members as the
owner's; annotations on a declaration's line), C/C++ functions whose return type an
export macro wraps (``CJSON_PUBLIC(cJSON *) cJSON_Parse(``), JavaScript/TypeScript
``private``, ``#name`` and generator methods and top-level ``const f = (…) =>``; Dart
functions with named parameters, named constructors and factories (``Option._``), no
``if``/``for``/``Function`` read as a function; C/C++ typedefs of a struct, union or
enum body named after the body (``typedef struct { … } parse_buffer;``)."""

_PARSERS: dict[str, Callable[[str], Parsed]] = {
    "python": python.parse,
    "javascript": javascript.parse,
    "typescript": javascript.parse,
    "go": golang.parse,
    "rust": rust.parse,
    "java": partial(jvm.parse, language="java"),
    "kotlin": partial(jvm.parse, language="kotlin"),
    "php": php.parse,
    "ruby": ruby.parse,
    "c": cfamily.parse,
    "cpp": cfamily.parse,
    "objc": cfamily.parse,
    "css": styles.parse,
    "scss": styles.parse,
    "less": styles.parse,
    "dart": dart.parse,
    "swift": swift.parse,
}

_RESOLVERS: dict[str, Callable[[str, Parsed, RepoIndex], Resolution]] = {
    "python": python.resolve,
    "javascript": jsresolve.resolve,
    "typescript": jsresolve.resolve,
    "go": golang.resolve,
    "rust": rust.resolve,
    "java": jvm.resolve,
    "kotlin": jvm.resolve,
    "php": php.resolve,
    "ruby": ruby.resolve,
    "c": cfamily.resolve,
    "cpp": cfamily.resolve,
    "objc": cfamily.resolve,
    "css": styles.resolve,
    "scss": styles.resolve,
    "less": styles.resolve,
    "dart": dart.resolve,
}


def parse_source(language: str, text: str) -> Parsed:
    """Parse a decoded file of ``language``; languages without a parser give an empty
    :class:`Parsed`."""
    parser = _PARSERS.get(language)
    return parser(text) if parser else Parsed()


def resolve_file(language: str, path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve one file's imports; languages without a resolver give no targets."""
    resolver = _RESOLVERS.get(language)
    return resolver(path, parsed, repo) if resolver else Resolution()
