"""``rubi search``, ``read``, ``links``, ``backlinks``, ``timeline``."""

from __future__ import annotations

from pathlib import Path

import click

from rubi import app
from rubi.cli.common import echo, handle_errors, print_json, progress_bar, say_waiting, vault_option
from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS, DEFAULT_TOP_K, MAX_TOP_K
from rubi.core.tokens import CHARS_PER_TOKEN

__all__ = ["backlinks", "links", "read", "search", "timeline"]


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--terms", "-t", multiple=True, help="Related word or identifier (repeatable).")
@click.option(
    "--top-k", type=click.IntRange(1, MAX_TOP_K), default=DEFAULT_TOP_K, show_default=True
)
@click.option(
    "--budget",
    type=click.IntRange(50, 100_000),
    default=DEFAULT_BUDGET_TOKENS,
    show_default=True,
    help=f"Output budget in tokens (characters / {CHARS_PER_TOKEN}).",
)
@click.option("--scope", type=click.Choice(app.SEARCH_SCOPES), default="all", show_default=True)
@click.option("--all", "include_superseded", is_flag=True, help="Include superseded notes.")
@click.option(
    "--no-personal",
    "no_personal",
    is_flag=True,
    help="Leave the personal vault out (also: personal = false in a config.toml).",
)
@click.option("--since", metavar="YYYY-MM-DD", help="Only hits of this day or later.")
@click.option("--until", metavar="YYYY-MM-DD", help="Only hits of this day or earlier.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@vault_option
@handle_errors
def search(
    query: tuple[str, ...],
    terms: tuple[str, ...],
    top_k: int,
    budget: int,
    scope: str,
    include_superseded: bool,
    no_personal: bool,
    since: str | None,
    until: str | None,
    as_json: bool,
    vault: Path | None,
) -> None:
    """Search notes by text, names and links. Indexes first if needed. Each hit
    shows its day (a note's updated/created, a code file's last commit, else the
    file's time); --since/--until keep the hits of those days."""
    paths = app.locate(vault)
    with progress_bar(True) as progress:
        result = app.search(
            paths,
            " ".join(query),
            terms=terms,
            top_k=top_k,
            scope=scope,
            include_superseded=include_superseded,
            progress=progress,
            on_wait=say_waiting,
            personal=False if no_personal else None,
            since=since,
            until=until,
        )
    if as_json:
        print_json(app.search_json(result, budget))
    else:
        echo(app.render_search(result, budget))


@click.command()
@click.argument("ref")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def read(ref: str, as_json: bool, vault: Path | None) -> None:
    """Print a note in full (by id, path, title or alias) with its links, or a code
    file's outline (by the id search prints: its path), or one part of either by a
    passage id search prints (note#Heading, note#L12-30, path#L120-168, path#Symbol)."""
    paths = app.locate(vault)
    part = app.read_part(paths, ref)
    if part is not None:
        _print_part(part, as_json)
        return
    code = app.read_code(paths, ref)
    if code is not None:
        if as_json:
            print_json(
                {
                    "id": code.id,
                    "path": code.id,
                    "kind": "file",
                    "text": code.outline,
                    "links": [_lv(lv) for lv in code.links],
                    "backlinks": [_lv(lv) for lv in code.backlinks],
                }
            )
        else:
            echo(code.outline)
        return
    view = app.read_note(paths, ref)
    note = view.note
    if as_json:
        print_json(
            {
                "id": view.id or note.id,
                "path": note.path,
                "title": note.title,
                "type": note.type,
                "status": note.status,
                "stale": list(view.stale),
                "superseded_by": view.superseded_by,
                "text": view.text,
                "links": [_lv(lv) for lv in view.links],
                "backlinks": [_lv(lv) for lv in view.backlinks],
            }
        )
        return
    echo(app.render_note_view(view))


def _print_part(part: app.PartView, as_json: bool) -> None:
    from rubi.app.passageread import render_part

    if as_json:
        print_json(
            {
                "id": part.id,
                "parent": part.parent,
                "title": part.title,
                "kind": part.kind,
                "heading": part.heading,
                "lines": [part.start, part.end],
                "text": part.text,
            }
        )
    else:
        echo(render_part(part))


def _lv(lv: app.LinkView) -> dict[str, str]:
    return {"id": lv.id, "title": lv.title, "kind": lv.kind, "relation": lv.relation}


def _print_links(items: list[app.LinkView], as_json: bool) -> None:
    if as_json:
        print_json([_lv(lv) for lv in items])
        return
    if not items:
        echo("(none)")
    for lv in items:
        mark = "  (unresolved)" if lv.kind == "dangling" else ""
        echo(f"{lv.relation:<12} {lv.id}{mark}")


@click.command()
@click.argument("ref")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def links(ref: str, as_json: bool, vault: Path | None) -> None:
    """List the links of a note (or the imports of a code file), with their relation."""
    _print_links(app.links(app.locate(vault), ref), as_json)


@click.command()
@click.argument("ref")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def backlinks(ref: str, as_json: bool, vault: Path | None) -> None:
    """List the notes that link to a note (or import or describe a code file)."""
    _print_links(app.backlinks(app.locate(vault), ref), as_json)


@click.command()
@click.argument("ref")
@click.option(
    "--days",
    type=click.IntRange(0, 366),
    default=3,
    show_default=True,
    help="Days on each side of REF's day.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def timeline(ref: str, days: int, as_json: bool, vault: Path | None) -> None:
    """What happened around a hit: the notes, handoffs and captured sessions (with
    their turns) of the days around REF's day, newest first. REF is an id search
    printed, a title, or a day (YYYY-MM-DD)."""
    from rubi.app.timeline import render_timeline, timeline_json
    from rubi.app.timeline import timeline as use_case

    found = use_case(app.locate(vault), ref, days)
    if as_json:
        print_json(timeline_json(found))
    else:
        echo(render_timeline(found))
