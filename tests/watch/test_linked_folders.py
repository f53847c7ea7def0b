"""A vault folder that is a symlink (``.rubi/notes`` → ``docs/notes``): the watcher
sees its events at the real path and must file them under the vault's path, as the
scan lists them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi import app
from rubi.watch import classify, linked_folders

from helpers import write


@pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")
def test_events_under_a_linked_notes_folder_are_the_vaults(tmp_path: Path) -> None:
    project = tmp_path / "p"
    write(project / "docs" / "notes" / "a.md", "# A\n")
    (project / ".rubi").mkdir()
    (project / ".rubi" / "notes").symlink_to(Path("..") / "docs" / "notes")
    (project / ".rubi" / "out").symlink_to(tmp_path)  # outside the project: not followed
    vault = app.locate(project / ".rubi")
    links = linked_folders(vault.root, vault.project_root)
    assert [rel for _, rel in links] == ["notes"]
    batch = classify([(1, str(project / "docs" / "notes" / "b.md"))], vault, links)
    assert batch is not None and batch.vault_paths == {"notes/b.md"} and not batch.code
    code = classify([(1, str(project / "src" / "x.py"))], vault, links)
    assert code is not None and code.code and not code.vault_paths
