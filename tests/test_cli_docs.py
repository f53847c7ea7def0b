"""docs/cli.md matches the CLI, and every command documents itself."""

from __future__ import annotations

import importlib.util
import sys

import click

from rubi.cli.main import cli

from helpers import REPO


def test_every_command_has_a_help_text() -> None:
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert (command.help or "").strip(), f"rubi {name} has no help text"


def test_cli_reference_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("cli_docs", REPO / "scripts" / "cli_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["cli_docs"] = module
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0, "run: python scripts/cli_docs.py"
