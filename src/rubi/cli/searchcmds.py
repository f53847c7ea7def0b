"""``rubi search`` and ``rubi read``: the commands an agent runs all the time, which the
resident engine answers when one serves the vault (:mod:`rubi.cli.engineroute`). Their
imports are light (click and ``rubi.core``): the facade is imported only when the
command answers itself."""

from __future__ import annotations

import re
from pathlib import Path

import click

from rubi.cli.common import (
    handle_errors,
    print_answer,
    progress_bar,
    say_waiting,
    vault_option,
    warn,
)
from rubi.cli.engineroute import answered
from rubi.cli.main import ONE_COMMAND
from rubi.core.commandcalls import (
    MAX_BUDGET_TOKENS,
    MIN_BUDGET_TOKENS,
    Answer,
    ReadArgs,
    SearchArgs,
)
from rubi.core.errors import RubiError, VaultNotFoundError
from rubi.core.paths import VaultPaths, find_vault
from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS, DEFAULT_TOP_K, MAX_TOP_K, SEARCH_SCOPES
from rubi.core.tokens import CHARS_PER_TOKEN

__all__ = ["read", "search"]


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


def _real_day(day: str) -> bool:
    import datetime as dt  # only for a command given a day

    try:
        dt.date.fromisoformat(day)
    except ValueError:
        return False
    return True


def _day(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A ``--since``/``--until`` value as the search takes it: a day as ``YYYY-MM-DD``
    (spaces around it ignored), or None when the option is not given.

    Raises:
        click.BadParameter: anything else, an empty value among them (it would
            otherwise read as no limit at all)."""
    if value is None:
        return None
    day = value.strip()
    if not _DAY.fullmatch(day) or not _real_day(day):
        raise click.BadParameter(
            f"{value!r} is not a day; give one as YYYY-MM-DD (e.g. 2026-01-31), "
            "or leave the option out for no limit"
        )
    return day


STDIN_QUERY = "-"
"""The QUERY that reads the query from standard input (a pasted issue or log over the
shell's argument limit, about 128 KB on Linux), as ``rubi note add --body -`` reads a
body."""


MAX_STDIN_CHARS = 1_000_000
"""Standard input is read to this many characters at most (ten times the query's own
limit, :data:`~rubi.search.limits.MAX_QUERY_CHARS`, which the search then applies): a
log of gigabytes piped in, or ``yes | rubi search -``, was read whole into memory
before that limit refused it, and an endless one never ended."""


def query_text(words: tuple[str, ...]) -> str:
    """The query of QUERY's ``words``: joined by spaces, or standard input read to its
    end when the one word is :data:`STDIN_QUERY` (bytes that are not UTF-8 read as
    U+FFFD). The search then limits and refuses it as a query given as arguments.

    Raises:
        RubiError: standard input holds more than :data:`MAX_STDIN_CHARS` characters
            (no more than that is read)."""
    if words == (STDIN_QUERY,):
        with click.open_file("-", errors="replace") as stdin:  # click: "-" is stdin
            text: str = stdin.read(MAX_STDIN_CHARS + 1)
        if len(text) > MAX_STDIN_CHARS:
            raise RubiError(
                f"standard input: more than {MAX_STDIN_CHARS:,} characters, far over what "
                "a query may hold; pipe in the part that says what to look for"
            )
        return text
    return " ".join(words)


@click.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--terms", "-t", multiple=True, help="Related word or identifier (repeatable).")
@click.option(
    "--top-k",
    type=click.IntRange(1, MAX_TOP_K),
    default=DEFAULT_TOP_K,
    show_default=True,
    help="Hits to rank at most (the budget may show fewer).",
)
@click.option(
    "--budget",
    type=click.IntRange(MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS),
    default=DEFAULT_BUDGET_TOKENS,
    show_default=True,
    help=f"Output budget in tokens (characters / {CHARS_PER_TOKEN}).",
)
@click.option(
    "--scope",
    type=click.Choice(SEARCH_SCOPES),
    default="all",
    show_default=True,
    help="all: notes and code of the project and the personal vault; notes: notes of "
    "both vaults; code; personal: the personal vault only; sessions: recorded sessions.",
)
@click.option("--all", "include_superseded", is_flag=True, help="Include superseded notes.")
@click.option(
    "--no-personal",
    "no_personal",
    is_flag=True,
    help="Leave the personal vault out (also: personal = false in a config.toml).",
)
@click.option(
    "--since", metavar="YYYY-MM-DD", callback=_day, help="Only hits of this day or later."
)
@click.option(
    "--until", metavar="YYYY-MM-DD", callback=_day, help="Only hits of this day or earlier."
)
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
    """Search notes and code by text, names and links. Brings the notes up to date
    first; code is mapped on the first run, then by `rubi index`, a session start or a
    running `rubi serve`/`rubi watch` (a file pulled since is found after one of them;
    `rubi status` says when the map is behind). Each hit shows its day (a note's
    updated/created/date, or the day its name starts with, a code file's last commit,
    else the file's time), marked "(file time)" when it is the file's time (a copied or
    cloned file carries the day it was copied); --json gives it as date and date_source
    (an uncommitted edit of a code file is newer than its "commit" day). --since/--until keep
    the hits of those days. QUERY `-`
    reads the query from standard input (a pasted log: `rubi search - < error.log`).
    `--scope personal` outside a project searches the personal vault alone."""
    paths, personal_alone = _vault_to_search(vault, scope)
    args = SearchArgs(
        query=query_text(query),
        terms=terms,
        top_k=top_k,
        budget=budget,
        scope="notes" if personal_alone else scope,
        include_superseded=include_superseded,
        personal=False if no_personal or personal_alone else None,
        since=since,
        until=until,
        as_json=as_json,
    )

    def here() -> Answer:
        from rubi.app.commandanswers import answer_search
        from rubi.app.searching import one_search

        if click.get_current_context().find_root().obj == ONE_COMMAND:
            one_search()  # this process searches once, then exits
        with progress_bar(True, paths) as progress:
            return answer_search(
                paths,
                args,
                progress=progress,
                on_wait=say_waiting,
                on_warning=lambda w: warn([w]),
            )

    print_answer(answered(paths, args, here))


def _vault_to_search(vault: Path | None, scope: str) -> tuple[VaultPaths, bool]:
    """The vault a search looks in, and whether it is the personal vault alone: the
    one found (``--vault``, else ``.rubi/`` here or above), else, for ``--scope
    personal`` outside a project, the personal vault when it exists (``rubi note add
    --personal`` writes there from anywhere, and the search of it said "no .rubi/ here").

    Raises:
        VaultNotFoundError: no vault, and no personal vault for ``--scope personal``.
    """
    try:
        return find_vault(vault), False
    except VaultNotFoundError:
        if vault is not None or scope != "personal":
            raise
        from rubi.app.personalvault import existing_personal_vault

        found = existing_personal_vault()
        if found is None:
            raise
        return found, True


@click.command()
@click.argument("ref")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def read(ref: str, as_json: bool, vault: Path | None) -> None:
    """Print a note in full (by id, path, title or alias) with its links, or a code
    file's outline (by the id search prints: its path), or one part of either by a
    passage id search prints (note#Heading, note#L12-30, path#L120-168, path#Symbol).
    A title or alias several notes share reads the first by id and names the others
    (on stderr; as other_matches with --json). Brings the index up to date first, as
    search does."""
    if not ref.strip():
        raise ValueError("REF is empty: give a note id, path, title or alias, or a passage id")
    paths = find_vault(vault)
    args = ReadArgs(ref, as_json)

    def here() -> Answer:
        from rubi.app.commandanswers import answer_read

        with progress_bar(True, paths) as progress:
            return answer_read(paths, args, progress=progress, on_wait=say_waiting)

    print_answer(answered(paths, args, here))
