"""``--vault ""`` (an unset variable in a script: ``--vault "$VAULT"``) is a usage
error naming the option, given before anything is read: it never reads as the current
folder, which would index whatever folder the command runs in as a vault."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


@pytest.mark.parametrize(
    "args",
    [["search", "tokens"], ["index"], ["status"], ["read", "x"], ["doctor"]],
)
def test_an_empty_vault_is_a_usage_error_and_indexes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    (tmp_path / "a-note.md").write_text("# Tokens\n\ntokens expire\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # an Obsidian-like folder: "" must not mean it
    result = CliRunner().invoke(cli, [*args, "--vault", ""])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--vault'" in result.output
    assert "leave the option out" in result.output
    from rubi.core.paths import cache_home

    assert not (cache_home() / "indexes").exists() or not any((cache_home() / "indexes").iterdir())


def test_a_vault_folder_is_still_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a-note.md").write_text("# Tokens\n\ntokens expire\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["search", "tokens expire", "--vault", "vault"])
    assert result.exit_code == 0, result.output
    assert "a-note" in result.output
