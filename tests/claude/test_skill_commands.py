"""Every ``rubi`` command the skills, the Gemini context file and the vault's README
tell an agent or a user to run parses as written: a skill's shell fallback that stops
at a usage error ("Missing option '--goal'") sends the agent on a detour."""

from __future__ import annotations

import re
import shlex

import click
import pytest

from rubi.cli.main import cli

from helpers import REPO

COMMAND = re.compile(r"`(rubi [^`]+)`")
FILES = [
    *sorted((REPO / "skills").glob("*/SKILL.md")),
    REPO / "gemini" / "GEMINI.md",
    REPO / "vault-template" / "README.md",
]


def _commands() -> list[tuple[str, str]]:
    found = []
    for path in FILES:
        rel = path.relative_to(REPO).as_posix()
        found += [(rel, c) for c in COMMAND.findall(path.read_text(encoding="utf-8"))]
    return found


def _parse(line: str) -> None:
    """Parse ``line`` down to its command as click would, running nothing."""
    args = shlex.split(line)[1:]
    command: click.Command = cli
    ctx = command.make_context("rubi", args)
    while isinstance(command, click.Group):
        rest = [*getattr(ctx, "_protected_args", ()), *ctx.args]  # click 8.2 keeps both
        if not rest:
            break
        _, sub, rest = command.resolve_command(ctx, rest)
        assert sub is not None, line
        command, ctx = sub, sub.make_context(sub.name or "", rest, parent=ctx)


def test_the_files_name_commands() -> None:
    names = {c.split()[1] for _, c in _commands()}
    assert {"search", "read", "map", "note", "handoff", "xray"} <= names


@pytest.mark.parametrize(("where", "line"), _commands())
def test_a_command_a_skill_names_parses(where: str, line: str) -> None:
    try:
        _parse(line)
    except click.UsageError as exc:  # a missing option or argument, an unknown one
        pytest.fail(f"{where}: `{line}`: {exc.format_message()}")
