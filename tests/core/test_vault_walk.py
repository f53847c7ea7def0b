"""The walk up to a project vault: one function for the cold path, the engine's client
and the engine, and a walk handed on stands only for the folder it started from."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.core.errors import VaultNotFoundError
from rubi.core.paths import find_vault, walked_vault
from rubi.core.vaultwalk import VaultWalk, first_vault


def test_the_nearest_vault_above_a_folder_is_found_from_its_resolved_path(
    tmp_path: Path,
) -> None:
    outer, inner = tmp_path / "outer", tmp_path / "outer" / "inner"
    (outer / ".rubi").mkdir(parents=True)
    (inner / ".rubi").mkdir(parents=True)
    (inner / "src" / "deep").mkdir(parents=True)
    (tmp_path / "link").symlink_to(inner / "src")
    assert first_vault(str(inner / "src" / "deep")) == str(inner / ".rubi")
    assert first_vault(str(tmp_path / "link" / "deep")) == str(inner / ".rubi")
    assert first_vault(str(outer)) == str(outer / ".rubi")
    assert first_vault(str(tmp_path)) is None


def test_a_walk_gives_the_vault_find_vault_finds(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".rubi").mkdir(parents=True)
    (project / "src").mkdir()
    walk = VaultWalk.from_folder(str(project / "src"))
    assert walked_vault(walk) == find_vault(cwd=project / "src")
    assert walk.found == str(project.resolve() / ".rubi")


def test_a_walk_that_found_nothing_or_a_link_out_of_the_project_gives_no_vault(
    tmp_path: Path,
) -> None:
    with pytest.raises(VaultNotFoundError, match=r"no \.rubi/ here or above"):
        walked_vault(VaultWalk.from_folder(str(tmp_path)))
    diary = tmp_path / "diary"
    diary.mkdir()
    project = tmp_path / "proj"
    project.mkdir()
    (project / ".rubi").symlink_to(diary)
    with pytest.raises(VaultNotFoundError, match="symlink to a folder outside the project"):
        walked_vault(VaultWalk.from_folder(str(project)))


def test_a_walk_stands_only_for_the_folder_it_started_from(tmp_path: Path) -> None:
    """A hook's context takes a walk handed to it only when the walk started at the
    hook's own folder (or one resolving to it); otherwise it walks from there."""
    from rubi.claude.hooks.context import open_context

    one, two = tmp_path / "one", tmp_path / "two"
    for project in (one, two):
        (project / ".rubi").mkdir(parents=True)
    (tmp_path / "alias").symlink_to(two)
    walk = VaultWalk.from_folder(str(one))
    assert walk.covers(str(one)) and not walk.covers(str(two))
    assert VaultWalk.from_folder(str(two)).covers(str(tmp_path / "alias"))
    ctx = open_context({"cwd": str(two), "session_id": "s"}, "Stop", walk=walk)
    assert ctx.vault is not None and ctx.vault.project_root == two.resolve()
    ctx = open_context({"cwd": str(one), "session_id": "s"}, "Stop", walk=walk)
    assert ctx.vault is not None and ctx.vault.project_root == one.resolve()
