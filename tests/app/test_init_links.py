"""``rubi init`` writes nothing through a symlink that leads out of the project: every
folder and file it creates is checked before the first write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry below ``folder``: a file's bytes, None for a folder."""
    return {
        p.relative_to(folder).as_posix(): (None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.rglob("*"))
    }


FOLDER_LINKS = [".rubi", ".rubi/handoffs", ".rubi/notes", ".rubi/.obsidian"]
FILE_LINKS = [
    ".rubi/.gitignore",
    ".rubi/.gitattributes",
    ".rubi/README.md",
    ".rubi/.obsidian/app.json",
    ".rubi/handoffs/.gitignore",
    ".rubi/notes/.gitkeep",
    "CLAUDE.md",
]


def _project(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "clone"
    project.mkdir()
    outside = tmp_path / "else"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine\n", encoding="utf-8")
    return project, outside


def _init(project: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["init", str(project)])
    return result.exit_code, result.output


@pytest.mark.parametrize("link", FOLDER_LINKS)
def test_init_refuses_a_folder_linked_outside_and_writes_nothing(tmp_path: Path, link: str) -> None:
    project, outside = _project(tmp_path)
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(outside, target_is_directory=True)
    before = _snapshot(outside)

    code, output = _init(project)

    assert code != 0
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith(f"Error: {link}: a symlink to a folder outside the project")
    assert "replace the link with a folder of its own" in lines[0]
    assert _snapshot(outside) == before
    assert not (project / "CLAUDE.md").exists()


@pytest.mark.parametrize("link", FILE_LINKS)
def test_init_refuses_a_file_linked_outside_and_creates_no_target(
    tmp_path: Path, link: str
) -> None:
    project, outside = _project(tmp_path)
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(outside / "planted")  # dangling: init would create it
    before = _snapshot(outside)

    code, output = _init(project)

    assert code != 0
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith(f"Error: {link}: a symlink to a file outside the project")
    assert "replace the link with a file of its own" in lines[0]
    assert _snapshot(outside) == before
    assert not os.path.lexists(outside / "planted")


def test_init_follows_a_folder_linked_inside_the_project(tmp_path: Path) -> None:
    project, _ = _project(tmp_path)
    (project / "docs" / "notes").mkdir(parents=True)
    (project / ".rubi").mkdir()
    (project / ".rubi" / "notes").symlink_to(project / "docs" / "notes")

    code, output = _init(project)

    assert code == 0, output
    assert (project / "docs" / "notes" / ".gitkeep").is_file()
    assert (project / ".rubi" / "handoffs" / ".gitignore").is_file()
    assert "Project memory (rubi)" in (project / "CLAUDE.md").read_text(encoding="utf-8")


def test_init_keeps_existing_files_and_fills_in_the_rest(tmp_path: Path) -> None:
    project, _ = _project(tmp_path)
    (project / ".rubi").mkdir()
    (project / ".rubi" / "README.md").write_text("our own\n", encoding="utf-8")

    code, output = _init(project)

    assert code == 0, output
    assert (project / ".rubi" / "README.md").read_text(encoding="utf-8") == "our own\n"
    assert (project / ".rubi" / ".obsidian" / "app.json").is_file()
    assert "Created" in output


def test_init_without_the_vault_template_says_so_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An install that lost its template must not report ".rubi already exists"."""
    import rubi.app.vaultinit as rubi_app

    monkeypatch.setattr(rubi_app, "__file__", str(tmp_path / "a" / "b" / "c" / "app.py"))
    monkeypatch.setattr("importlib.resources.files", lambda _name: tmp_path / "nothing")
    project = tmp_path / "p"
    project.mkdir()
    result = CliRunner().invoke(cli, ["init", str(project)])
    assert result.exit_code != 0
    assert "vault template is missing" in result.output
    assert "already exists" not in result.output
    assert list(project.iterdir()) == []
