"""``rubi note add``: register knowledge from the command line."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from rubi import app
from rubi.cli.common import echo, handle_errors, print_json, vault_option
from rubi.core.errors import RubiError, VaultNotFoundError
from rubi.core.model import DEFAULT_RELATION, NOTE_TYPES
from rubi.core.paths import VaultPaths

__all__ = ["note"]


@click.group()
def note() -> None:
    """Write knowledge into the vault."""


def _links(specs: tuple[str, ...]) -> list[dict[str, str]]:
    out = []
    for spec in specs:
        relation, sep, target = spec.partition(":")
        if not sep or not target.strip():
            raise click.BadParameter(f"{spec!r}: write RELATION:TARGET", param_hint="--link")
        out.append({"relation": relation.strip() or DEFAULT_RELATION, "target": target.strip()})
    return out


def _kinds() -> str:
    """``a decision, bug, ... or note``: the note types, in their owner's order."""
    *first, last = NOTE_TYPES
    return f"a {', '.join(first)} or {last}"


_ADD_HELP = f"""Register {_kinds()}.

An item that says the same as an existing note (same type and title, or a close
title about the same files) updates that note instead of adding a twin.
"""


@note.command("add", help=_ADD_HELP)
@click.option("--type", "note_type", type=click.Choice(NOTE_TYPES), help="Kind of knowledge.")
@click.option("--title", help="One line that says it.")
@click.option(
    "--body", help="Markdown text: what was learned and why (required); '-' reads standard input."
)
@click.option(
    "--file",
    "files",
    multiple=True,
    help="File it is about: a path from here, or absolute inside the project (repeatable).",
)
@click.option(
    "--link",
    "links",
    multiple=True,
    metavar="RELATION:TARGET",
    help="Typed link to another note, e.g. about:concept-auth (repeatable).",
)
@click.option("--supersedes", help="Id or title of the note this one replaces.")
@click.option("--tag", "tags", multiple=True, help="Tag (repeatable).")
@click.option(
    "--personal", is_flag=True, help="Write to the personal vault (also outside a project)."
)
@click.option(
    "--from-json",
    "from_json",
    type=click.File("r", encoding="utf-8"),
    help="A JSON list of note objects ('-' for standard input) instead of options; "
    "their files are relative to the project root.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@vault_option
@handle_errors
def add(
    note_type: str | None,
    title: str | None,
    body: str | None,
    files: tuple[str, ...],
    links: tuple[str, ...],
    supersedes: str | None,
    tags: tuple[str, ...],
    personal: bool,
    from_json: Any,
    as_json: bool,
    vault: Path | None,
) -> None:
    """Register knowledge (help: ``_ADD_HELP``, derived from ``NOTE_TYPES``)."""
    items: list[Any]
    cwd: Path | None = None
    if from_json is not None:
        if any((note_type, title, body, files, links, supersedes, tags, personal)):
            raise click.UsageError("--from-json takes the whole note; give no other note option")
        data = _load_json(from_json)
        items = data if isinstance(data, list) else [data]
    else:
        if not note_type or not title:
            raise click.UsageError("give --type and --title (or --from-json)")
        if body is None:  # MCP register requires a body too; stdin is read only when asked
            raise click.UsageError(
                "give --body with what was learned and why (--body - reads it from standard input)"
            )
        cwd = Path.cwd()  # --file paths are typed from here
        text = sys.stdin.read() if body == "-" else body
        items = [
            {
                "type": note_type,
                "title": title,
                "body": text,
                "files": list(files),
                "links": _links(links),
                "supersedes": supersedes,
                "tags": list(tags),
                "scope": "personal" if personal else "project",
            }
        ]
    into = _target(vault, items)
    try:
        results = app.register(into, items, cwd=cwd)
    except RubiError as exc:
        if from_json is not None:
            raise
        raise RubiError(_options_named(str(exc))) from exc
    if as_json:
        print_json([_result(r) for r in results])
        return
    if vault is None and into.project_root is None:  # no project here: _target's fallback
        echo(f"No project here: written to the personal vault {into.root}.")
    for r in results:
        echo(f"{r.action:<8} {r.id}  ({r.title})")
        for old in r.superseded:
            echo(f"         supersedes {old}")
        for target in r.dangling:
            echo(f"         link to {target!r} matches no note yet (left unresolved)")
        if r.redacted:
            echo(f"         {app.describe_redacted(r.redacted)}")


_FIELD = re.compile(
    r"notes\[0\](?:\.(files|tags|links|title|body|supersedes|type)(?:\[\d+\](?:\.target)?)?)?"
)
"""A field of the one note the options make, as the register tool's messages name it."""

_OPTION = {"files": "--file", "tags": "--tag", "links": "--link"}


def _options_named(message: str) -> str:
    """``message`` with the fields of the register tool (``notes[0].files[1]``) named
    as this command's options (``--file``): the options are what the user typed."""

    def option(match: re.Match[str]) -> str:
        name = match.group(1)
        return "the note" if name is None else _OPTION.get(name, f"--{name}")

    return _FIELD.sub(option, message)


def _target(vault: Path | None, items: list[Any]) -> VaultPaths:
    """The vault ``note add`` writes through: ``--vault``, else the project's; outside
    a project, the personal vault when every note goes there (``--personal``, or
    ``"scope": "personal"`` in each JSON note), as the MCP server serves it there.

    Raises:
        VaultNotFoundError: no project here and a note is for the project.
        RubiError: the personal vault cannot be created.
    """
    try:
        return app.locate(vault)
    except VaultNotFoundError:
        personal = bool(items) and all(
            isinstance(i, dict) and i.get("scope") == "personal" for i in items
        )
        if vault is not None or not personal:
            raise
    from rubi.app.personalvault import open_personal_vault

    return open_personal_vault()


def _load_json(stream: Any) -> Any:
    """The JSON document of ``--from-json``, or one line saying why it is not one."""
    try:
        return json.load(stream)
    except json.JSONDecodeError as exc:
        raise RubiError(f"--from-json: not JSON ({exc.msg} at line {exc.lineno})") from exc
    except RecursionError:
        raise RubiError(
            "--from-json: nested too deeply to be a note; give a list of flat note objects"
        ) from None
    except UnicodeDecodeError as exc:
        raise RubiError(
            f"--from-json: not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from None


def _result(r: Any) -> dict[str, Any]:
    return {
        "action": r.action,
        "id": r.id,
        "path": r.path,
        "title": r.title,
        "superseded": list(r.superseded),
        "dangling": list(r.dangling),
        "redacted": list(r.redacted),
    }
