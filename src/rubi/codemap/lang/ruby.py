"""Ruby: ``require_relative``, ``require``, ``load`` and ``autoload`` by pattern.

``require_relative 'x'`` is relative to the file; ``require 'x'`` is tried on the load
paths a repository usually sets up (``lib/`` of the root and of each gem folder, then
the root); anything else is a gem, external by its first path segment.
"""

from __future__ import annotations

import posixpath
import re

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse", "resolve"]

_REQUIRE = re.compile(r"^[ \t]*(require_relative|require|load)[ \t(]+['\"]([^'\"\n]+)['\"]", re.M)
_AUTOLOAD = re.compile(r"\bautoload[ \t(]+:\w+[ \t]*,[ \t]*['\"]([^'\"\n]+)['\"]")
_TYPE = re.compile(r"^([ \t]*)(class|module)[ \t]+([A-Z][\w:]*)", re.M)
_DEF = re.compile(r"^([ \t]*)def[ \t]+(?:self\.)?([\w]+[?!=]?)", re.M)
_SINGLETON = re.compile(r"^([ \t]*)class[ \t]*<<[ \t]*self\b", re.M)
"""``class << self``: the methods in it are the enclosing class's or module's own."""
_MAX_DEF_INDENT = 8
"""Deepest method recorded (in columns): a class three namespaces deep with its
``class << self`` block (``module Jekyll``, ``module Commands``, ``class Serve``)."""
_STDLIB = frozenset(
    [
        "set",
        "json",
        "yaml",
        "time",
        "date",
        "fileutils",
        "pathname",
        "tempfile",
        "securerandom",
        "digest",
        "open3",
        "optparse",
        "logger",
        "erb",
        "uri",
        "net",
        "stringio",
        "benchmark",
        "forwardable",
        "singleton",
        "ostruct",
        "english",
        "pp",
        "socket",
        "timeout",
        "zlib",
        "csv",
        "base64",
        "openssl",
        "shellwords",
        "rbconfig",
        "etc",
        "find",
        "delegate",
        "observer",
        "monitor",
        "tmpdir",
        "io",
        "English",
        "strscan",
        "ripper",
        "coverage",
        "objspace",
    ]
)


def parse(text: str) -> Parsed:
    """Parse a Ruby file.

    Returns:
        Imports (kinds ``require_relative``, ``require``, ``load``, ``autoload``),
        classes and modules (nesting up to two levels), top-level methods and methods
        one level inside a class or module or inside its ``class << self``
        (``Class.method``), at most :data:`_MAX_DEF_INDENT` columns deep.
    """
    imports = [ImportSpec(m.group(1), m.group(2)) for m in _REQUIRE.finditer(text)]
    imports += [ImportSpec("autoload", m.group(1)) for m in _AUTOLOAD.finditer(text)]
    symbols: list[Symbol] = []
    owners: list[tuple[int, str]] = []
    events = sorted(
        [(m.start(), "type", m) for m in _TYPE.finditer(text)]
        + [(m.start(), "self", m) for m in _SINGLETON.finditer(text)]
        + [(m.start(), "def", m) for m in _DEF.finditer(text)],
        key=lambda e: e[0],
    )
    line = 1
    last = 0
    for start, kind, match in events:
        line += text.count("\n", last, start)
        last = start
        indent = len(match.group(1).expandtabs(2))
        while owners and owners[-1][0] >= indent:
            owners.pop()
        if kind == "type":
            if indent <= 4:
                symbols.append(Symbol(match.group(3), match.group(2), line))
            owners.append((indent, match.group(3)))
        elif kind == "self":
            if owners:  # the methods inside belong to the enclosing class or module
                owners.append((indent, owners[-1][1]))
        elif not owners and indent == 0:
            symbols.append(Symbol(match.group(2), "function", line))
        elif owners and indent <= owners[-1][0] + 2 and indent <= _MAX_DEF_INDENT:
            symbols.append(Symbol(f"{owners[-1][1]}.{match.group(2)}", "method", line))
    return Parsed(imports=tuple(imports), symbols=tuple(symbols))


def _load_paths(repo: RepoIndex) -> list[str]:
    gems = sorted(
        {
            posixpath.dirname(p)
            for p in repo.listed
            if p.endswith(".gemspec") or p.endswith("/Gemfile")
        }
    )
    paths = ["lib"] + [f"{g}/lib" for g in gems if g] + [""]
    return list(dict.fromkeys(paths))


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve Ruby requires.

    Returns:
        Targets; unresolved ``require`` of a non-standard library is external by its
        first segment (the gem); an unresolved ``require_relative`` is external as written.
    """
    folder = posixpath.dirname(path)
    result = Resolution()
    for spec in parsed.imports:
        target = spec.target if spec.target.endswith(".rb") else spec.target + ".rb"
        bases = [folder] if spec.kind == "require_relative" else repo.memo("ruby", _load_paths)
        if spec.kind == "load":
            bases = [folder, ""]
        found = None
        for base in bases:
            candidate = join_path(base, target)
            if candidate and repo.is_code(candidate):
                found = candidate
                break
        if found:
            if found != path:
                result.add([found])
        elif spec.kind == "require_relative":
            result.external.add(spec.target)
        else:
            gem = spec.target.split("/")[0]
            if gem not in _STDLIB:
                result.external.add(gem)
    return result
