"""``rubi search``, ``read``, ``links``, ``backlinks``, ``timeline``."""

from __future__ import annotations

from pathlib import Path

import click

from rubi import app
from rubi.app.commandanswers import (
    MAX_BUDGET_TOKENS,
    MIN_BUDGET_TOKENS,
    Answer,
    ReadArgs,
    SearchArgs,
    answer_read,
    answer_search,
    link_json,
)
from rubi.cli.common import (
    echo,
    handle_errors,
    print_answer,
    print_json,
    progress_bar,
    say_waiting,
    vault_option,
)
from rubi.cli.engineroute import answered
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
    type=click.IntRange(MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS),
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
    args = SearchArgs(
        query=" ".join(query),
        terms=terms,
        top_k=top_k,
        budget=budget,
        scope=scope,
        include_superseded=include_superseded,
        personal=False if no_personal else None,
        since=since,
        until=until,
        as_json=as_json,
    )

    def here() -> Answer:
        with progress_bar(True) as progress:
            return answer_search(paths, args, progress=progress, on_wait=say_waiting)

    print_answer(answered(paths, args, here))


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
    args = ReadArgs(ref, as_json)
    print_answer(answered(paths, args, lambda: answer_read(paths, args)))


def _print_links(items: list[app.LinkView], as_json: bool) -> None:
    if as_json:
        print_json([link_json(lv) for lv in items])
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
