"""What every command shares: the ``--vault`` option, error handling, output."""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rubi.core.errors import RubiError, os_error_line

if TYPE_CHECKING:
    from rubi.core.commandcalls import Answer
    from rubi.core.paths import VaultPaths
from rubi.core.safetext import BIDI_CONTROLS, terminal_text

__all__ = [
    "click_error",
    "console",
    "echo",
    "err_console",
    "handle_errors",
    "print_answer",
    "print_json",
    "progress_bar",
    "say_first_index",
    "say_waiting",
    "vault_option",
]

PROGRESS_AFTER_NOTES = 300
"""Show a progress bar only for runs that read at least this many notes."""

F = TypeVar("F", bound=Callable[..., Any])


def vault_option(func: F) -> F:
    """Add ``--vault PATH`` (default: the ``.rubi/`` above the current folder)."""
    return click.option(
        "--vault",
        "vault",
        type=click.Path(file_okay=True, dir_okay=True),
        default=None,
        callback=_vault_path,
        help="Vault folder (any Obsidian vault). Default: .rubi/ here or above.",
    )(func)


def _vault_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A ``--vault`` value as a path, or None when the option is not given.

    Raises:
        click.BadParameter: an empty value (``--vault "$UNSET"``), which as a path
            would be the current folder: a command would index whatever folder it
            runs in as a vault."""
    if value is None:
        return None
    if not value:
        raise click.BadParameter(
            "'' is not a folder; give the vault folder, "
            "or leave the option out for the .rubi/ here or above"
        )
    return Path(value)


def handle_errors(func: F) -> F:
    """Turn library errors into one line on stderr and exit status 1 (2 for a bad
    value). A command run with ``--json`` (its ``as_json`` parameter) prints
    ``{"error": "<the line>"}`` on stdout instead, with the same exit status. A
    ``BrokenPipeError`` (the output's reader went away) is no error of the command's:
    it passes on, for the group to stop quietly (:mod:`rubi.cli.closedoutput`)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            raise
        except (RubiError, OSError, ValueError) as exc:
            error = click_error(exc)
            cause: Exception = exc
        if kwargs.get("as_json"):
            print_json({"error": error.format_message()})
            raise SystemExit(error.exit_code) from cause
        raise error from cause

    return wrapper  # type: ignore[return-value]


def click_error(exc: RubiError | OSError | ValueError) -> click.ClickException:
    """The error a command shows for ``exc`` (:func:`handle_errors`): a
    :class:`~rubi.core.errors.RubiError` or an ``OSError`` as one line (exit 1), a
    ``ValueError`` as a usage error (exit 2)."""
    if isinstance(exc, RubiError):
        return click.ClickException(terminal_text(str(exc)))
    if isinstance(exc, OSError):
        return click.ClickException(terminal_text(os_error_line(exc)))
    return click.UsageError(str(exc))


def echo(message: str = "", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` of ``message`` with what a terminal would act on shown as escapes
    (:func:`rubi.core.safetext.terminal_text`): every line of human output goes
    through here, since notes, titles and file names arrive with a clone."""
    click.echo(terminal_text(message), err=err, nl=nl)


def print_json(value: Any) -> None:
    """Print one JSON document on stdout (UTF-8, not ASCII-escaped). JSON escapes C0
    controls itself; DEL, C1 and bidirectional controls, which it leaves raw, are
    written as ``\\u`` escapes too, so no string in it acts on a terminal."""
    text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
    click.echo(_RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


_RAW_IN_JSON = re.compile(rf"[\x7f-\x9f{BIDI_CONTROLS}]")


def print_answer(answer: Answer) -> None:
    """Print a command's answer (:mod:`rubi.core.commandcalls`): its notice, if any,
    as one line on stderr, then its JSON document (:func:`print_json`) or its text
    (:func:`echo`) on stdout."""
    if answer.notice:
        echo(answer.notice, err=True)
    if answer.is_json:
        print_json(answer.data)
    else:
        echo(answer.data)


def console() -> Any:
    """A rich console on stdout (imported lazily: rich costs ~50 ms to import)."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def err_console() -> Any:
    """A rich console on stderr, for progress and warnings."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True, file=sys.stderr)


def warning_line(warning: object) -> str:
    """How every command words a problem that did not stop it (a note that is not
    UTF-8 text, a broken frontmatter: ``warning: notes/a.md: ...``), one line."""
    return f"warning: {warning}"


def warn(warnings: Iterable[object]) -> None:
    """Print :func:`warning_line` of each of ``warnings`` on stderr."""
    for w in warnings:
        echo(warning_line(w), err=True)


def say_waiting() -> None:
    """Tell the user why nothing happens while another run holds the index lock."""
    echo("Waiting for another rubi index run to finish…", err=True)


def say_first_index(paths: VaultPaths) -> None:
    """On a pipe or file (an agent's shell tool, a script), where no progress bar
    shows, say once on stderr that ``paths`` is indexed for the first time and how
    much it holds (:func:`rubi.app.firstindex.first_index_line`); nothing when it was
    indexed before (two ``stat`` calls), stderr is a terminal, or another run is
    building it (:func:`say_waiting` says that this run waits for it)."""
    from rubi.app.firstindex import first_index_line, index_run_under_way, never_indexed

    if not never_indexed(paths) or err_console().is_terminal or index_run_under_way(paths):
        return
    line = first_index_line(paths)
    if line is not None:
        echo(line, err=True)


@contextmanager
def progress_bar(
    enabled: bool, paths: VaultPaths | None = None
) -> Iterator[Callable[[int, int, str], None] | None]:
    """A rich progress bar on stderr for a long index run: one stage at a time
    (reading notes, mapping code, indexing text), each with items done of total,
    items per second, elapsed time and an estimate of the time left. Shown only for
    stages of at least :data:`PROGRESS_AFTER_NOTES` items, and only on a terminal (on
    a pipe or file it writes nothing but, with ``paths`` never indexed, one line of
    :func:`say_first_index`)."""
    if not enabled:
        yield None
        return
    if paths is not None:
        say_first_index(paths)
    bar: Any = None
    task: Any = None
    stage_now = ""
    quiet = False

    def update(done: int, total: int, stage: str = "Indexing notes") -> None:
        nonlocal bar, task, stage_now, quiet
        if total < PROGRESS_AFTER_NOTES or quiet:
            return
        if bar is None:
            console = err_console()
            if not console.is_terminal:  # a pipe or file (an agent, a hook, CI): no bar
                quiet = True
                return
            # Imported only when a long run needs it: rich.progress costs ~40 ms.
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            bar = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            bar.start()
        if stage != stage_now:
            if task is not None:
                bar.remove_task(task)
            task = bar.add_task(stage, total=total, rate="")
            stage_now = stage
        speed = bar.tasks[-1].speed if bar.tasks else None
        rate = f"{speed:,.0f}/s" if speed else ""
        bar.update(task, completed=done, total=total, rate=rate)

    try:
        yield update
    finally:
        if bar is not None:
            bar.stop()
