"""What SessionStart's cost line imports (the previous session's transcript read and
priced, in every session after the first): no ``inspect`` (a dataclass without a
docstring has ``dataclasses`` import it to write one, with ``ast`` and ``dis``), no
``logging`` and no ``statistics`` (with ``decimal``, ``fractions`` and ``random``) that
it never uses."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _printed(code: str) -> str:
    """What ``code`` prints in a fresh interpreter with this checkout's ``src``."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.strip()


def test_every_dataclass_of_rubi_has_a_docstring() -> None:
    missing = []
    for path in sorted((SRC / "rubi").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or ast.get_docstring(node):
                continue
            if any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                missing.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}")
    assert missing == []


def test_the_cost_line_modules_import_no_inspect_logging_or_statistics() -> None:
    code = (
        "import sys\n"
        "from rubi.core.dataclassimport import import_dataclasses\n"
        "import_dataclasses()\n"
        "import rubi.app.sessioncost, rubi.app.xray, rubi.transcripts.analyze\n"
        "print(sorted(m for m in ('inspect', 'logging', 'statistics') if m in sys.modules))\n"
    )
    assert _printed(code) == "[]"


def test_the_pointer_and_plugin_checks_import_no_json() -> None:
    """SessionStart and SessionEnd read and write the cost line's pointer, and
    SessionStart reads the plugin's ``.mcp.json``, with :mod:`rubi.core.jsonline`:
    ``json`` (its decoder's patterns) is imported by neither cold hook."""
    code = (
        "import sys\n"
        "import rubi.claude.hooks.costline, rubi.claude.hooks.pluginserver\n"
        "import rubi.claude.hooks.start, rubi.claude.hooks.end\n"
        "print('json' in sys.modules)\n"
    )
    assert _printed(code) == "False"
