"""A vault folder that is a symlink (``.rubi/notes`` → ``docs/notes``): the watcher
sees its events at the real path and must file them under the vault's path, as the
scan lists them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi import app
from rubi.watch import classify, linked_folders

from helpers import real_watcher, wait_until, write


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


@pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")
def test_events_on_a_linked_note_file_are_the_vaults(tmp_path: Path) -> None:
    """``.rubi/api.md`` → ``docs/api.md`` and ``.rubi/b.md`` → ``a.md`` (inside the
    vault): an event on the real file is a change of the note at every link's path."""
    project = tmp_path / "p"
    write(project / "docs" / "api.md", "# API\n")
    write(project / ".rubi" / "a.md", "# A\n")
    (project / ".rubi" / "api.md").symlink_to(Path("..") / "docs" / "api.md")
    (project / ".rubi" / "b.md").symlink_to("a.md")
    (project / ".rubi" / "far.md").symlink_to(tmp_path / "far.md")  # outside: not followed
    vault = app.locate(project / ".rubi")
    links = linked_folders(vault.root, vault.project_root)
    assert sorted(rel for _, rel in links) == ["api.md", "b.md"]
    outside = classify([(2, str(project / "docs" / "api.md"))], vault, links)
    assert outside is not None and outside.vault_paths == {"api.md"} and not outside.code
    inside = classify([(2, str(project / ".rubi" / "a.md"))], vault, links)
    assert inside is not None and inside.vault_paths == {"a.md", "b.md"}


@pytest.mark.slow
@pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")
def test_the_watcher_reindexes_a_linked_note_when_its_target_changes(tmp_path: Path) -> None:
    """A link made while the watcher runs is learnt from its own event; editing its
    target then makes the new words searchable at the link's id."""
    project = tmp_path / "p"
    write(project / "docs" / "api.md", "# API\n\nfirst words\n")
    write(project / ".rubi" / "home.md", "# Home\n")
    vault = project / ".rubi"

    def ids(word: str) -> list[str]:
        return [h.id for h in app.search(app.locate(vault), word, refresh=False).hits]

    with real_watcher(vault):
        (vault / "api.md").symlink_to(Path("..") / "docs" / "api.md")
        assert wait_until(lambda: ids("first") == ["api"])
        write(project / "docs" / "api.md", "# API\n\nsecond wombat words\n")
        assert wait_until(lambda: ids("wombat") == ["api"])
