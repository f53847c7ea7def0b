"""``rubi status`` says what the index holds: notes and, in a project, code files."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import notes_vault, rubi_project


def test_status_counts_a_projects_code_files_beside_its_notes(tmp_path: Path) -> None:
    project = rubi_project(tmp_path / "p", {"src/a.py": "x = 1\n", "src/b.py": "import a\n"})
    app.index(app.locate(project / ".rubi"))
    result = CliRunner().invoke(cli, ["status", "--json", "--vault", str(project / ".rubi")])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["code_files"] == 2 and shown["notes"] >= 1
    text = CliRunner().invoke(cli, ["status", "--vault", str(project / ".rubi")]).output
    assert "code files  2" in text


def test_status_of_a_plain_vault_has_no_code_files(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", {"a.md": "# A\n"})
    app.index(paths)
    result = CliRunner().invoke(cli, ["status", "--json", "--vault", str(paths.root)])
    assert json.loads(result.output)["code_files"] == 0
