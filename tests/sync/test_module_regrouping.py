"""A code map saved under older module-grouping rules is grouped again by the next
run, though no file changed: module names, pages and documents follow the rules of
the rubi that runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.codemap import modules
from rubi.core.pagenames import MAP_PAGE
from rubi.sync import forget_vault_syncs
from rubi.sync.codestore import read_code_map

from helpers import rubi_project

MAIN = "gson/src/main/java/com/google/gson"
FILES = {
    "pom.xml": "<project/>\n",
    "gson/pom.xml": "<project/>\n",
    **{f"{MAIN}/G{i}.java": f"package com.google.gson;\nclass G{i} {{}}\n" for i in range(3)},
    **{
        f"{MAIN}/stream/S{i}.java": f"package com.google.gson.stream;\nclass S{i} {{}}\n"
        for i in range(3)
    },
}


def test_a_map_grouped_by_older_rules_is_regrouped_without_a_file_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = rubi_project(tmp_path / "p", FILES)
    with monkeypatch.context() as old_rules:
        old_rules.setattr(modules, "GROUPING_VERSION", 1)
        old_rules.setattr(modules._Layout, "_named_above", lambda self, folder: "")
        app.index(app.locate(root / ".rubi"))
        forget_vault_syncs()
    paths = app.locate(root / ".rubi")
    before = read_code_map(paths)
    assert before is not None and "gson/gson" in before.modules
    regrouped = app.index(paths)
    forget_vault_syncs()
    after = read_code_map(paths)
    assert after is not None
    assert sorted(after.modules) == ["gson", "gson/stream"]
    page = (paths.root / MAP_PAGE).read_text(encoding="utf-8")
    assert "gson/gson" not in page and "[[modules/gson-stream|gson/stream]]" in page
    assert regrouped.code_changed == len(after.files)
    assert not (paths.root / "modules" / "gson-gson.md").exists()
    again = app.index(paths)  # the same rules: nothing to redo
    assert again.code_changed == 0 and again.pages_written == []


def test_a_map_resolved_by_older_rules_is_resolved_again_without_a_file_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.codemap.lang import python

    files = {
        "typer/__init__.py": "",
        "typer/main.py": "from enum import Enum\n",
        "docs_src/parameter_types/enum/__init__.py": "",
        "docs_src/parameter_types/enum/tutorial001.py": "import typer\n",
    }
    root = rubi_project(tmp_path / "p", files)
    wrong = ("typer/main.py", "docs_src/parameter_types/enum/__init__.py")
    old_roots = python._PyIndex.roots_for
    with monkeypatch.context() as old_rules:
        old_rules.setattr(modules, "RESOLVER_VERSION", 1)
        old_rules.setattr(
            python._PyIndex, "roots_for", lambda self, folder, stdlib=False: old_roots(self, folder)
        )
        app.index(app.locate(root / ".rubi"))
        forget_vault_syncs()
    paths = app.locate(root / ".rubi")
    before = read_code_map(paths)
    assert before is not None and wrong in before.edges
    again = app.index(paths)
    forget_vault_syncs()
    after = read_code_map(paths)
    assert after is not None and wrong not in after.edges
    assert again.code_changed == len(after.files)
    assert app.index(paths).code_changed == 0  # the same rules: nothing to redo
