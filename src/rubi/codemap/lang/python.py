"""Python: imports and symbols from ``ast``; imports resolved against source roots.

``ast`` is exact where patterns guess: imports inside functions, ``try``/``if
TYPE_CHECKING`` blocks and multi-line ``from x import (...)`` all come out right, and
strings or comments that look like imports do not. A file that does not parse
(Python 2, a syntax error) falls back to patterns and says so.
"""

from __future__ import annotations

import ast
import posixpath
import re
import sys
import warnings
from collections.abc import Sequence

from rubi.codemap.lang.base import RepoIndex, Resolution
from rubi.codemap.model import ImportSpec, Parsed, Symbol

__all__ = ["REEXPORT_DEPTH", "parse", "resolve"]

_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__", "_typeshed"}

REEXPORT_DEPTH = 3
"""Re-exports followed at most (``pkg/__init__`` → ``pkg/sub/__init__`` → ``pkg/sub/x``)."""


def _unpacked(targets: Sequence[ast.expr]) -> list[ast.Name]:
    """The names an assignment binds: ``A, B = 1, 2``, ``(C, [D, *E]) = ...`` bind each."""
    out: list[ast.Name] = []
    for target in targets:
        if isinstance(target, ast.Starred):
            target = target.value
        if isinstance(target, ast.Name):
            out.append(target)
        elif isinstance(target, ast.Tuple | ast.List):
            out.extend(_unpacked(target.elts))
    return out


def _symbols(body: list[ast.stmt], out: list[Symbol], depth: int = 0) -> None:
    for node in body:
        if isinstance(node, ast.ClassDef):
            out.append(Symbol(node.name, "class", node.lineno))
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.append(Symbol(f"{node.name}.{item.name}", "method", item.lineno))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(Symbol(node.name, "function", node.lineno))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in _unpacked(targets):
                if not target.id.startswith("_"):
                    kind = "const" if target.id.isupper() else "variable"
                    if isinstance(node, ast.AnnAssign) and _is_type_alias(node.annotation):
                        kind = "type"
                    out.append(Symbol(target.id, kind, node.lineno))
        elif isinstance(node, ast.If | ast.Try | ast.With) and depth < 2:
            blocks = [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
            blocks += [h.body for h in getattr(node, "handlers", [])]
            for block in blocks:
                _symbols(block, out, depth + 1)


def _is_type_alias(annotation: ast.expr) -> bool:
    return (isinstance(annotation, ast.Name) and annotation.id == "TypeAlias") or (
        isinstance(annotation, ast.Attribute) and annotation.attr == "TypeAlias"
    )


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields of a statement that hold statements (``handlers`` and ``cases`` hold
``except`` and ``case`` clauses, whose ``body`` does)."""


def _imports(tree: ast.Module) -> list[ImportSpec]:
    """Every import statement of the module, nested ones included, sorted.

    Imports are statements, and statements live only in statement blocks, so the walk
    follows blocks and skips expressions, which are most of a module's nodes: the same
    imports as :func:`ast.walk` over the whole tree in a tenth of the time.
    """
    specs: list[ImportSpec] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            specs.extend(ImportSpec("import", alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names if a.name != "*")
            specs.append(ImportSpec("from", "." * node.level + (node.module or ""), names))
        else:
            for name in _BLOCKS:
                block = getattr(node, name, None)
                if block:
                    stack.extend(block)
    specs.sort(key=lambda s: (s.kind, s.target, s.names))
    return specs


_FALLBACK_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.MULTILINE)
_FALLBACK_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w \t,]*)", re.M)
_FALLBACK_DEF = re.compile(r"^(class|def|async[ \t]+def)[ \t]+(\w+)", re.MULTILINE)


def _fallback(text: str, problem: str) -> Parsed:
    specs: list[ImportSpec] = []
    for match in _FALLBACK_IMPORT.finditer(text):
        for part in match.group(1).split(","):
            name = part.split(" as ")[0].strip()
            if name:
                specs.append(ImportSpec("import", name))
    for match in _FALLBACK_FROM.finditer(text):
        names = tuple(
            n.split(" as ")[0].strip() for n in match.group(2).split(",") if n.strip() != "*"
        )
        specs.append(ImportSpec("from", match.group(1), tuple(n for n in names if n)))
    symbols = []
    for match in _FALLBACK_DEF.finditer(text):
        kind = "class" if match.group(1) == "class" else "function"
        symbols.append(Symbol(match.group(2), kind, text.count("\n", 0, match.start()) + 1))
    return Parsed(imports=tuple(specs), symbols=tuple(symbols), problems=(problem,))


def parse(text: str) -> Parsed:
    """Parse a Python file.

    Args:
        text: the decoded source.

    Returns:
        Imports (``import a.b`` → kind ``import``; ``from ..a import b`` → kind ``from``,
        target ``..a``, names ``(b,)``), top-level classes (with their methods as
        ``Class.method``), functions, public module-level names (``const`` when upper
        case), looking into top-level ``if``/``try``/``with`` blocks.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc. are not our business
            tree = ast.parse(text)
    except SyntaxError as exc:
        return _fallback(text, f"syntax error at line {exc.lineno}: {exc.msg}; read by pattern")
    except (ValueError, RecursionError, MemoryError) as exc:
        return _fallback(text, f"cannot be parsed ({type(exc).__name__}); read by pattern")
    symbols: list[Symbol] = []
    _symbols(tree.body, symbols)
    return Parsed(imports=tuple(_imports(tree)), symbols=tuple(symbols))


class _PyIndex:
    """Source roots: folders from which absolute imports are resolved."""

    def __init__(self, repo: RepoIndex) -> None:
        self.repo = repo
        roots = {""}
        for path, (language, _) in repo.code.items():
            if language != "python":
                continue
            if path.startswith("src/"):
                roots.add("src")
            if posixpath.basename(path) == "__init__.py":
                pkg = posixpath.dirname(path)
                parent = posixpath.dirname(pkg)
                if not repo.is_code(
                    posixpath.join(parent, "__init__.py") if parent else "__init__.py"
                ):
                    roots.add(parent)
        self.roots = sorted(roots, key=lambda r: (r.count("/") + bool(r), r))
        self._order: dict[str, tuple[list[str], int]] = {}

    def roots_for(self, folder: str, *, stdlib: bool = False) -> list[str]:
        """Roots in the order to try for a file in ``folder``: enclosing ones (deepest
        first), the folder itself when it is not a package (scripts, tests), the rest.

        With ``stdlib`` (the module's top name is a standard library module's) only the
        enclosing roots and the folder: they come before the standard library on
        ``sys.path``, the other roots' packages (installed beside, in site-packages)
        after it, so ``import enum`` in ``typer/main.py`` is the standard library, not
        ``docs_src/parameter_types/enum/``.
        """
        if folder not in self._order:
            inside = [r for r in self.roots if r == "" or folder == r or folder.startswith(r + "/")]
            inside.sort(key=lambda r: -len(r))
            own = []
            init = posixpath.join(folder, "__init__.py") if folder else "__init__.py"
            if folder not in inside and not self.repo.is_code(init):
                own = [folder]
            rest = [r for r in self.roots if r not in inside]
            self._order[folder] = (inside + own + rest, len(inside) + len(own))
        order, near = self._order[folder]
        return order[:near] if stdlib else order

    def module_file(self, base: str) -> str | None:
        """``base.py``, ``base/__init__.py`` (or the ``.pyi`` twins) if mapped."""
        for candidate in (
            base + ".py",
            base + "/__init__.py",
            base + ".pyi",
            base + "/__init__.pyi",
        ):
            if self.repo.is_code(candidate):
                return candidate
        return None


def _resolve_dotted(index: _PyIndex, folder: str, dotted: str, *, exact: bool) -> str | None:
    """The file of module ``dotted``; unless ``exact``, its longest importable prefix."""
    parts = dotted.split(".")
    for root in index.roots_for(folder, stdlib=parts[0] in _STDLIB):
        for k in range(len(parts), 0 if not exact else len(parts) - 1, -1):
            found = index.module_file(posixpath.join(root, *parts[:k]))
            if found:
                return found
    return None


def _defining_file(index: _PyIndex, module: str, name: str, depth: int) -> str:
    """Follow a re-export: the file that defines ``name`` imported from ``module``
    (``from flask import Flask`` → ``flask/app.py``, via ``flask/__init__.py``'s
    ``from .app import Flask``); ``module`` itself when it defines the name or the
    trail ends."""
    parsed = index.repo.code[module][1]
    if depth <= 0 or any(s.name == name for s in parsed.symbols):
        return module
    for spec in parsed.imports:
        if spec.kind != "from" or name not in spec.names:
            continue
        folder = posixpath.dirname(module)
        if spec.target.startswith("."):
            found = _resolve_relative(index, folder, ImportSpec("from", spec.target, (name,)), 0)
            target = found[0] if found else None
        else:
            target = _resolve_dotted(index, folder, f"{spec.target}.{name}", exact=True)
            target = target or _resolve_dotted(index, folder, spec.target, exact=False)
        if target and target != module:
            return _defining_file(index, target, name, depth - 1)
    return module


def _resolve_relative(index: _PyIndex, folder: str, spec: ImportSpec, follow: int) -> list[str]:
    """Files a relative import names: submodules for names that are modules, else the
    module itself (or, with ``follow``, where it re-exports the name from)."""
    level = len(spec.target) - len(spec.target.lstrip("."))
    module = spec.target[level:]
    base_dir: str | None = folder
    for _ in range(level - 1):
        base_dir = None if not base_dir else posixpath.dirname(base_dir)
    if base_dir is None:
        return []
    base = posixpath.join(base_dir, *module.split(".")) if module else base_dir
    owner = index.module_file(base)
    found: set[str] = set()
    for name in spec.names:
        sub = index.module_file(posixpath.join(base, name))
        if sub:
            found.add(sub)
        elif owner:
            found.add(_defining_file(index, owner, name, follow) if follow else owner)
    return sorted(found) or ([owner] if owner else [])


def resolve(path: str, parsed: Parsed, repo: RepoIndex) -> Resolution:
    """Resolve a Python file's imports to repository files.

    Absolute imports are tried against source roots (the repository root, ``src/``,
    and the parent of every top-level package), relative imports against the file's
    package; ``from p import m`` prefers the submodule ``p/m.py`` to ``p/__init__.py``.
    Unresolved imports that are not in the standard library are external, by their
    top-level name (relative ones as written).
    """
    index = repo.memo("python", _PyIndex)
    folder = posixpath.dirname(path)
    result = Resolution()
    for spec in parsed.imports:
        if spec.target.startswith("."):
            found = _resolve_relative(index, folder, spec, REEXPORT_DEPTH)
            if found:
                result.add(found)
            else:
                result.external.add(spec.target)
            continue
        owner = _resolve_dotted(index, folder, spec.target, exact=False)
        found = []
        if spec.kind == "from" and owner:
            for name in spec.names:
                sub = _resolve_dotted(index, folder, f"{spec.target}.{name}", exact=True)
                found.append(sub or _defining_file(index, owner, name, REEXPORT_DEPTH))
        found = sorted(set(found)) or ([owner] if owner else [])
        top = spec.target.split(".")[0]
        if found:
            result.add(found)
        elif top not in _STDLIB:
            result.external.add(top)
    result.targets.pop(path, None)
    return result
