"""A search whose catch-up indexes a note it cannot read (not UTF-8, a binary file
saved as ``.md``) says so on stderr in the line ``rubi index`` prints for it, once:
the next search, with nothing changed, says nothing (a file saved within the last
moments is read again, so the test dates it back)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


@pytest.fixture
def vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "vault"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "timeouts.md").write_text(
        "---\ntype: gotcha\n---\n# Read timeouts\n\nThe pool drops a read timeout.\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    first = CliRunner().invoke(cli, ["search", "read timeout", "--vault", str(root)])
    assert first.exit_code == 0, first.output
    return root


def test_a_search_that_indexes_a_binary_note_warns_as_rubi_index_does(vault: Path) -> None:
    bad = vault / "notes" / "scan.md"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary")
    os.utime(bad, (time.time() - 60, time.time() - 60))
    searched = CliRunner().invoke(cli, ["search", "read timeout", "--vault", str(vault)])
    assert searched.exit_code == 0, searched.output
    warnings = [line for line in searched.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, searched.stderr
    assert warnings[0].startswith("warning: notes/scan.md: ")
    assert "timeouts" in searched.stdout  # the search still answers

    again = CliRunner().invoke(cli, ["search", "read timeout", "--vault", str(vault)])
    assert again.exit_code == 0, again.output
    assert "warning:" not in again.stderr

    indexed = CliRunner().invoke(cli, ["index", "--full", "--vault", str(vault)])
    assert indexed.exit_code == 0, indexed.output
    assert warnings[0] in indexed.stderr.splitlines()
