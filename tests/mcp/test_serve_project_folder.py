"""``rubi serve --project DIR`` finds the project's vault the way every command does,
and a repository without ``.rubi/`` gets the personal vault and the offer of
``rubi init`` (never its own root served as a vault); the server tells clients the
instructions it was built with."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp import Client, StdioServerParameters
from rubi import app
from rubi.mcp.server import (
    INSTRUCTIONS,
    NO_PROJECT_INSTRUCTIONS,
    VAULT_INSTRUCTIONS,
    build_server,
    open_vault,
)

from helpers import rubi_project, write

RUBI = str(Path(sys.executable).with_name("rubi"))


def _plain_repository(root: Path) -> Path:
    write(root / "README.md", "# Widgets\n\nHow the widget cache works.\n")
    write(root / "docs" / "design.md", "# Design\n\nThe widget cache is an LRU.\n")
    return root


def test_a_project_folder_without_rubi_serves_the_personal_vault(tmp_path: Path) -> None:
    repo = _plain_repository(tmp_path / "repo")
    paths, instructions = open_vault(repo)
    assert instructions == NO_PROJECT_INSTRUCTIONS
    assert paths.root.resolve() != repo.resolve()
    assert not paths.root.resolve().is_relative_to(repo.resolve())


def test_project_and_no_project_open_the_same_vault(tmp_path: Path, monkeypatch) -> None:
    repo = _plain_repository(tmp_path / "repo")
    monkeypatch.chdir(repo)
    assert open_vault(repo) == open_vault(None)
    project = rubi_project(tmp_path / "proj", {"a.py": "x = 1\n"})
    (project / "sub").mkdir()
    found, instructions = open_vault(project / "sub")
    assert found.root == (project / ".rubi").resolve() and instructions == INSTRUCTIONS


def test_a_vault_folder_is_served_as_it_is_with_vault(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    write(notes / "idea.md", "# Idea\n")
    paths, instructions = open_vault(None, vault=notes)
    assert paths.root == notes.resolve() and instructions == VAULT_INSTRUCTIONS


def test_a_plain_vault_is_not_told_of_a_code_map_and_a_project_vault_is(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes"
    write(notes / "idea.md", "# Idea\n")
    _, instructions = open_vault(None, vault=notes)
    assert "map(" not in instructions and "search(" in instructions
    project = rubi_project(tmp_path / "proj", {"a.py": "x = 1\n"})
    _, instructions = open_vault(None, vault=project / ".rubi")
    assert instructions == INSTRUCTIONS and "map(" in instructions


def test_build_server_tells_the_instructions_it_was_given(tmp_path: Path) -> None:
    project = rubi_project(tmp_path / "proj", {"a.py": "x = 1\n"})

    async def main() -> str | None:
        server = build_server(app.locate(project / ".rubi"), instructions="told this")
        async with Client(server) as client:
            return client.instructions

    assert asyncio.run(main()) == "told this"


@pytest.mark.slow
def test_serve_project_in_a_repository_without_rubi_registers_nothing_there(
    tmp_path: Path,
) -> None:
    repo = _plain_repository(tmp_path / "repo")
    before = sorted(p.relative_to(repo) for p in repo.rglob("*"))

    async def main() -> tuple[str | None, Any]:
        params = StdioServerParameters(
            command=RUBI, args=["serve", "--project", str(repo)], env=dict(os.environ)
        )
        async with Client(params, mode="legacy") as c:
            note = {"type": "gotcha", "title": "Widget cache is LRU", "body": "An LRU."}
            return c.instructions, await c.call_tool("register", {"notes": [note]})

    instructions, result = asyncio.run(main())
    assert instructions == NO_PROJECT_INSTRUCTIONS
    assert not result.is_error
    assert sorted(p.relative_to(repo) for p in repo.rglob("*")) == before
