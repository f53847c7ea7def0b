"""The architecture as data: packages in layers, imports pointing down, no cycles.

Every import counts, at module level or inside a function (lazy), and under
``TYPE_CHECKING`` too. A package may import its own modules, any package of a lower
layer, and the root ``rubi`` (its version). Packages of one layer never import each
other. The surfaces call the facade (``rubi.app``) and the foundation (``rubi.core``),
nothing else below them. Module-level import cycles fail, within a package too.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import rubi

SRC = Path(rubi.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("rubi.core",),  # errors, settings, model, paths, atomic writes, trust boundary, PageRank
    ("rubi.markdown",),  # text -> Note, pure
    ("rubi.vault",),  # scan a vault, resolve links
    ("rubi.codemap",),  # files, imports, symbols, modules of a project
    ("rubi.index",),  # Whoosh BM25F
    ("rubi.graph",),  # networkx graph of notes, files, modules
    ("rubi.knowledge",),  # note rules, note files, stale, handoffs, personal vault
    ("rubi.semantic",),  # static embeddings: the dense channel's model and vectors
    ("rubi.search",),  # candidate lists, fusion, why-lines, rendering
    ("rubi.sync",),  # bring derived data in line with the files
    ("rubi.sessions",),  # transcripts, privacy, token X-ray
    ("rubi.app",),  # the one facade
    ("rubi.watch", "rubi.mcp", "rubi.claude"),  # surfaces
    ("rubi.engine",),  # the resident engine: answers the hooks (rubi.claude) over a socket
    ("rubi.cli",),  # the command line, which launches the other surfaces
    ("rubi.entry",),  # the console script
)
"""Lowest first."""

SURFACES = ("rubi.watch", "rubi.mcp", "rubi.claude", "rubi.engine", "rubi.cli", "rubi.entry")
SURFACE_MAY_IMPORT = ("rubi.app", "rubi.core", *SURFACES)
"""What a surface may import: the facade, the foundation, and (the engine, the CLI, the
entry point) the other surfaces it launches or answers for."""

ONE_DOOR_EXCEPTIONS: dict[str, set[str]] = {}
"""Surface modules still reaching below the facade, with what they import; empty when
every surface goes through ``rubi.app``."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports() -> dict[str, set[str]]:
    """Every rubi module and the rubi modules it imports (absolute names)."""
    found: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        name = _module_name(path)
        is_package = path.name == "__init__.py"
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.split(".")[0] == "rubi")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base if is_package else base[:-1]
                    base = base[: len(base) - node.level + 1]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                if module.split(".")[0] != "rubi":
                    continue
                deps.add(module)
                deps.update(f"{module}.{a.name}" for a in node.names)
        found[name] = deps
    # keep only names that are modules (``from x import f`` adds x.f, a function)
    modules = set(found)
    return {m: {d for d in deps if d in modules} for m, deps in found.items()}


def _owner(module: str) -> str:
    """The top-level package (or root module) of ``module``: ``rubi.sync.run`` ->
    ``rubi.sync``; ``rubi`` stays ``rubi``."""
    parts = module.split(".")
    return ".".join(parts[:2])


def _layer(package: str) -> int:
    for i, group in enumerate(LAYERS):
        if package in group:
            return i
    raise AssertionError(f"{package}: not in LAYERS; add it to the layer it belongs to")


def test_every_package_has_a_layer() -> None:
    packages = {_owner(m) for m in _imports()} - {"rubi"}
    for package in packages:
        _layer(package)


def test_imports_point_down_the_layers() -> None:
    offenders = []
    for module, deps in _imports().items():
        if module == "rubi":
            continue
        own = _owner(module)
        for dep in deps:
            target = _owner(dep)
            if target in (own, "rubi"):
                continue
            if _layer(target) >= _layer(own) and not (
                own in ("rubi.cli", "rubi.entry") and target in SURFACES
            ):
                offenders.append(f"{module} imports {dep}")
    assert sorted(offenders) == []


def test_surfaces_go_through_the_facade() -> None:
    offenders: dict[str, set[str]] = defaultdict(set)
    for module, deps in _imports().items():
        if _owner(module) not in SURFACES:
            continue
        for dep in deps:
            if _owner(dep) not in (*SURFACE_MAY_IMPORT, "rubi"):
                offenders[module].add(dep)
    assert dict(offenders) == ONE_DOOR_EXCEPTIONS


def test_no_import_cycles() -> None:
    graph = _imports()
    # A package's __init__ importing its own modules is how packages re-export; a
    # cycle through it counts only when a module imports its package back.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for dep in graph.get(node, ()):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert cycles == []


def test_the_checker_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The walk finds an import inside a function, so a lazy import cannot hide."""
    tree = ast.parse("def f():\n    from rubi.cli import main\n")
    found = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert [n.module for n in found] == ["rubi.cli"]
