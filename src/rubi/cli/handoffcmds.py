"""``rubi handoff save`` and ``rubi handoff show``."""

from __future__ import annotations

import re
from pathlib import Path

import click

from rubi import app
from rubi.cli.common import echo, handle_errors, print_json, vault_option
from rubi.core.errors import RubiError
from rubi.core.safetext import terminal_text

__all__ = ["handoff"]


@click.group()
def handoff() -> None:
    """Where a session left off, for the next one."""


_FIELD = re.compile(r"^(files|notes|next_steps|goal|state)(?:\[\d+\])?")
"""The field a message of the handoff tool's checks starts with (``files[0]``)."""

_OPTION = {
    "files": "--file",
    "notes": "--note",
    "next_steps": "--next",
    "goal": "--goal",
    "state": "--state",
}
"""Each field as the option of ``rubi handoff save`` that gives it: the user typed
``--file``, not ``files[0]``."""


@handoff.command("save")
@click.option("--goal", required=True, help="What the work is for.")
@click.option("--state", required=True, help="Where it stands.")
@click.option("--next", "next_steps", multiple=True, help="A next step (repeatable, in order).")
@click.option("--file", "files", multiple=True, help="A file that matters, from here (repeatable).")
@click.option("--note", "notes", multiple=True, help="A note that matters (repeatable).")
@vault_option
@handle_errors
def save(
    goal: str,
    state: str,
    next_steps: tuple[str, ...],
    files: tuple[str, ...],
    notes: tuple[str, ...],
    vault: Path | None,
) -> None:
    """Save a handoff in .rubi/handoffs/."""
    paths = app.locate(vault)
    try:
        written = app.save_handoff(paths, goal, state, next_steps, files, notes, cwd=Path.cwd())
    except RubiError as exc:
        raise RubiError(_FIELD.sub(lambda m: _OPTION[m.group(1)], str(exc), count=1)) from exc
    echo(f"Saved {written.path}.")
    if written.redacted:
        echo(app.describe_redacted(written.redacted, sentence=True))


@handoff.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def show(as_json: bool, vault: Path | None) -> None:
    """Print the last handoff of any git worktree of the project (exit 1 when there
    is none)."""
    paths = app.locate(vault)
    last = app.last_handoff(paths)
    if last is None:
        other = app.teammate_handoff(paths)
        if other is not None:  # pulled from a teammate: theirs to resume, not this user's
            raise click.ClickException(  # its id and author came with a clone
                terminal_text(
                    f"no handoff of yours yet; {other[0]} is {other[1]}'s (`rubi read "
                    f"{other[0]}` opens it); save yours with `rubi handoff save`"
                )
            )
        raise click.ClickException("no handoff yet; save one with `rubi handoff save`")
    if as_json:
        print_json(
            {
                "path": last.path,
                "created": last.created,
                "text": last.text,
                "worktree": last.worktree or None,
            }
        )
    else:
        if last.worktree:
            echo(f"(saved in the worktree {last.worktree})")
        echo(last.text.rstrip("\n"))
