"""``rubi links``, ``rubi backlinks`` and ``rubi timeline``: a note's or file's
neighbours, and what happened around a hit."""

from __future__ import annotations

from pathlib import Path

import click

from rubi import app
from rubi.app.commandanswers import link_json
from rubi.cli.common import (
    echo,
    handle_errors,
    print_json,
    progress_bar,
    say_waiting,
    vault_option,
)
from rubi.core.paths import VaultPaths

__all__ = ["backlinks", "links", "timeline"]


def _fresh(vault: Path | None) -> VaultPaths:
    """The vault, its index brought up to date first as ``rubi read`` and ``rubi
    search`` do (a note saved a moment ago, and the links it adds, are there)."""
    from rubi.app.searching import ensure_index

    paths = app.locate(vault)
    with progress_bar(True, paths) as progress:
        ensure_index(paths, True, progress, say_waiting)
    return paths


def _print_links(ref: str, found: app.LinkList, key: str, as_json: bool) -> None:
    """Print ``found`` as ``rubi read`` prints a note: with ``--json``, one object
    ``{"id", key: [links], "other_matches"}``; else a line on stderr when ``ref``
    names several notes (:func:`rubi.app.reading.choice_line`), then one link a line:
    ``supersedes   notes/old`` for a link of the note's, ``notes/new  supersedes this``
    for a backlink (as ``supersedes notes/new`` it read as the opposite link)."""
    from rubi.app.reading import choice_line

    if as_json:
        items = [link_json(lv) for lv in found.items]
        print_json({"id": found.id, key: items, "other_matches": list(found.others)})
        return
    notice = choice_line(ref, found.id, found.others)
    if notice:
        echo(notice, err=True)
    if not found.items:
        echo("(none)")
    for lv in found.items:
        if key == "backlinks":  # the other note is the subject: "x supersedes this"
            echo(f"{lv.id}  {lv.relation} this")
        elif lv.kind == "dangling":  # its id is the graph's (dangling:<folded name>)
            echo(f"{lv.relation:<12} [[{lv.title}]]  (unresolved)")
        else:
            echo(f"{lv.relation:<12} {lv.id}")


@click.command()
@click.argument("ref")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON object: {id, links: [{id, title, kind, relation}], other_matches}.",
)
@vault_option
@handle_errors
def links(ref: str, as_json: bool, vault: Path | None) -> None:
    """List the links of a note (or the imports of a code file), with their relation.
    A title or alias several notes share lists the first's by id and names the others
    (on stderr; as other_matches with --json). Brings the index up to date first, as
    search does."""
    found = app.link_list(_fresh(vault), ref, incoming=False)
    _print_links(ref, found, "links", as_json)


@click.command()
@click.argument("ref")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON object: {id, backlinks: [{id, title, kind, relation}], other_matches}.",
)
@vault_option
@handle_errors
def backlinks(ref: str, as_json: bool, vault: Path | None) -> None:
    """List the notes that link to a note (or import or describe a code file). A title
    or alias several notes share lists the first's by id and names the others (on
    stderr; as other_matches with --json). Brings the index up to date first, as search
    does."""
    found = app.link_list(_fresh(vault), ref, incoming=True)
    _print_links(ref, found, "backlinks", as_json)


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
    printed, a title, or a day (YYYY-MM-DD). A title or alias several notes share
    centres on the first by id and names the others (on stderr; as other_matches with
    --json). Brings the index up to date first, as search does."""
    from rubi.app.reading import choice_line
    from rubi.app.timeline import render_timeline, timeline_json
    from rubi.app.timeline import timeline as use_case

    found = use_case(_fresh(vault), ref, days)
    if as_json:
        print_json(timeline_json(found))
        return
    notice = choice_line(ref, found.id, found.others)
    if notice:
        echo(notice, err=True)
    echo(render_timeline(found))
