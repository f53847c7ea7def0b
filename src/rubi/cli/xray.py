"""``rubi xray`` (where Claude Code tokens go) and ``rubi audit`` (what loads first)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from rubi.app import xray as use_case
from rubi.app.xray import DEFAULT_DAYS, DEFAULT_HANDOFF_TOKENS, DEFAULT_THRESHOLDS, format_tokens
from rubi.cli import tables
from rubi.cli.common import console, err_console, handle_errors, print_json
from rubi.core.safetext import terminal_text

__all__ = ["audit", "cost", "xray"]


def parse_tokens(text: str) -> int:
    """A token count written ``150000``, ``150k`` or ``1.5M``.

    Raises:
        click.BadParameter: not a positive count.
    """
    clean = text.strip().lower().replace("_", "")
    scale = {"k": 1_000, "m": 1_000_000}.get(clean[-1:], 1)
    try:
        number = float(clean[:-1] if scale > 1 else clean)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a token count such as 150000, 150k or 1.5M"
        ) from None
    if number <= 0:
        raise click.BadParameter(f"{text!r}: a token count must be positive")
    return int(number * scale)


def _tokens_option(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(parse_tokens(v) for v in value)
    return parse_tokens(str(value))


def _pct(part: float, whole: float) -> str:
    text = f"{(part / whole if whole else 0.0) * 100:.1f}%"
    return "0.0%" if text == "-0.0%" else text


def _classes_table(report: Any) -> Any:
    table = tables.table(
        "Cost by token class", ("class", "tokens", "price", "cost", "share"), ("class",)
    )
    for name, value in report.cost_by_class.items():
        table.add_row(
            use_case.CLASS_LABELS[name],
            format_tokens(getattr(report.usage, name)),
            f"{getattr(report.prices, name):g}x",
            format_tokens(value),
            _pct(value, report.cost),
        )
    return table


def _plain(text: str, style: str = "") -> Any:
    """``text`` from a transcript (a file path, a tool or folder name, a transcript's
    own file name) for a rich console: a rich ``Text``, shown as written, never read
    as markup (a ``[/bold]`` in a path broke the report; ``rich.markup.escape``
    doubled a closing backslash, ``C:\\dir\\`` shown as ``C:\\dir\\\\``), a terminal
    escape shown escaped."""
    from rich.text import Text

    return Text(terminal_text(text), style=style)


def _sessions_table(report: Any, top: int) -> Any:
    table = tables.table(
        f"Costliest sessions (of {len(report.sessions)})",
        (
            "session",
            "folder",
            "calls",
            "peak",
            "start",
            "cost",
            "share",
            "expired",
            "compacted",
        ),
        ("session", "folder"),
        ("folder",),
    )
    for s in report.sessions[:top]:
        table.add_row(
            _plain(s.session_id[:8]),
            _plain(Path(s.folder).name),
            str(len(s.main_calls)),
            format_tokens(s.peak_context),
            format_tokens(s.startup_tokens) if s.startup_tokens is not None else "-",
            format_tokens(s.cost),
            _pct(s.cost, report.cost),
            str(sum(1 for r in s.rewrites if r.expired)),
            str(len(s.compactions)),
        )
    return table


def _tools_table(report: Any, top: int) -> Any:
    table = tables.table(
        "Tool results by weight", ("tool", "results", "tokens", "carried cost", "share"), ("tool",)
    )
    for name, w in report.tools[:top]:
        table.add_row(
            _plain(name),
            str(w.calls),
            format_tokens(w.tokens),
            format_tokens(w.carried_cost),
            _pct(w.carried_cost, report.cost),
        )
    return table


def _rereads_table(report: Any, top: int) -> Any:
    table = tables.table(
        "Re-read files", ("file", "extra reads", "extra tokens", "sessions"), ("file",), ("file",)
    )
    for r in report.rereads[:top]:
        table.add_row(
            _plain(r.path), str(r.extra_reads), format_tokens(r.extra_tokens), str(r.sessions)
        )
    return table


def _replay_table(report: Any) -> Any:
    table = tables.table(
        f"Early compaction replay (handoff {format_tokens(report.policy.handoff_tokens)})",
        ("threshold", "sessions", "compactions", "saving", "share"),
        (),
    )
    for item in report.savings:
        best = " *" if report.best is item else ""
        table.add_row(
            format_tokens(item.threshold) + best,
            str(item.sessions),
            str(item.compactions),
            format_tokens(item.saving),
            _pct(item.saving, report.cost),
        )
    return table


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _skipped_line(stats: Any) -> str:
    """``Skipped 1 broken line (f.jsonl:33).``, the unreadable files only when there
    are some; "" when nothing was skipped."""
    parts = []
    if stats.bad_lines:
        where = ", ".join(stats.bad_examples)
        parts.append(f"{_count(stats.bad_lines, 'broken line')} ({where})")
    if stats.unreadable_files:
        parts.append(_count(stats.unreadable_files, "unreadable file"))
    return f"Skipped {' and '.join(parts)}." if parts else ""


def _print_report(report: Any, top: int) -> None:
    out = console()
    lines = use_case.summary_lines(report)
    out.print(_plain(lines[0], "bold"))
    if not report.sessions:
        return
    tables.print_table(out, _classes_table(report))
    tables.print_table(out, _sessions_table(report, top))
    if report.tools:
        tables.print_table(out, _tools_table(report, top))
    else:  # an empty table's headers read as a report that failed to load
        out.print("Tool results by weight: none (no tool ran in these sessions).")
    if report.rereads:
        tables.print_table(out, _rereads_table(report, top))
    tables.print_table(out, _replay_table(report))
    for line in lines:
        if line.startswith(("Sessions past", "Startup context", "Cache expiries")):
            out.print(line)
    skipped = _skipped_line(report.read_stats)
    if skipped:
        out.print(_plain(skipped, "yellow"))
    out.print(f"[bold]First change:[/bold] {use_case.first_change(report)}")


@click.command()
@click.argument(
    "transcripts", nargs=-1, type=click.Path(dir_okay=True, path_type=Path), metavar="[FILE]..."
)
@click.option(
    "--days",
    type=click.IntRange(min=0),
    default=DEFAULT_DAYS,
    show_default=True,
    help="Only sessions active in the last N days; 0 for all (the default with FILEs).",
)
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Only the sessions of this project folder.",
)
@click.option(
    "--threshold",
    "thresholds",
    multiple=True,
    metavar="TOKENS",
    callback=_tokens_option,
    help="Compaction threshold to replay, e.g. 120k (repeatable). Default: "
    + ", ".join(format_tokens(t) for t in DEFAULT_THRESHOLDS)
    + ".",
)
@click.option(
    "--handoff",
    default=str(DEFAULT_HANDOFF_TOKENS),
    metavar="TOKENS",
    callback=_tokens_option,
    show_default=True,
    help="Handoff size the replay resumes from, in tokens.",
)
@click.option(
    "--top", type=click.IntRange(1, 200), default=10, show_default=True, help="Rows per table."
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write a self-contained HTML report with charts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@handle_errors
def xray(
    transcripts: tuple[Path, ...],
    days: int,
    project: Path | None,
    thresholds: tuple[int, ...],
    handoff: int,
    top: int,
    html_path: Path | None,
    as_json: bool,
) -> None:
    """Show where your Claude Code tokens went, and what early compaction would save.

    Reads the transcripts in ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects), or
    the transcript FILEs given (<session>.jsonl, each with its <session>/subagents/
    beside it; every age unless --days is given). Costs are in input-token
    equivalents: cache read 0.1, cache write 1.25 (5 min) or 2 (1 hour), output 5.
    """
    if transcripts:
        if project is not None:
            raise click.UsageError("give transcript FILEs or --project, not both")
        source = click.get_current_context().get_parameter_source("days")
        if source is ParameterSource.DEFAULT:
            days = 0
    bar_console = None if as_json else err_console()
    if bar_console is None or not bar_console.is_terminal:  # JSON, a pipe, a file: no bar
        report = use_case.scan(
            days=days,
            project=project,
            thresholds=thresholds,
            handoff_tokens=handoff,
            files=transcripts,
        )
    else:
        from rich.progress import BarColumn, DownloadColumn, Progress

        with Progress(
            "reading transcripts",
            BarColumn(),
            DownloadColumn(),
            console=bar_console,
            transient=True,
        ) as bar:
            task = bar.add_task("scan", total=None)
            report = use_case.scan(
                days=days,
                project=project,
                thresholds=thresholds,
                handoff_tokens=handoff,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                files=transcripts,
            )
    if html_path is not None:
        use_case.write_html(report, html_path)
    if as_json:
        print_json(use_case.report_dict(report))
        return
    _print_report(report, top)
    if html_path is not None:
        console().print(f"Wrote {html_path}")


@click.command()
@click.argument(
    "directory", type=click.Path(file_okay=False, exists=True, path_type=Path), default="."
)
@click.option(
    "--probe-mcp",
    is_flag=True,
    help="Start each configured stdio MCP server to measure its tool descriptions.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@handle_errors
def audit(directory: Path, probe_mcp: bool, as_json: bool) -> None:
    """Show what Claude Code loads before your first message in DIRECTORY, largest first.

    CLAUDE.md files and their imports, rules, auto memory, MCP servers, hook output and
    listings; compared with the startup context measured in recent transcripts.
    """
    from rubi.claude.audit import audit as run_audit

    report = run_audit(directory, probe_mcp=probe_mcp)
    if as_json:
        print_json(
            {
                "directory": str(report.directory),
                "measured_startup": report.measured_startup,
                "sessions": report.sessions,
                "counted_tokens": report.counted_tokens,
                "unattributed": report.unattributed,
                "items": [
                    {
                        "kind": i.kind,
                        "source": i.source,
                        "tokens": i.tokens,
                        "counted": i.counted,
                        "note": i.note,
                    }
                    for i in report.items
                ],
            }
        )
        return
    out = console()
    table = tables.table(
        _plain(f"Loaded before the first message in {report.directory}"),
        ("tokens", "kind", "source", "note"),
        ("kind", "source", "note"),
        shrink=("source", "note"),
    )
    for item in report.items:
        tokens = format_tokens(item.tokens) if item.tokens is not None else "?"
        table.add_row(tokens, _plain(item.kind), _plain(item.source), _plain(item.note))
    tables.print_table(out, table)
    out.print(f"Itemized: {format_tokens(report.counted_tokens)} tokens.")
    if report.measured_startup is None:
        out.print(
            "No transcripts for this folder: run Claude Code here once to measure the "
            "whole startup context."
        )
    else:
        out.print(
            f"Measured startup context (median of {report.sessions} recent "
            f"session{'s' if report.sessions != 1 else ''}): "
            f"{format_tokens(report.measured_startup)} tokens; "
            f"{format_tokens(report.unattributed or 0)} of it is Claude Code's system prompt, "
            "built-in tools and anything not itemized."
        )


@click.command()
@click.option(
    "--session",
    default=None,
    metavar="ID",
    help="The session (its id, or the first characters of it); default: the newest.",
)
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The newest session of this project folder (default: of any project).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@handle_errors
def cost(session: str | None, project: Path | None, as_json: bool) -> None:
    """Show in one line what rubi cost a Claude Code session and what it saved.

    Costs: rubi's tool schemas in every request, the context its hooks added, its tool
    results; saved: whole-file reads of huge files the guard denied, less what was then
    read of them. In input-token equivalents, priced as `rubi xray` prices them. The
    next session start shows the same line for the session that ended.
    """
    import dataclasses

    from rubi.app.sessioncost import session_cost

    found = session_cost(session=session, project=project)
    if as_json:
        print_json(
            {
                **dataclasses.asdict(found.cost),
                "cost": found.cost.cost,
                "line": found.line,
            }
        )
        return
    console().print(found.line, markup=False, highlight=False)
