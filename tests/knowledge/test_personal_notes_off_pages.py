"""Committed map pages list only the notes git shares: a handoff saved with
``--file X`` (git-ignored, each person's own) never appears on X's module page, so a
teammate's clone does not rewrite that page on its first command."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from codemap.codemap_helpers import git
from rubi import app
from rubi.cli.main import cli
from rubi.sync.committed import shared_note

from helpers import rubi_project, write

FILES = {"pkg/__init__.py": "", "pkg/cache.py": "def evict():\n    return None\n"}


def _pages(project: Path) -> str:
    vault = project / ".rubi"
    pages = [vault / "map.md", *sorted((vault / "modules").glob("*.md"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in pages if p.is_file())


def test_a_handoff_about_a_file_stays_off_its_module_page(tmp_path: Path) -> None:
    project = rubi_project(tmp_path / "p", FILES)
    os.chdir(project)
    runner = CliRunner()
    app.register(
        app.locate(project / ".rubi"),
        [{"type": "gotcha", "title": "Eviction is lazy", "body": "b", "files": ["pkg/cache.py"]}],
    )
    assert runner.invoke(cli, ["index"]).exit_code == 0
    git(project, "add", "-A")
    git(project, "commit", "-qm", "pages")
    saved = runner.invoke(
        cli,
        [
            "handoff",
            "save",
            "--goal",
            "Speed up eviction",
            "--state",
            "half done",
            "--file",
            "pkg/cache.py",
        ],
    )
    assert saved.exit_code == 0, saved.output
    assert runner.invoke(cli, ["index"]).exit_code == 0
    pages = _pages(project)
    assert "Eviction is lazy" in pages  # a shared note is listed
    assert "handoffs/" not in pages and "Speed up eviction" not in pages
    assert git(project, "status", "--porcelain") == ""


def test_shared_notes_follow_the_vaults_gitignore(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write(vault / ".gitignore", "sessions/\n")
    write(vault / "handoffs" / ".gitignore", "*.md\n")
    write(vault / "drafts" / ".gitignore", "*.md\n!keep.md\n")
    shared = shared_note(vault)
    assert shared("notes/gotcha-eviction")
    assert not shared("handoffs/2026-01-01-me")
    assert not shared("sessions/2026/01/abc")
    assert not shared("drafts/scratch") and shared("drafts/keep")
    (vault / "handoffs" / ".gitignore").write_text("# shared on purpose\n")
    assert shared_note(vault)("handoffs/2026-01-01-me")
