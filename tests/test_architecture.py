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

import pytest

import rubi

SRC = Path(rubi.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("rubi.core",),  # errors, model, paths, safe I/O, atomic writes, trust boundary, git, PageRank
    ("rubi.markdown", "rubi.dates"),  # text -> Note, pure; days of notes, files and texts
    ("rubi.vault",),  # scan a vault, resolve links
    ("rubi.codemap",),  # files, imports, symbols, modules of a project
    ("rubi.index",),  # Whoosh BM25F
    ("rubi.graph",),  # networkx graph of notes, files, modules
    ("rubi.knowledge",),  # note rules, note files, stale, handoffs, personal vault
    ("rubi.semantic",),  # static embeddings: the dense channel's model and vectors
    ("rubi.search",),  # candidate lists, fusion, why-lines, rendering
    ("rubi.sync",),  # bring derived data in line with the files
    ("rubi.transcripts",),  # transcripts, privacy, token X-ray
    ("rubi.app",),  # the one facade
    ("rubi.watch", "rubi.mcp", "rubi.claude", "rubi.view"),  # surfaces
    ("rubi.engine",),  # the resident engine: answers the hooks (rubi.claude) over a socket
    ("rubi.cli",),  # the command line, which launches the other surfaces
    ("rubi.entry",),  # the console script
    ("rubi.__main__",),  # python -m rubi: the console script's main
)
"""Lowest first."""

SURFACES = (
    "rubi.watch",
    "rubi.mcp",
    "rubi.claude",
    "rubi.view",
    "rubi.engine",
    "rubi.cli",
    "rubi.entry",
    "rubi.__main__",
)
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


# -- size: modules a reader can hold, functions a reader can follow ---------------------
MAX_MODULE_LINES = 500
MAX_COMPLEXITY = 20
"""Cyclomatic complexity as radon counts it (:func:`_complexity`)."""

LONG_MODULES: dict[str, str] = {}
"""Modules over :data:`MAX_MODULE_LINES` lines today, each with why it is long: a list
that only shrinks (a module split below the limit must leave it)."""

COMPLEX_FUNCTIONS: dict[str, str] = {
    "rubi.claude.audit:audit": "every check of an install in one pass",
    "rubi.claude.install:install": "every file an install writes, decided in one function",
    "rubi.codemap.incremental:reshape_code_map": "each kind of file change re-resolved inline",
    "rubi.codemap.lang.php:resolve": "PHP's use, require and namespace forms in one resolver",
    "rubi.codemap.lang.rust:resolve": "Rust's crate, self, super and mod paths in one resolver",
    "rubi.codemap.modules:_Layout.__init__": "every project layout's source roots detected inline",
    "rubi.codemap.render_module:render_module_page": "each section of a module page inline",
    "rubi.core.gitrepo:changes_since": "git's rename, copy and status codes parsed inline",
    "rubi.index.termscore:TermScorer.top": "the hot loop of scoring, kept flat for speed",
    "rubi.knowledge.stale:_stale_files": "each way a note's file can be stale, checked inline",
    "rubi.transcripts.aggregate:build_report": "every section of the token X-ray in one pass",
    "rubi.transcripts.privacy.secretnames:secret_name": (
        "each form of a secret's name checked inline"
    ),
    "rubi.transcripts.privacy.secretnames:_secret_value": (
        "each form of a secret's value checked inline"
    ),
    "rubi.transcripts.transcript:TranscriptReader._assistant": "each block kind of a message",
    "rubi.transcripts.turns:read_activity": "each kind of transcript line in one reader",
}
"""Functions over :data:`MAX_COMPLEXITY` today (``module:qualified name``), each with
why: a list that only shrinks (a function split below the limit must leave it)."""


def _complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """McCabe's cyclomatic complexity as radon counts it (``radon cc``, its
    ``ComplexityVisitor``): 1, plus 1 per ``if``/``elif`` and conditional expression,
    per loop (and its ``else``), per ``except`` (and a ``try``'s ``else``), per
    comprehension and each of its ``if`` clauses, per ``assert``, per ``match`` case
    but one when a case is a bare capture or ``_``, and one per operand after the
    first of each ``and``/``or`` (which ruff's C901 leaves out). A nested function or
    class counts on its own, not in its parent; a lambda's body counts in the function
    holding it."""
    total = 1
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.If | ast.IfExp | ast.Assert):
            total += 1
        elif isinstance(node, ast.For | ast.AsyncFor | ast.While):
            total += 1 + bool(node.orelse)
        elif isinstance(node, ast.Try | getattr(ast, "TryStar", ast.Try)):
            total += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            total += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            total += 1 + len(node.ifs)
        elif isinstance(node, ast.Match):  # a bare capture or ``_`` is the default
            default = any(getattr(c.pattern, "pattern", False) is None for c in node.cases)
            total += max(0, len(node.cases) - default)
        stack.extend(ast.iter_child_nodes(node))
    return total


def _functions(
    tree: ast.AST, prefix: str = ""
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method under ``tree``, by qualified name (``Class.method``,
    ``outer.inner``)."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((f"{prefix}{node.name}", node))
            found.extend(_functions(node, f"{prefix}{node.name}."))
        elif isinstance(node, ast.ClassDef):
            found.extend(_functions(node, f"{prefix}{node.name}."))
        else:
            found.extend(_functions(node, prefix))
    return found


def _sources() -> list[tuple[str, str]]:
    """Every rubi module's name (``rubi.sync.vaultsync``, ``rubi.app.__init__``) and text."""
    return [
        (".".join(path.relative_to(SRC.parent).with_suffix("").parts), path.read_text("utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    ]


def test_no_module_is_longer_than_the_limit() -> None:
    long = {m for m, text in _sources() if len(text.splitlines()) > MAX_MODULE_LINES}
    assert sorted(long - set(LONG_MODULES)) == [], "split it, or say why in LONG_MODULES"
    assert sorted(set(LONG_MODULES) - long) == [], "now short enough: drop it from the list"


def test_no_function_is_more_complex_than_the_limit() -> None:
    complex_ = {
        f"{module}:{name}": _complexity(function)
        for module, text in _sources()
        for name, function in _functions(ast.parse(text))
        if _complexity(function) > MAX_COMPLEXITY
    }
    assert {k: v for k, v in complex_.items() if k not in COMPLEX_FUNCTIONS} == {}
    assert sorted(set(COMPLEX_FUNCTIONS) - set(complex_)) == [], "now simple: drop it"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n    return 1\n", 1),
        (
            "def f(a):\n    if a:\n        return 1\n    elif a > 2:\n        return 2\n    else:\n"
            "        return 3\n",
            3,
        ),
        ("def f(a, b, c):\n    return a and b or c\n", 3),
        ("def f(xs):\n    for x in xs:\n        pass\n    else:\n        pass\n", 3),
        (
            "def f():\n    try:\n        pass\n    except KeyError:\n        pass\n"
            "    except ValueError:\n        pass\n    else:\n        pass\n    finally:\n"
            "        pass\n",
            4,
        ),
        ("def f(xs):\n    return [x for x in xs if x if x > 1]\n", 4),
        ("def f(a):\n    assert a\n    return 1 if a else 2\n", 3),
        ("def f(a):\n    def g(b):\n        if b:\n            return 1\n    return g\n", 1),
        ("def f(a):\n    return lambda b: b if a else None\n", 2),
        (
            "def f(a):\n    match a:\n        case 1:\n            pass\n        case 2:\n"
            "            pass\n        case _:\n            pass\n",
            3,
        ),
        ("def f(a):\n    while a:\n        with a:\n            a = a or None\n", 3),
    ],
)
def test_complexity_is_counted_as_radon_counts_it(source: str, expected: int) -> None:
    _, function = _functions(ast.parse(source))[0]  # the outer one
    assert _complexity(function) == expected
