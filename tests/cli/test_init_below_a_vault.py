"""``rubi init`` without a folder, run below a project that has a vault, makes no
second vault: every command run below would find the new, empty one instead of the
project's (a trial user ran it in ``httpx/`` under the root's ``.rubi/``). Naming the
folder still makes one; init in the project's own folder still says it exists."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "pkg" / "sub").mkdir(parents=True)
    assert CliRunner().invoke(cli, ["init", str(root)]).exit_code == 0
    return root


def _init(where: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(where)
    result = CliRunner().invoke(cli, ["init", *args])
    return result.exit_code, result.output


def test_init_below_a_vault_is_refused(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _init(project / "pkg" / "sub", monkeypatch)
    assert code == 1
    assert "already holds the memory of the project around this folder" in out
    assert "`rubi init .`" in out
    assert not (project / "pkg" / "sub" / ".rubi").exists()
    assert not (project / "pkg" / "sub" / "CLAUDE.md").exists()


def test_naming_the_folder_makes_a_vault_there(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _init(project / "pkg", monkeypatch, ".")
    assert code == 0, out
    assert (project / "pkg" / ".rubi" / "notes").is_dir()


def test_init_in_the_project_itself_says_it_exists(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = _init(project, monkeypatch)
    assert code == 0 and "already exists; nothing changed there." in out


def test_init_with_no_vault_above_makes_one_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fresh").mkdir()
    code, out = _init(tmp_path / "fresh", monkeypatch)
    assert code == 0, out
    assert (tmp_path / "fresh" / ".rubi").is_dir()
