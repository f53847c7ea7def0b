"""References between files of one package that need no import.

Go files of a package, Java/Kotlin classes of a package and PHP classes of a
namespace use each other's names directly. Without these edges every Go package
would be a set of unconnected files (``cobra``'s ``command.go`` would rank like any
other). A file that uses a name defined in another file of its package gets an edge
whose weight grows with the number of distinct names it uses there.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Mapping

from rubi.codemap.model import Parsed

__all__ = [
    "SCOPE_WEIGHT_PER_NAME",
    "ScopeKey",
    "group_edges",
    "scope_edges",
    "scope_groups",
    "scope_key",
]

SCOPE_WEIGHT_PER_NAME = 0.25
"""Weight of a same-package edge per distinct name used, capped at 1 (an import):
one shared name may be a coincidence (``String``), four are a dependency."""

_CLASS_KINDS = frozenset({"class", "interface", "enum", "trait", "record", "object", "annotation"})
_KOTLIN_TOP = _CLASS_KINDS | {"function", "const", "variable", "type"}


ScopeKey = tuple[str, str]
"""A package's identity for same-package references: ``(kind, package)``."""


def scope_key(path: str, language: str, parsed: Parsed) -> ScopeKey | None:
    """The package whose names ``path`` sees without importing them, when it takes
    part in same-package references (a Go, Java, Kotlin or PHP file that uses
    identifiers); None otherwise."""
    if not parsed.idents:
        return None
    return _scope_key(path, language, parsed)


def _scope_key(path: str, language: str, parsed: Parsed) -> ScopeKey | None:
    if not parsed.package and language != "go":
        return None
    if language == "go":
        return ("go:" + posixpath.dirname(path), parsed.package) if parsed.package else None
    if language in ("java", "kotlin"):
        return ("jvm", parsed.package)
    if language == "php":
        return ("php", parsed.package)
    return None


def _names(language: str, parsed: Parsed) -> set[str]:
    if language == "go":
        return {
            s.name.rpartition(".")[2] for s in parsed.symbols if s.name.rpartition(".")[2] != "init"
        }
    kinds = _KOTLIN_TOP if language == "kotlin" else _CLASS_KINDS
    return {s.name for s in parsed.symbols if s.kind in kinds and "." not in s.name}


def scope_groups(code: Mapping[str, tuple[str, Parsed]]) -> dict[ScopeKey, list[str]]:
    """``{package: its files, sorted}`` of the files that take part in same-package
    references (:func:`scope_key`)."""
    groups: dict[ScopeKey, list[str]] = defaultdict(list)
    for path in sorted(code):
        language, parsed = code[path]
        key = scope_key(path, language, parsed)
        if key is not None:
            groups[key].append(path)
    return dict(groups)


def group_edges(
    code: Mapping[str, tuple[str, Parsed]], members: list[str]
) -> dict[tuple[str, str], float]:
    """Same-package reference edges among ``members`` (one package's files, sorted),
    weighted as :func:`scope_edges` says."""
    edges: dict[tuple[str, str], float] = {}
    if len(members) < 2:
        return edges
    definers: dict[str, list[str]] = defaultdict(list)
    for path in members:
        language, parsed = code[path]
        for name in sorted(_names(language, parsed)):
            definers[name].append(path)
    for path in members:
        counts: dict[str, float] = defaultdict(float)
        for ident in code[path][1].idents:
            owners = [p for p in definers.get(ident, ()) if p != path]
            for owner in owners:
                counts[owner] += 1.0 / len(owners)
        for owner, n in counts.items():
            edges[(path, owner)] = min(1.0, SCOPE_WEIGHT_PER_NAME * n)
    return edges


def scope_edges(code: Mapping[str, tuple[str, Parsed]]) -> dict[tuple[str, str], float]:
    """Same-package reference edges.

    Args:
        code: ``{path: (language, Parsed)}`` of every mapped file.

    Returns:
        ``{(user, definer): weight}`` with weight ``min(1, SCOPE_WEIGHT_PER_NAME * n)``
        where ``n`` counts the names used, a name defined in k other files counting 1/k.
    """
    edges: dict[tuple[str, str], float] = {}
    for members in scope_groups(code).values():
        edges.update(group_edges(code, members))
    return edges
