"""``rubi note add`` names its own options in an error (``--file``), not the fields of
the register tool it shares the checks with (a trial user read
"notes[0].files[0] ../etc/passwd: outside the project"); ``--from-json`` keeps them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli

from helpers import rubi_project


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = rubi_project(tmp_path / "p", {"src/app.py": "X = 1\n"})
    monkeypatch.chdir(root)
    return root


def error(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, ["note", "add", *args], input=stdin)
    assert result.exit_code == 1, result.output
    return result.output.strip()


BASE = ("--type", "gotcha", "--title", "T", "--body", "b")


@pytest.mark.parametrize(
    ("extra", "start"),
    [
        (("--file", "../outside.py"), "Error: --file ../outside.py: outside the project"),
        (("--supersedes", "no such note"), "Error: --supersedes: no note named"),
        (("--tag", "a b"), "Error: --tag: 'a b' is not a tag"),
        (("--link", "about:a]]b"), "Error: --link: 'a]]b' holds ]"),
    ],
)
def test_an_error_names_the_option(project: Path, extra: tuple[str, ...], start: str) -> None:
    out = error(*BASE, *extra)
    assert out.startswith(start), out
    assert "notes[0]" not in out


def test_a_secret_in_the_title_names_the_title_option(project: Path) -> None:
    out = error("--type", "note", "--title", "key AKIAFAKE0EXAMPLE0KEY", "--body", "b")
    assert out.startswith("Error: --title: holds a secret")


def test_json_notes_keep_their_field_names(project: Path) -> None:
    notes = [{"type": "note", "title": "T", "body": "b", "files": ["../outside.py"]}]
    out = error("--from-json", "-", stdin=json.dumps(notes))
    assert out.startswith("Error: notes[0].files[0] ../outside.py: outside the project")
