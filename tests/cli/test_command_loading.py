"""A command whose module fails to import is reported as a failure to load (the
exception, its traceback, exit 1), never as an unknown command."""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from types import ModuleType

import pytest
from click.testing import CliRunner

from rubi.cli import main
from rubi.cli.main import cli

MODULE = "rubi.cli.searchcmds"


class _Broken(importlib.abc.MetaPathFinder):
    """Makes importing :data:`MODULE` raise ``error``, as a module whose own import
    fails would."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        if fullname == MODULE:
            raise self.error


def _break(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    monkeypatch.delitem(sys.modules, MODULE, raising=False)
    monkeypatch.setattr(sys, "meta_path", [_Broken(error), *sys.meta_path])


@pytest.mark.parametrize(
    "error",
    [
        ModuleNotFoundError("No module named 'whoosh'", name="whoosh"),
        ImportError("cannot import name 'search_index' from 'rubi.search.engine'"),
        SyntaxError("invalid syntax"),
    ],
    ids=["missing-dependency", "missing-name", "syntax-error"],
)
def test_a_command_module_that_fails_to_import_shows_the_exception(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    _break(monkeypatch, error)
    result = CliRunner().invoke(cli, ["search", "anything"])
    assert result.exit_code == 1
    assert "No such command" not in result.stderr
    assert "Traceback (most recent call last)" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: the 'search' command could not be loaded (rubi.cli.searchcmds)")
    assert f"{type(error).__name__}: {error}" in last


def test_a_command_module_without_its_command_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(main._COMMANDS, "search", "searchcmds:no_such_attribute")
    result = CliRunner().invoke(cli, ["search", "anything"])
    assert result.exit_code == 1
    assert "defines no command 'no_such_attribute'" in result.stderr


def test_an_unknown_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["serach", "anything"])
    assert result.exit_code == 2
    assert "No such command 'serach'" in result.stderr
