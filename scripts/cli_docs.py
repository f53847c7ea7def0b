"""Write docs/cli.md from the CLI's own --help texts (run after changing a command).

    python scripts/cli_docs.py            # rewrite docs/cli.md
    python scripts/cli_docs.py --check    # exit 1 if docs/cli.md is out of date

tests/test_cli_docs.py runs the check, so the reference never drifts from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.testing import CliRunner

from rubi.cli.main import cli

DOC = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def _help(args: list[str]) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], prog_name="rubi", terminal_width=88)
    return result.output.rstrip()


def render() -> str:
    """The whole reference: the group's help, then each command (and sub-command)."""
    parts = [
        "# rubi command reference",
        "",
        "Generated from `--help` by `scripts/cli_docs.py`; do not edit by hand.",
        "",
        "```",
        _help([]),
        "```",
    ]
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        if command is None:
            continue
        parts += ["", f"## rubi {name}", "", "```", _help([name]), "```"]
        if isinstance(command, click.Group):
            for sub in command.list_commands(click.Context(command)):
                parts += ["", f"### rubi {name} {sub}", "", "```", _help([name, sub]), "```"]
    return "\n".join(parts) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC} is out of date: run python scripts/cli_docs.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
