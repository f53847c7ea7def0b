"""``rubi note add --personal`` needs no project: outside one it writes to the
personal vault (a trial user got "no .rubi/ here or above" for a note that never
goes into a project), while a project note there is still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "no-project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("RUBI_VAULT", str(tmp_path / "mine"))
    return tmp_path / "mine"


def add(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["note", "add", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_a_personal_note_goes_to_the_personal_vault(outside: Path) -> None:
    code, out = add("--personal", "--type", "preference", "--title", "Run pytest -x", "--body", "b")
    assert code == 0, out
    assert (outside / "notes" / "preference-run-pytest-x.md").is_file()
    assert out.startswith(f"No project here: written to the personal vault {outside.resolve()}.")


def test_personal_notes_as_json_go_there_too(outside: Path) -> None:
    notes = [{"type": "note", "title": "Mine", "body": "b", "scope": "personal"}]
    code, out = add("--from-json", "-", stdin=json.dumps(notes))
    assert code == 0, out
    assert (outside / "notes" / "note-mine.md").is_file()


def test_a_project_note_outside_a_project_is_refused(outside: Path) -> None:
    code, out = add("--type", "note", "--title", "Ours", "--body", "b")
    assert code == 1 and "no .rubi/ here or above" in out
    notes = [
        {"type": "note", "title": "Mine", "body": "b", "scope": "personal"},
        {"type": "note", "title": "Ours", "body": "b"},
    ]
    code, out = add("--from-json", "-", stdin=json.dumps(notes))
    assert code == 1 and "no .rubi/ here or above" in out
    assert not outside.exists()  # nothing written, not even the personal half


def test_a_vault_given_that_is_not_one_is_still_an_error(outside: Path, tmp_path: Path) -> None:
    code, _ = add(
        "--personal",
        "--vault",
        str(tmp_path / "nowhere"),
        "--type",
        "note",
        "--title",
        "T",
        "--body",
        "b",
    )
    assert code != 0 and not outside.exists()


def test_search_scope_personal_outside_a_project_searches_it(outside: Path) -> None:
    """`rubi search --scope personal` ("the personal vault only") answered "no .rubi/
    here or above" outside a project, where `note add --personal` had just written."""
    assert (
        add("--personal", "--type", "preference", "--title", "Table-driven tests", "--body", "b")[0]
        == 0
    )
    found = CliRunner().invoke(cli, ["search", "table-driven tests", "--scope", "personal"])
    assert found.exit_code == 0, found.output
    assert found.output.startswith("1. [preference] Table-driven tests"), found.output
    other = CliRunner().invoke(cli, ["search", "table-driven tests"])  # not the personal scope
    assert other.exit_code == 1 and "no .rubi/ here or above" in other.output


def test_search_scope_personal_without_a_personal_vault_is_still_an_error(outside: Path) -> None:
    result = CliRunner().invoke(cli, ["search", "anything", "--scope", "personal"])
    assert result.exit_code == 1 and "no .rubi/ here or above" in result.output
    assert not outside.exists()  # a search creates no personal vault
