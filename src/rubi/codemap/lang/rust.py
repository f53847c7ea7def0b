"""Rust: ``mod``, ``use`` and in-crate paths by pattern; resolved via the crate tree.

Each ``.rs`` file belongs to the crate whose root file (``src/lib.rs``, ``src/main.rs``,
``[lib]``/``[[bin]]`` paths of a ``Cargo.toml``) sits in the deepest folder above it;
its module path follows from its place under that folder. ``mod x;`` finds ``x.rs`` or
``x/mod.rs``; ``use crate::a::b::C`` the longest module prefix that is a file;
``self::``/``super::`` are relative; a first segment naming a crate of the workspace
(``grep_searcher``) goes to that crate. See :mod:`.rustcrates` for the crate table.
"""

from __future__ import annotations

import posixpath
import re

from rubi.codemap.lang.base import RepoIndex, Resolution, join_path
from rubi.codemap.lang.rustcrates import Crates, module_dir, module_file, module_path
from rubi.codemap.lang.text import LineIndex, blank_strings, strip_comments
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["parse", "resolve"]

_STD_CRATES = frozenset({"std", "core", "alloc", "proc_macro", "test"})
_MOD = re.compile(
    r"^[ \t]*(?:#\[path\s*=\s*\"([^\"]+)\"\]\s*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.M
)
_USE = re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)
_EXTERN = re.compile(r"\bextern\s+crate\s+(\w+)")
_PATH = re.compile(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)")
_ITEM = re.compile(
    r"^(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe|default|extern\s+\"[^\"]*\")\s+)*"
    r"(fn|struct|enum|trait|type|const|static|union)\s+(\w+)",
    re.M,
)
_MACRO = re.compile(r"^macro_rules!\s*(\w+)", re.M)
_IMPL = re.compile(r"^impl(?:<[^{]*?>)?\s+(?:[\w:<>, ]+\s+for\s+)?([\w:]+)")
_IMPL_FN = re.compile(r"^    (?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe)\s+)*fn\s+(\w+)")


def expand_use(tree: str) -> list[str]:
    """Expand a ``use`` tree: ``a::{b, c::{d, e as f}, self}`` → ``a::b``, ``a::c::d``,
    ``a::c::e``, ``a``."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    brace = tree.find("{")
    if brace < 0:
        return [tree.removesuffix("::*").lstrip(":")] if tree else []
    prefix = tree[:brace].rstrip(":")
    inner = tree[brace + 1 : tree.rfind("}")]
    items, start, level = [], 0, 0
    for j, c in enumerate(inner):
        level += (c == "{") - (c == "}")
        if c == "," and level == 0:
            items.append(inner[start:j])
            start = j + 1
    items.append(inner[start:])
    out: list[str] = []
    for item in filter(None, items):
        if item == "self":
            out.append(prefix)
        else:
            out.extend(f"{prefix}::{sub}" if prefix else sub for sub in expand_use(item))
    return out


def _impl_methods(code: str) -> list[Symbol]:
    out: list[Symbol] = []
    current: str | None = None
    for number, line in enumerate(code.split("\n"), start=1):
        head = _IMPL.match(line)
        if head:
            current = head.group(1).split("::")[-1]
        elif line.startswith("}"):
            current = None
        elif current:
            match = _IMPL_FN.match(line)
            if match:
                out.append(Symbol(f"{current}.{match.group(1)}", "method", number))
    return out


def parse(text: str) -> Parsed:
    """Parse a Rust file.

    Returns:
        Imports: ``mod`` (target the module name, names the ``#[path]`` if any),
        ``use`` (one per expanded path), ``path`` (in-crate ``crate::``/``self::``/
        ``super::`` paths used inline); symbols: top-level items, ``macro_rules!`` and
        methods of ``impl`` blocks (``Type.method``).
    """
    code = strip_comments(text, "rust")
    bare = blank_strings(text, "rust")  # for use/paths: no "use" inside a string
    lines = LineIndex(code)
    imports: list[ImportSpec] = []
    for match in _MOD.finditer(code):
        names = (match.group(1),) if match.group(1) else ()
        imports.append(ImportSpec("mod", match.group(2), names))
    seen: set[str] = set()
    for match in _USE.finditer(bare):
        for path in expand_use(match.group(1)):
            if path and path not in seen:
                seen.add(path)
                imports.append(ImportSpec("use", path))
    for match in _EXTERN.finditer(bare):
        if match.group(1) not in seen:
            seen.add(match.group(1))
            imports.append(ImportSpec("use", match.group(1)))
    for match in _PATH.finditer(bare):
        if match.group(1) not in seen:
            seen.add(match.group(1))
            imports.append(ImportSpec("path", match.group(1)))
    kinds = {"fn": "function", "static": "variable"}
    symbols = [
        Symbol(m.group(2), kinds.get(m.group(1), m.group(1)), lines.line(m.start()))
        for m in _ITEM.finditer(code)
    ]
    symbols.extend(
        Symbol(m.group(1), "macro", lines.line(m.start())) for m in _MACRO.finditer(code)
    )
    symbols.extend(_impl_methods(code))
    symbols.sort(key=lambda s: (s.line, s.name))
    return Parsed(imports=tuple(imports), symbols=tuple(symbols))


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve a Rust file's ``mod``/``use``/inline paths to files of its crate or of
    other crates in the workspace.

    Returns:
        Targets with weight 1; ``use`` of crates outside the repository are external
        by crate name (``std``/``core``/``alloc`` left out); unresolved inline paths
        are not imports and are dropped.
    """
    crates = repo.memo("cargo", Crates)
    root = crates.root_of(path)
    result = Resolution()
    here = module_path(root, path) if root else []
    for spec in parsed.imports:
        if spec.kind == "mod":
            folder = module_dir(root, path) if root else posixpath.dirname(path)
            if spec.names:
                candidates = [join_path(posixpath.dirname(path), spec.names[0])]
            else:
                candidates = [
                    join_path(folder, spec.target + ".rs"),
                    join_path(folder, spec.target + "/mod.rs"),
                ]
            found = [c for c in candidates if c and repo.is_code(c)]
            if found:
                result.add(found[:1])
            continue
        segments = spec.target.split("::")
        first = segments[0]
        target: str | None = None
        if root and first in ("crate", "self", "super"):
            base = [] if first == "crate" else list(here)
            rest = segments[1:]
            if first == "super":
                base = base[:-1]
                while rest and rest[0] == "super":
                    base, rest = base[:-1], rest[1:]
            target = module_file(repo, root, base + rest)
        elif root and module_file(repo, root, [*here, first], exact=True):
            target = module_file(repo, root, here + segments)
        elif first in crates.by_name:
            other = crates.by_name[first]
            target = module_file(repo, other, segments[1:])
        elif spec.kind == "use" and first not in _STD_CRATES and first != "Self":
            result.external.add(first)
        if target and target != path:
            result.add([target])
    return result
