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

__all__ = ["SCOPE_WEIGHT_PER_NAME", "scope_edges"]

SCOPE_WEIGHT_PER_NAME = 0.25
"""Weight of a same-package edge per distinct name used, capped at 1 (an import):
one shared name may be a coincidence (``String``), four are a dependency."""

_CLASS_KINDS = frozenset({"class", "interface", "enum", "trait", "record", "object", "annotation"})
_KOTLIN_TOP = _CLASS_KINDS | {"function", "const", "variable", "type"}


def _scope_key(path: str, language: str, parsed: Parsed) -> tuple[str, str] | None:
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


def scope_edges(code: Mapping[str, tuple[str, Parsed]]) -> dict[tuple[str, str], float]:
    """Same-package reference edges.

    Args:
        code: ``{path: (language, Parsed)}`` of every mapped file.

    Returns:
        ``{(user, definer): weight}`` with weight ``min(1, SCOPE_WEIGHT_PER_NAME * n)``
        where ``n`` counts the names used, a name defined in k other files counting 1/k.
    """
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path, (language, parsed) in code.items():
        key = _scope_key(path, language, parsed)
        if key is not None and parsed.idents:
            groups[key].append(path)
    edges: dict[tuple[str, str], float] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        definers: dict[str, list[str]] = defaultdict(list)
        for path in members:
            language, parsed = code[path]
            for name in _names(language, parsed):
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
