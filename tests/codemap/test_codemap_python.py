"""Python: ast parsing, resolution against source roots, relative imports, re-exports."""

from __future__ import annotations

from collections.abc import Callable

from codemap.codemap_helpers import edges_of
from rubi.codemap import CodeMap
from rubi.codemap.lang.python import parse

Build = Callable[..., CodeMap]


def test_parse_imports_and_symbols() -> None:
    parsed = parse(
        "import os, pkg.sub as s\n"
        "from . import sibling\n"
        "from ..up import thing, other\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.types import T\n"
        "MAX_SIZE = 3\n"
        "app: 'App' = make()\n"
        "_private = 1\n"
        "class App:\n"
        "    def dispatch_request(self): ...\n"
        "    async def run(self): ...\n"
        "def helper(): ...\n"
        "def lazy():\n"
        "    import json\n"
        "s = '''import fake'''\n"
    )
    targets = {(s.kind, s.target, s.names) for s in parsed.imports}
    assert ("import", "os", ()) in targets
    assert ("import", "pkg.sub", ()) in targets
    assert ("from", ".", ("sibling",)) in targets
    assert ("from", "..up", ("thing", "other")) in targets
    assert ("from", "pkg.types", ("T",)) in targets  # inside if TYPE_CHECKING
    assert ("import", "json", ()) in targets  # inside a function
    assert not any(s.target == "fake" for s in parsed.imports)  # in a string
    symbols = {(s.name, s.kind) for s in parsed.symbols}
    assert {
        ("MAX_SIZE", "const"),
        ("app", "variable"),
        ("App", "class"),
        ("App.dispatch_request", "method"),
        ("App.run", "method"),
        ("helper", "function"),
        ("lazy", "function"),
    } <= symbols
    assert ("_private", "variable") not in symbols
    assert parsed.problems == ()


def test_an_assignment_to_several_names_defines_each() -> None:
    parsed = parse(
        "A, B = 1, 2\n(C, [D, *rest]) = 3, [4, 5]\nE = F = 6\nobj.x, g = 7, 8\n_p, Q = 9, 0\n"
    )
    assert [(s.name, s.kind) for s in parsed.symbols] == [
        ("A", "const"),
        ("B", "const"),
        ("C", "const"),
        ("D", "const"),
        ("rest", "variable"),
        ("E", "const"),
        ("F", "const"),
        ("g", "variable"),
        ("Q", "const"),
    ]


def test_imports_in_every_kind_of_block_are_found() -> None:
    source = (
        "import a\n"
        "class C:\n"
        "    import b\n"
        "    def m(self):\n"
        "        for x in y:\n"
        "            import c\n"
        "        else:\n"
        "            from d import e\n"
        "async def f():\n"
        "    async with z:\n"
        "        while True:\n"
        "            import g\n"
        "try:\n"
        "    import h\n"
        "except ImportError:\n"
        "    import i\n"
        "else:\n"
        "    import j\n"
        "finally:\n"
        "    import k\n"
        "match v:\n"
        "    case 1:\n"
        "        from .l import (m, n)\n"
        "lam = lambda: __import__('not_a_statement')\n"
        "text = 'import not_code'\n"
    )
    targets = {(spec.kind, spec.target) for spec in parse(source).imports}
    assert targets == {("import", name) for name in ("a", "b", "c", "g", "h", "i", "j", "k")} | {
        ("from", "d"),
        ("from", ".l"),
    }


def test_syntax_error_falls_back_to_patterns() -> None:
    parsed = parse("import os\nfrom pkg import mod\nprint 'python 2'\nclass Old:\n    pass\n")
    assert parsed.problems and "syntax error at line 3" in parsed.problems[0]
    assert {s.target for s in parsed.imports} == {"os", "pkg"}
    assert [s.name for s in parsed.symbols] == ["Old"]


def test_src_layout_packages_relative_and_reexports(build: Build) -> None:
    code_map = build(
        {
            "pyproject.toml": "[project]\nname = 'pkg'\n",
            "src/pkg/__init__.py": "from .app import App\nfrom .globals import request\n",
            "src/pkg/app.py": "from . import globals\nfrom .util.text import slug\n"
            "class App: ...\n",
            "src/pkg/globals.py": "request = object()\n",
            "src/pkg/util/__init__.py": "",
            "src/pkg/util/text.py": "import re\nimport requests\ndef slug(): ...\n",
            "tests/test_app.py": "from pkg import App, request\nimport pkg.util.text\n"
            "import helpers\n",
            "tests/helpers.py": "import pytest\n",
        }
    )
    assert edges_of(code_map) == {
        ("src/pkg/__init__.py", "src/pkg/app.py"),
        ("src/pkg/__init__.py", "src/pkg/globals.py"),
        ("src/pkg/app.py", "src/pkg/globals.py"),
        ("src/pkg/app.py", "src/pkg/util/text.py"),
        # `from pkg import App, request` follows the re-exports of pkg/__init__.py
        ("tests/test_app.py", "src/pkg/app.py"),
        ("tests/test_app.py", "src/pkg/globals.py"),
        ("tests/test_app.py", "src/pkg/util/text.py"),
        # a test folder without __init__.py imports its siblings
        ("tests/test_app.py", "tests/helpers.py"),
    }
    text = code_map.files["src/pkg/util/text.py"]
    assert text.external == ("requests",)  # `re` is the standard library
    assert code_map.files["tests/helpers.py"].external == ("pytest",)
    assert code_map.ranked_files()[0] == "src/pkg/globals.py"


def test_package_import_prefers_submodule_and_unresolved_relative_is_external(
    build: Build,
) -> None:
    code_map = build(
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\nfrom .missing import x\nfrom .... import nowhere\n",
            "pkg/b.py": "",
        }
    )
    assert edges_of(code_map) == {("pkg/a.py", "pkg/b.py")}
    assert code_map.files["pkg/a.py"].external == ("....", ".missing")


def test_circular_imports_are_mapped(build: Build) -> None:
    code_map = build({"a.py": "import b\n", "b.py": "import c\n", "c.py": "import a\n"})
    assert edges_of(code_map) == {("a.py", "b.py"), ("b.py", "c.py"), ("c.py", "a.py")}
    ranks = code_map.file_rank
    assert abs(ranks["a.py"] - ranks["b.py"]) < 1e-9  # a cycle ranks evenly
    assert abs(sum(ranks.values()) - 1.0) < 1e-9


def test_a_standard_library_import_is_not_a_package_under_another_root(build: Build) -> None:
    # typer's docs_src/parameter_types/ holds tutorial packages named enum/, uuid/ and
    # datetime/; `from enum import Enum` in typer/main.py is the standard library's
    # (another root's packages come after it on sys.path), a sibling's import is not.
    code_map = build(
        {
            "typer/__init__.py": "",
            "typer/main.py": "from enum import Enum\nimport uuid\nfrom tools import run\n",
            "docs_src/parameter_types/enum/__init__.py": "",
            "docs_src/parameter_types/enum/tutorial001.py": "import typer\n",
            "docs_src/parameter_types/uuid/__init__.py": "",
            "tools/__init__.py": "def run(): ...\n",
            "tests/test_enum.py": "import enum\nimport helpers\n",
            "tests/helpers.py": "",
        }
    )
    assert edges_of(code_map) == {
        ("typer/main.py", "tools/__init__.py"),
        ("docs_src/parameter_types/enum/tutorial001.py", "typer/__init__.py"),
        ("tests/test_enum.py", "tests/helpers.py"),
    }
    assert code_map.files["typer/main.py"].external == ()


def test_a_standard_library_name_in_the_file_s_own_root_is_the_project_s(build: Build) -> None:
    # a root that encloses the file comes before the standard library on sys.path
    code_map = build(
        {
            "test/__init__.py": "",
            "test/support.py": "",
            "test/test_x.py": "from test import support\n",
            "app/logging.py": "",
            "app/run.py": "import logging\n",
        }
    )
    assert edges_of(code_map) == {
        ("test/test_x.py", "test/support.py"),
        ("app/run.py", "app/logging.py"),
    }
