"""Shared fixtures: every test gets its own HOME and cache, and real vaults to copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import copy_vault


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point HOME and the XDG cache and config folders at a fresh folder so no test
    touches the user's."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("RUBI_VAULT", raising=False)
    return home


@pytest.fixture
def help_vault(tmp_path: Path) -> Path:
    """A writable copy of the English Obsidian Help vault (173 notes)."""
    return copy_vault("obsidian-help-en", tmp_path)


@pytest.fixture(scope="module")
def help_vault_indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed copy of the Obsidian Help vault shared by a module's read-only tests."""
    from rubi import app

    vault = copy_vault("obsidian-help-en", tmp_path_factory.mktemp("help"))
    app.index(app.locate(vault))
    return vault


@pytest.fixture
def kepano_vault(tmp_path: Path) -> Path:
    """A writable copy of kepano's personal vault template (103 notes)."""
    return copy_vault("kepano-obsidian", tmp_path)
