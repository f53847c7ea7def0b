"""``rubi init``, ``index``, ``reindex``, ``status``, ``doctor``."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

import click

from rubi import app
from rubi.cli import common
from rubi.cli.common import echo, handle_errors, print_json, progress_bar, say_waiting, vault_option
from rubi.core.model import ScanWarning
from rubi.core.paths import VaultPaths

__all__ = ["doctor", "index", "init", "reindex", "status"]


@click.command()
@click.argument(
    "project", type=click.Path(path_type=Path, file_okay=False), default=None, required=False
)
@handle_errors
def init(project: Path | None) -> None:
    """Create the project vault .rubi/ in PROJECT (default: here).

    Also adds a short rubi section to the project's CLAUDE.md (created if missing)
    and AGENTS.md (if there); no existing file is overwritten, except a README.md an
    older rubi wrote and nobody edited, upgraded to the current one. Below a folder
    that has a vault, it makes none unless PROJECT is named (`rubi init .`)."""
    if project is None:
        _refuse_nested_vault(Path.cwd())
        project = Path(".")
    existed = (project / ".rubi").is_dir()
    report = app.init_project(project)
    if report.created and existed:  # a clone's vault lacking what git does not carry
        echo(f"{report.vault} already exists; added what it lacked: {', '.join(report.created)}.")
    elif report.created:
        echo(f"Created {report.vault} ({len(report.created)} files).")
    elif not report.upgraded:
        echo(f"{report.vault} already exists; nothing changed there.")
    for name in report.upgraded:
        echo(
            f"Upgraded {name}: an older rubi wrote it and nobody edited it; the current "
            "one is marked `status: help`, so recall no longer injects it."
        )
    for name, how in report.agent_docs:
        if how == "appended":
            echo(
                f"Appended a short 'Project memory (rubi)' section to {name} (between "
                "<!-- rubi:start --> and <!-- rubi:end -->; delete it to opt out)."
            )
        else:
            echo(f"Created {name} with a short 'Project memory (rubi)' section.")
    echo(_next_step(project))


def _next_step(project: Path) -> str:
    """The line after ``rubi init``: search, then connect Claude Code, unless rubi's
    plugin already does (enabled in Claude Code's settings for this project): then
    ``rubi install`` would make Claude Code run rubi twice
    (:mod:`rubi.claude.plugincheck`), so the line says the plugin is enough."""
    from rubi.claude.plugincheck import enabled_plugin

    search = 'Next: `rubi search "..."` (indexes the notes and the code first); '
    plugin = enabled_plugin(project.resolve())
    if plugin is None:
        return search + "`rubi install` connects Claude Code (its hooks and the MCP server)."
    key, where = plugin
    return search + (
        f"the rubi plugin ({key}, enabled in {where}) connects Claude Code already: "
        "no `rubi install` (with both, Claude Code runs rubi twice)."
    )


def _refuse_nested_vault(here: Path) -> None:
    """Refuse a ``rubi init`` without PROJECT in a folder below another project's
    vault: every command run below it would then find the new, empty vault instead of
    the project's (a trial user ran it in ``httpx/``, under ``.rubi/`` at the root).

    Raises:
        RubiError: a ``.rubi/`` is found above ``here`` (not in it).
    """
    from rubi.core.errors import RubiError, VaultNotFoundError

    try:
        found = app.locate(None, cwd=here)
    except VaultNotFoundError:
        return  # none above (or one linked out, which init reports itself)
    project = found.project_root
    if project is None or project.resolve() == here.resolve():
        return  # this folder's own vault: init says it exists
    raise RubiError(
        f"{found.root} already holds the memory of the project around this folder, and "
        "every rubi command below it uses that one; run `rubi init .` to give this "
        "folder a vault of its own anyway"
    )


def plural(n: int, what: str, many: str | None = None) -> str:
    """``1 warning``, ``2 warnings`` (``many`` for irregular plurals)."""
    return f"{n} {what}" if n == 1 else f"{n} {many or what + 's'}"


def _summary(report: app.IndexReport) -> str:
    """The lines ``rubi index`` prints of ``report``: the notes, then (in a project) the
    code; ``rubi doctor`` is named only when it has code files to list."""
    kind = "full" if report.full else "incremental"
    skipped = len(report.code_warnings)
    return (
        f"Indexed ({kind}): {report.added} added, {report.updated} updated, "
        f"{report.deleted} deleted, {report.unchanged} unchanged "
        f"in {report.seconds:.2f} s; {plural(len(report.warnings), 'warning')}."
        + (
            f"\nCode: {plural(report.code_files, 'file')} ({report.code_changed} changed, "
            f"{report.code_deleted} deleted, {skipped} skipped or partly read"
            f"{': see `rubi doctor`' if skipped else ''}); "
            f"{plural(len(report.pages_written), 'map page')} updated."
            if report.code_files
            else ""
        )
    )


def _run_index(vault: Path | None, full: bool, as_json: bool) -> None:
    from rubi.app.searching import runs_once

    runs_once(frozen=not full)  # the run leaves the flat graph current for the next cold reader
    paths: VaultPaths = app.locate(vault)
    with progress_bar(not as_json, paths) as progress:
        report = app.index(paths, full=full, progress=progress, on_wait=say_waiting)
    common.warn(report.warnings)
    if as_json:
        print_json(
            {
                "vault": str(paths.root),
                "full": report.full,
                "added": report.added,
                "updated": report.updated,
                "deleted": report.deleted,
                "unchanged": report.unchanged,
                "seconds": round(report.seconds, 3),
                "warnings": [str(w) for w in report.warnings],
                "code": {
                    "files": report.code_files,
                    "changed": report.code_changed,
                    "deleted": report.code_deleted,
                    "warnings": [str(w) for w in report.code_warnings],
                    "pages_written": report.pages_written,
                },
            }
        )
    else:
        echo(_summary(report))
    _leave_when_indexed()


def _leave_when_indexed() -> None:
    """End the process once its run's report is printed without the interpreter's
    teardown (:func:`rubi.core.quickexit.leave`: the standard streams flushed, the
    ``atexit`` functions run). A run is over by then (its store, Whoosh writer and
    lock closed, every file written atomically), and what the teardown did was free
    what it loaded object by object: after an import edit on spring-framework the code
    map's memory, the graph and the map, about 0.2 s of CPU of the run's 2-3 s, the
    kernel taking the memory back at once. Only when the standard streams are the
    process's own (not a test's ``CliRunner``)."""
    import sys

    if sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__:
        from rubi.core.quickexit import leave

        leave(0)


@click.command()
@click.option("--full", is_flag=True, help="Rebuild from scratch instead of incrementally.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@click.option(
    "--first-only",
    is_flag=True,
    hidden=True,
    help="Build the first index only: nothing when indexed, or when another run holds "
    "the lock (what a session start runs in the background).",
)
@vault_option
@handle_errors
def index(full: bool, as_json: bool, first_only: bool, vault: Path | None) -> None:
    """Bring the search index and link graph up to date with the notes, and in a
    project the code map with its code."""
    if first_only:
        from rubi.app.firstindex import build_first_index

        build_first_index(app.locate(vault))
        _leave_when_indexed()
        return
    _run_index(vault, full, as_json)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
@vault_option
@handle_errors
def reindex(as_json: bool, vault: Path | None) -> None:
    """Rebuild the index, the graph and (in a project) the code map from the files
    alone (same as `index --full`)."""
    _run_index(vault, True, as_json)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def status(as_json: bool, vault: Path | None) -> None:
    """Show what the index holds. In a project, `code map` says whether the code
    changed since it was mapped (a pull, an edit): such files are searched after
    `rubi index`, a session start or a running `rubi serve`/`rubi watch`."""
    from rubi.app.health import code_map_behind

    paths = app.locate(vault)
    st = app.status(paths)
    when = (
        time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(st.indexed_at))
        if st.indexed_at
        else "never"
    )
    data = {
        "vault": str(st.vault),
        "index": str(st.index_dir),
        "notes": st.notes,
        "code_files": st.code_files,
        **(
            {
                "code_map": "behind the code: `rubi index` maps it"
                if code_map_behind(paths)
                else "current"
            }
            if paths.project_root is not None
            else {}
        ),
        "unreadable": st.unreadable,
        "links": st.links,
        "dangling": st.dangling,
        "ambiguous": st.ambiguous,
        "indexed_at": when,
        "index_mb": round(st.index_bytes / 1e6, 2),
    }
    if as_json:
        print_json(data)
        return
    width = max(len(k) for k in data)
    for key, value in data.items():
        echo(f"{key.replace('_', ' '):<{width}}  {value}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@vault_option
@handle_errors
def doctor(as_json: bool, vault: Path | None) -> None:
    """List unreadable notes, unresolved and ambiguous links, conflict markers.

    Links Obsidian leaves unresolved (rubi also resolves titles and aliases) count as
    problems, and so do Claude Code hooks `rubi install` wrote that call a rubi which
    is gone (a venv moved; `rubi install` again fixes them) or that run beside rubi's
    plugin (the map twice at session start). The problems come first,
    then their counts, then information: pages it rewrote (it indexes first, notes and
    code, and rewrites the committed map pages when the code changed since they were
    made), code files the map skipped, notes another git worktree holds that this one
    lacks, why semantic search is off, Claude Code auto memory to `rubi import`. The
    last line is the verdict: "No problems found.", or how many and the next step.
    Exits 1 when there is a problem, so scripts can check a vault.
    """
    paths = app.locate(vault)
    report = app.doctor(paths)
    report = dataclasses.replace(report, hooks=_stale_hooks(paths))
    if as_json:
        print_json(_doctor_json(report))
    else:
        verdict = _print_doctor(report)  # the problems, then their counts
        _print_information(report, paths)
        echo(verdict)
    if not report.ok:
        raise SystemExit(1)


def _stale_hooks(paths: VaultPaths) -> list[ScanWarning]:
    """Claude Code hooks and servers rubi installed that call a rubi which is gone, in
    the project's settings and the user's (:mod:`rubi.claude.hookpaths`), rubi's hooks
    installed beside its enabled plugin (:mod:`rubi.claude.plugincheck`), then those
    settings files that are not a JSON object (Claude Code runs none of their hooks)."""
    from rubi.claude import settingsfile
    from rubi.claude.hookpaths import settings_files, stale_commands
    from rubi.claude.plugincheck import double_wiring
    from rubi.core.errors import RubiError

    files = settings_files(paths.project_root)
    found = [ScanWarning(str(s.file), s.problem()) for s in stale_commands(files)]
    twice = double_wiring(paths.project_root)
    if twice:
        found.append(ScanWarning(str(twice[0]), twice[1]))
    for path, user_wide in files:
        try:
            settingsfile.load(path, None if user_wide else path.parent.parent)
        except settingsfile.NotJsonError as exc:
            why = f"{exc.reason}: Claude Code runs none of its hooks"
            fix = "fix it, then `rubi install` checks it and adds rubi's"
            found.append(ScanWarning(str(path), f"{why}; {fix}"))
        except (RubiError, OSError):
            pass  # refused or unreadable: `rubi install` says why
    return found


def _print_information(report: app.DoctorReport, paths: VaultPaths) -> None:
    """What doctor says that is never a problem, after the problems and before the
    verdict: pages it rewrote, code the map skipped, what rubi ignores, other
    worktrees' notes, semantic search off, Claude Code's auto memory to import."""
    from rubi.app import semantic_status
    from rubi.app.automemory import pending_files

    if report.pages_written:  # what doctor did first
        echo(
            f"rewrote {_listed(report.pages_written)} to match the code, which changed "
            "since they were made (a pull, an edit): commit them with your next change"
        )
    for label, found in (
        ("code", report.code),
        ("ignored", report.ignored),
        ("worktree", report.worktrees),
    ):
        for w in found:
            echo(f"{label:<10} {w}")
    if paths.project_root is not None:
        from rubi.claude.hookpaths import shared_server_unreachable

        unreachable = shared_server_unreachable(paths.project_root, Path(sys.executable).parent)
        if unreachable:
            echo(f"{'server':<10} {unreachable}")
    semantic = semantic_status(paths)
    if semantic.startswith("off"):
        echo(f"semantic search {semantic}")
    memory, pending = pending_files(paths)
    if pending:
        echo(
            f"Claude Code's auto memory of this project ({memory}) holds "
            f"{len(pending)} file{'s' if len(pending) != 1 else ''} not in this vault: "
            "`rubi import` turns them into notes (the originals stay as they are)"
        )


def _doctor_json(report: app.DoctorReport) -> dict[str, object]:
    """The ``--json`` shape of a doctor report."""
    return {
        "files": [{"path": w.path, "problem": w.message} for w in report.files],
        "missing": [{"source": p.source, "target": p.target} for p in report.missing],
        "missing_attachments": [
            {"source": p.source, "target": p.target} for p in report.missing_attachments
        ],
        "ambiguous": [
            {
                "source": p.source,
                "target": p.target,
                "resolved_to": p.resolved_to,
                "candidates": list(p.candidates),
            }
            for p in report.ambiguous
        ],
        "missing_note_files": [str(w) for w in report.missing_note_files],
        "pages": [str(w) for w in report.pages],
        "code_skipped": [str(w) for w in report.code],
        "ignored": [str(w) for w in report.ignored],
        "obsidian_unresolved": [
            {"source": p.source, "target": p.target, "rubi_resolves_to": p.resolved_to}
            for p in report.obsidian
        ],
        "conflicts": [{"path": w.path, "problem": w.message} for w in report.conflicts],
        "secrets": [{"path": w.path, "problem": w.message} for w in report.secrets],
        "help": [{"path": w.path, "problem": w.message} for w in report.help],
        "worktrees": [{"worktree": w.path, "notes": w.message} for w in report.worktrees],
        "hooks": [{"path": w.path, "problem": w.message} for w in report.hooks],
        "pages_written": report.pages_written,
    }


def _listed(pages: list[str]) -> str:
    """The rewritten pages in a few words: ``.rubi/map.md and 2 module pages``."""
    named = [f".rubi/{p}" for p in pages if "/" not in p][:1]
    others = len(pages) - len(named)
    more = f"{others} module page{'s' if others != 1 else ''}" if others else ""
    return " and ".join([*named, *([more] if more else [])])


_HOW = {
    "unresolved": "           how: write a note with that file name, title or alias, "
    "or correct the link",
    "attachment": "           how: put the file in the vault, or correct the embed",
    "ambiguous": "           how: link by path ([[folder/name]]) to pick one note",
}
"""The fix, printed once under a group of findings whose lines name only the link
(a vault of 113 missing attachments gets one such line, not 113)."""


def _print_link_findings(report: app.DoctorReport, attachments: dict[str, list[str]]) -> None:
    """The unresolved links, missing attachments (``{target: embedding notes}``) and
    ambiguous links, each group followed by its line of :data:`_HOW`."""
    for p in report.missing:
        echo(f"unresolved {p.source}: [[{p.target}]]")
    if report.missing:
        echo(_HOW["unresolved"])
    for target, sources in sorted(attachments.items()):
        more = f" and {len(sources) - 1} more" if len(sources) > 1 else ""
        echo(f"attachment {target} missing (embedded in {sources[0]}{more})")
    if attachments:
        echo(_HOW["attachment"])
    for p in report.ambiguous:
        others = ", ".join(c for c in p.candidates if c != p.resolved_to)
        echo(f"ambiguous  {p.source}: [[{p.target}]] → {p.resolved_to} (also {others})")
    if report.ambiguous:
        echo(_HOW["ambiguous"])


def _print_doctor(report: app.DoctorReport) -> str:
    """A doctor report as text: one line per finding, then the counts; returns the
    verdict, the report's last line (after the information lines)."""
    attachments: dict[str, list[str]] = {}
    for p in report.missing_attachments:
        attachments.setdefault(p.target, []).append(p.source)
    for w in report.files:
        echo(f"file       {w}")
    _print_link_findings(report, attachments)
    for w in report.missing_note_files:
        echo(f"files:     {w}")
    for w in report.pages:
        echo(f"page       {w}")
    for p in report.obsidian:
        echo(
            f"obsidian   {p.source}: [[{p.target}]] is unresolved in Obsidian (rubi "
            f"finds {p.resolved_to} by its title or alias; link its file name)"
        )
    for label, found in (
        ("conflict", report.conflicts),
        ("secret", report.secrets),
        ("help", report.help),
        ("hooks", report.hooks),
    ):
        for w in found:
            echo(f"{label:<10} {w}")
    counts = [
        (len(report.files), "file problem"),
        (len(report.missing), "unresolved link"),
        (len(report.ambiguous), "ambiguous link"),
        (len(report.obsidian), "link only rubi resolves"),
        (len(report.conflicts), "note with conflict markers"),
        (len(report.secrets), "secret in notes"),
        (len(report.help), "help note recalled"),
        (len(report.hooks), "Claude Code settings problem"),
        (len(attachments), "missing attachment"),
        (len(report.missing_note_files), "missing note file"),
        (len(report.pages), "generated page with broken summary markers"),
        (len(report.code), "code file skipped or partly read"),
    ]
    many = {
        "generated page with broken summary markers": "generated pages with broken summary markers",
        "code file skipped or partly read": "code files skipped or partly read",
        "link only rubi resolves": "links only rubi resolves",
        "note with conflict markers": "notes with conflict markers",
        "secret in notes": "secrets in notes",
        "help note recalled": "help notes recalled",
        "Claude Code settings problem": "Claude Code settings problems",
    }
    shown = [(n, what) for n, what in counts if n or what not in _SETUP]
    echo(", ".join(plural(n, what, many.get(what)) for n, what in shown) + ".")
    return _verdict(sum(n for n, what in counts if what != _INFORMATION))


_SETUP = frozenset({"Claude Code settings problem"})
"""Counts of the detail line about the machine's setup, not the vault: shown only
when not zero (a healthy vault's line stays what it was)."""

_INFORMATION = "code file skipped or partly read"
"""The one count of the detail line that is information, not a problem (the map
reads what it can; :attr:`rubi.app.DoctorReport.ok`)."""


def _verdict(problems: int) -> str:
    """The last line of a doctor report: ``No problems found.``, or how many and the
    next step."""
    if not problems:
        return "No problems found."
    return (
        f"{plural(problems, 'problem')}: fix what the lines above name, "
        "then run `rubi doctor` again."
    )
