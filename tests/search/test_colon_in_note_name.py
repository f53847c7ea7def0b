"""A colon in a note's own file name is not a vault's prefix: `notes/why: retries?.md`
was shown as `notes/why:notes/why: retries?.md` (the id was split at its last colon,
as for `personal:notes/x`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli

from helpers import write


def test_a_colon_in_a_note_name_is_shown_once(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "notes" / "why: retries?.md", "# Why: retries?\nRetry on 503.\n")
    out = CliRunner().invoke(cli, ["search", "retries", "--vault", str(vault)]).output
    assert out.splitlines()[0].startswith("1. [note] Why: retries? — notes/why: retries?.md"), out


def test_a_personal_note_keeps_its_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    (project / ".rubi" / "notes").mkdir(parents=True)
    write(project / ".rubi" / "notes" / "other.md", "# Other\nunrelated words\n")
    mine = tmp_path / "mine"
    write(mine / "notes" / "mine: retries.md", "# Mine: retries\nRetry on 503.\n")
    monkeypatch.setenv("RUBI_VAULT", str(mine))
    monkeypatch.chdir(project)
    out = CliRunner().invoke(cli, ["search", "retries", "--scope", "personal"]).output
    assert "— personal:notes/mine: retries.md" in out.splitlines()[0], out
