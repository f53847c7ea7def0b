"""``--vault .rubi`` where ``.rubi`` is a symlink to a folder inside the project (the
vault kept in ``docs/memory``): the project is the folder holding the link, as when
the command walks up to it, whether the engine answers or the command does. A
``.rubi`` linked out of its project stays a vault of its own with no project, as
before (the walk up refuses it: ``tests/core/test_vault_walk.py``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi.core.paths import find_vault, walked_vault
from rubi.core.vaultwalk import VaultWalk

from helpers import login_project
from helpers import run_rubi as rubi

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]


def link_vault_into(project: Path, folder: Path) -> None:
    """Move ``project``'s ``.rubi/`` to ``folder`` and leave a ``.rubi`` link to it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    (project / ".rubi").rename(folder)
    (project / ".rubi").symlink_to(os.path.relpath(folder, project), target_is_directory=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = login_project(tmp_path / "proj", "def login():\n    '''Log in.'''\n    return 1\n")
    link_vault_into(root, root / "docs" / "memory")  # indexed anew, where it lies now
    return root


def test_a_vault_linked_inside_the_project_names_the_project(project: Path) -> None:
    walked = walked_vault(VaultWalk.from_folder(str(project)))
    assert walked.project_root == project.resolve()
    for given in (
        project / ".rubi",
        Path(f"{project}/.rubi/"),
        project / "src" / ".." / ".rubi",
    ):
        assert find_vault(given) == walked, given


def test_a_vault_linked_out_of_the_project_stays_a_vault_without_project(
    tmp_path: Path,
) -> None:
    diary = tmp_path / "diary"
    diary.mkdir()
    (diary / "entry.md").write_text("# Entry\n", encoding="utf-8")
    project = tmp_path / "clone"
    project.mkdir()
    (project / ".rubi").symlink_to(diary, target_is_directory=True)
    paths = find_vault(project / ".rubi")
    assert paths.root == diary.resolve() and paths.project_root is None


ARGS = ["search", "--vault", ".rubi", "--scope", "code", "login"]


def test_the_linked_vault_searches_the_project_s_code_cold(project: Path) -> None:
    out, err, code = rubi(ARGS, project, RUBI_ENGINE="0")
    assert code == 0 and b"src/auth.py" in out, err


def test_the_engine_of_the_project_answers_for_the_linked_vault(
    project: Path, engine: None, calls: list[str]
) -> None:
    via = rubi(ARGS, project)
    assert calls == ["SearchArgs"]
    assert via == rubi(ARGS, project, RUBI_ENGINE="0")
    assert b"src/auth.py" in via[0]
