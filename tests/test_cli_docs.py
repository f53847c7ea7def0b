"""docs/cli.md matches the CLI, and every command documents itself."""

from __future__ import annotations

import click

from rubi.cli.main import cli

from helpers import load_script


def test_every_command_has_a_help_text() -> None:
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert (command.help or "").strip(), f"rubi {name} has no help text"


def _commands(command: click.Command, path: str) -> list[tuple[str, click.Command]]:
    if not isinstance(command, click.Group):
        return [(path, command)]
    ctx = click.Context(command)
    found = [(path, command)]
    for name in command.list_commands(ctx):
        sub = command.get_command(ctx, name)
        assert sub is not None, name
        found += _commands(sub, f"{path} {name}")
    return found


def test_every_option_of_every_command_says_what_it_does() -> None:
    """`rubi search --help` listed --top-k and --scope, and `rubi serve --help` --port,
    with a type and a default but no word of what they do."""
    silent = [
        f"{path} {option.opts[0]}"
        for path, command in _commands(cli, "rubi")
        for option in command.params
        if isinstance(option, click.Option)
        and not option.hidden
        and not (option.help or "").strip()
    ]
    assert silent == []


def test_cli_reference_is_up_to_date() -> None:
    module = load_script("scripts/cli_docs.py")
    assert module.main(["--check"]) == 0, "run: python scripts/cli_docs.py"
