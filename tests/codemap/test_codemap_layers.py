"""The code map sits below search and the surfaces: it imports none of them."""

from __future__ import annotations

import ast
from pathlib import Path

import rubi.codemap

FORBIDDEN = ("rubi.index", "rubi.search", "rubi.sessions", "rubi.app", "rubi.cli", "rubi.mcp")
FORBIDDEN += ("rubi.hooks", "rubi.watch")


def test_codemap_imports_only_lower_layers() -> None:
    package = Path(rubi.codemap.__file__).parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(FORBIDDEN)]
    assert offenders == []


def test_public_api() -> None:
    assert set(rubi.codemap.__all__) >= {
        "build_code_map",
        "render_map",
        "render_module_page",
        "extract_curated",
        "CodeMap",
        "CodeFile",
        "Module",
        "Symbol",
        "NoteRef",
    }
    for name in rubi.codemap.__all__:
        assert getattr(rubi.codemap, name) is not None
