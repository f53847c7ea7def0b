"""``rubi search --since/--until`` take a day as ``YYYY-MM-DD``; any other value, an
empty one among them, is a usage error naming the option and the form, given before
anything is searched (the same whether an engine serves the vault or not: click
refuses it before the command asks one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


@pytest.mark.parametrize("option", ["--since", "--until"])
@pytest.mark.parametrize("value", ["", "   ", "yesterday", "2026-13-01", "2026-01-01T08:00"])
def test_a_value_that_is_not_a_day_is_a_usage_error_naming_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, value: str
) -> None:
    monkeypatch.chdir(tmp_path)  # no vault: a value that passed would fail elsewhere
    result = CliRunner().invoke(cli, ["search", option, value, "tokens"])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert "give one as YYYY-MM-DD" in result.output
    assert "leave the option out for no limit" in result.output


def test_a_day_is_taken_with_spaces_around_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.cli import searchcmds

    seen: list[tuple[str | None, str | None]] = []

    def answered(paths: object, args: searchcmds.SearchArgs, local: object) -> object:
        seen.append((args.since, args.until))
        return searchcmds.Answer(False, "")

    monkeypatch.setattr(searchcmds, "answered", answered)
    monkeypatch.setattr(searchcmds, "find_vault", lambda vault: None)
    result = CliRunner().invoke(cli, ["search", "--since", " 2026-01-31 ", "tokens"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["search", "--until", "2026-02-01", "tokens"])
    assert result.exit_code == 0, result.output
    assert seen == [("2026-01-31", None), (None, "2026-02-01")]
