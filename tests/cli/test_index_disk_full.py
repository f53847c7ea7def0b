"""A cache folder on a full disk: SQLite's "database or disk is full" was reported as
an unreadable index ("run `rubi index --full`"), after a warning that the index was
started afresh; rerunning failed the same way. It now says the disk is full and what
to do."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from rubi.sync import rows

from helpers import write


def test_a_full_disk_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = tmp_path / "v"
    write(vault / "notes" / "a.md", "# Sampling\nDrop repeated entries.\n")

    def full(*_args: Any, **_kwargs: Any) -> None:
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = sqlite3.SQLITE_FULL
        raise exc

    monkeypatch.setattr(rows, "_open_store", full)
    result = CliRunner().invoke(cli, ["search", "sampling", "--vault", str(vault)])
    assert result.exit_code == 1
    assert "store.sqlite: the disk is full (database or disk is full); free space there, or" in (
        result.output
    ), result.output
    assert "rubi index --full" not in result.output
    assert "starting the index afresh" not in result.output
