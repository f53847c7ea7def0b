"""Golden tests of what ``rubi search`` prints: the text and the ``--json`` object.

Each case runs the real CLI on the shared Obsidian Help vault or on a tiny repository
written here, and compares its output with a file in ``tests/search/golden/``. A
changed why-line, snippet, rank or score fails the test with a diff.

To regenerate the expected files after an intended change, run::

    RUBI_UPDATE_GOLDEN=1 pytest tests/search/test_golden.py

and review the diff of ``tests/search/golden/`` before committing it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import rubi_project, write

GOLDEN = Path(__file__).parent / "golden"
_DAY_SHOWN = re.compile(r'( · |"date": ")\d{4}-\d{2}-\d{2}')
UPDATE = os.environ.get("RUBI_UPDATE_GOLDEN") == "1"

NOTE_CASES = {
    "help-embed": ["embed"],
    "help-aliases": ["Aliases"],
    "help-sync-phone": ["how do I sync between phone and desktop"],
    "help-paragraph-terms": ["link to a specific paragraph", "-t", "block", "-t", "reference"],
    "help-small-budget": ["keyboard shortcuts hotkeys", "--budget", "120"],
}
CODE_CASES = {
    "code-named": ["dispatch_request"],
    "code-linked": ["zanzibar"],
    "code-type": ["Router", "--scope", "code"],
    "code-variant": ["validate binding", "--scope", "code"],
    "code-abbreviation": ["request context", "--scope", "code"],
    "code-tests-wanted": ["tests for the router", "--scope", "code"],
}


def _check(name: str, args: list[str], vault: Path) -> None:
    runner = CliRunner()
    for suffix, extra in ((".txt", []), (".json", ["--json"])):
        result = runner.invoke(cli, ["search", *args, *extra, "--vault", str(vault)])
        assert result.exit_code == 0, result.output
        # A hit's day is its file's modification day here (copied or written today).
        out = _DAY_SHOWN.sub(r"\g<1>YYYY-MM-DD", result.stdout)
        if suffix == ".json":  # the JSON as printed, checked to parse
            json.loads(out)
        expected = GOLDEN / f"{name}{suffix}"
        if UPDATE:
            expected.parent.mkdir(exist_ok=True)
            expected.write_text(out, encoding="utf-8")
        assert expected.is_file(), f"{expected} missing; run with RUBI_UPDATE_GOLDEN=1"
        assert out == expected.read_text(encoding="utf-8"), f"{name}{suffix} changed"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_golden_help_vault(help_vault_indexed: Path, name: str) -> None:
    _check(name, NOTE_CASES[name], help_vault_indexed)


@pytest.fixture(scope="module")
def code_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny project: a router importing a helper, a CLI importing the router, two
    near-duplicate binding files, a test, a context module with an abbreviation, and
    a note about the router."""
    binding = "def bind_json(x):\n    return x\n\n\ndef bind_form(x):\n    return x\n\n\n"
    binding += "def validate(x):\n    return x\n\n\ndef default_binding(x):\n    return x\n"
    root = rubi_project(
        tmp_path_factory.mktemp("golden") / "proj",
        {
            "pkg/__init__.py": "",
            "pkg/router.py": '"""Route requests to handlers."""\n\n'
            "from pkg.util import helper\n\n\nclass Router:\n"
            "    def add(self, path, handler):\n        self.routes = {path: handler}\n\n\n"
            "def dispatch_request(req):\n    return helper(req)\n",
            "pkg/util.py": "def helper(x):\n    return x\n",
            "pkg/cli.py": "from pkg.router import dispatch_request\n\nmain = dispatch_request\n",
            "pkg/ctx.py": "class RequestCtx:\n    # the request context of one call\n"
            "    def __init__(self, req):\n        self.req = req\n",
            "binding/binding.py": binding + "\n\ndef bind_msgpack(x):\n    return x\n",
            "binding/binding_nomsgpack.py": binding,
            "tests/test_router.py": "from pkg.router import Router, dispatch_request\n\n\n"
            "def test_router_dispatches_request():\n    assert dispatch_request(1) == 1\n",
        },
    )
    write(
        root / ".rubi" / "notes" / "decision-routing.md",
        "---\ntype: decision\nfiles: [pkg/router.py]\n---\n# Route with a trie\n\n"
        "Requests are matched by prefix, zanzibar style.\n",
    )
    app.index(app.locate(root / ".rubi"))
    return root / ".rubi"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(CODE_CASES))
def test_golden_code_fixture(code_project: Path, name: str) -> None:
    _check(name, CODE_CASES[name], code_project)


def test_golden_files_are_all_used() -> None:
    """Every expected file belongs to a case (a renamed case leaves none behind)."""
    cases = {*NOTE_CASES, *CODE_CASES}
    stored = {p.name.rsplit(".", 1)[0] for p in GOLDEN.glob("*.*")}
    assert stored <= cases, sorted(stored - cases)


@pytest.mark.timeout(120)
def test_golden_fails_when_a_why_line_changes(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.search import render

    if UPDATE:
        pytest.skip("regenerating the golden files")
    monkeypatch.setitem(render.WHY_FORMATS, "imported_by", "used by {}")
    with pytest.raises(AssertionError, match=r"code-named\.txt changed"):
        _check("code-named", CODE_CASES["code-named"], code_project)


@pytest.mark.timeout(120)
def test_golden_fails_when_a_snippet_changes(
    code_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.search import hittext, passages

    if UPDATE:
        pytest.skip("regenerating the golden files")
    original = hittext.best_snippet
    monkeypatch.setattr(hittext, "best_snippet", lambda *a, **k: original(*a, **k).upper())
    shown = passages.excerpt  # the passage text shown where the budget allows
    monkeypatch.setattr(passages, "excerpt", lambda *a, **k: shown(*a, **k).upper())
    with pytest.raises(AssertionError, match=r"code-named\.txt changed"):
        _check("code-named", CODE_CASES["code-named"], code_project)
