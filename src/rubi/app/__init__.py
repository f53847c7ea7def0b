"""The one facade every surface calls: CLI, MCP server and hooks hold no logic.

Functions take a :class:`rubi.core.paths.VaultPaths` (from :func:`locate`) and return
plain values; errors are :class:`rubi.core.errors.RubiError` subclasses with one-line
messages.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

# The facade stays cheap to import (a hook pays every import on every call): the
# engines below it are imported inside the functions that use them, and the use cases
# are looked up on first use (``__getattr__`` and ``_LAZY`` at the end), search and the
# reads among them (the Stop, PreCompact and tool hooks come here for the session
# record alone: ``rubi.app.searching`` and ``rubi.app.reads`` cost them 1-2 ms of
# CPU each call), but for recall (``recall`` is also a submodule's name: an import
# of ``rubi.app.recall`` must not leave the module where the function is). A recall
# hook thus loads neither the map pages nor the session-start, update, personal vault
# or secret-guard modules. The X-ray is the submodule rubi.app.xray.
from rubi.app.recall import recall
from rubi.core.errors import NoteNotFoundError, RubiError  # noqa: F401 (app.RubiError)
from rubi.core.paths import VaultPaths, find_vault

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.app.codeview import CodeView
    from rubi.app.health import DoctorReport
    from rubi.app.mappages import map_text, write_summary
    from rubi.app.passageread import PartView
    from rubi.app.personalvault import ensure_personal_vault
    from rubi.app.reading import LinkList, LinkView, NoteView
    from rubi.app.registration import Registered
    from rubi.app.secretguard import describe as describe_redacted
    from rubi.app.sessionrecord import (
        capture_turn,
        context_size,
        link_files,
        session_file,
        write_record,
    )
    from rubi.app.sessionstart import refresh_index, session_start_context
    from rubi.app.turntext import clean_turn
    from rubi.app.updates import (
        apply_changes,
        catch_up,
        catch_up_if_changed,
        import_ahead,
        on_scans,
        remember_code,
        scans_cpu_s,
        set_watched,
    )
    from rubi.knowledge.handoff import Handoff
    from rubi.sync import IndexReport

__all__ = [
    "MAIN_CHAIN",
    "MAX_AUTHOR_CHARS",
    "SEARCH_SCOPES",
    "ApiCall",
    "Attachment",
    "CodeView",
    "Compaction",
    "DoctorReport",
    "IndexReport",
    "InitReport",
    "LinkList",
    "LinkView",
    "NoteView",
    "PartView",
    "TranscriptReader",
    "TranscriptsNotFoundError",
    "UserText",
    "VaultStatus",
    "apply_changes",
    "backlinks",
    "capture_turn",
    "catch_up",
    "catch_up_if_changed",
    "claude_config_dir",
    "clean_turn",
    "context_size",
    "describe_redacted",
    "discover_sessions",
    "doctor",
    "ensure_personal_vault",
    "import_ahead",
    "index",
    "init_project",
    "keep_vectors",
    "last_handoff",
    "link_files",
    "link_list",
    "links",
    "locate",
    "map_text",
    "on_scans",
    "project_slug",
    "projects_dir",
    "read_code",
    "read_many",
    "read_note",
    "read_part",
    "recall",
    "refresh_index",
    "register",
    "remember_code",
    "render_note_view",
    "render_search",
    "resolve_ref",
    "save_handoff",
    "scans_cpu_s",
    "search",
    "search_answer",
    "search_json",
    "semantic_status",
    "session_file",
    "session_start_context",
    "set_watched",
    "status",
    "teammate_handoff",
    "write_record",
    "write_summary",
]

Progress = Callable[[int, int, str], None]


def locate(vault: Path | str | None = None, cwd: Path | None = None) -> VaultPaths:
    """The vault named by ``--vault``, else the ``.rubi/`` above ``cwd``."""
    return find_vault(vault, cwd)


# -- index and search ---------------------------------------------------------------
def index(
    paths: VaultPaths,
    *,
    full: bool = False,
    progress: Progress | None = None,
    on_wait: Callable[[], None] | None = None,
) -> IndexReport:
    """Bring the index and graph up to date (see :func:`rubi.sync.run.index_vault`)."""
    from rubi.sync import index_vault

    return index_vault(paths, full=full, progress=progress, on_wait=on_wait)


def register(
    paths: VaultPaths, items: Sequence[Any], *, cwd: Path | None = None
) -> list[Registered]:
    """Register knowledge (see :func:`rubi.app.registration.register`).

    ``cwd``: the folder relative ``files`` are taken from (a CLI run in a subfolder);
    None (MCP, JSON): the project root.
    """
    from rubi.app.registration import register as knowledge_register

    return knowledge_register(paths, items, cwd=cwd)


def save_handoff(
    paths: VaultPaths,
    goal: str,
    state: str,
    next_steps: Sequence[str] = (),
    files: Sequence[str] = (),
    notes: Sequence[str] = (),
    *,
    cwd: Path | None = None,
) -> Handoff:
    """Write a handoff (see :func:`rubi.knowledge.handoff.save_handoff`); the index
    picks it up at once. ``cwd`` as for :func:`register`. A secret in the goal, the
    state or a step is written as ``[REDACTED:<kind>]`` and listed in the result's
    ``redacted``. Each note in ``notes`` (by id,
    path, title or alias) is linked by its file name, as Obsidian resolves links (its
    path when two notes share the name); one that names no note is linked as given."""
    from rubi.knowledge.handoff import save_handoff as knowledge_save_handoff
    from rubi.sync import index_vault

    _refuse_secret_names(files, "files")
    _refuse_secret_names(notes, "notes")
    names = _file_links(paths, notes)
    goal, state, steps, redacted = _scrub_handoff(goal, state, next_steps)
    handoff = knowledge_save_handoff(paths, goal, state, steps, files, names, cwd=cwd)
    index_vault(paths, verify=False, code=False)
    return dataclasses.replace(handoff, redacted=tuple(redacted)) if redacted else handoff


def _refuse_secret_names(values: Any, name: str) -> None:
    """Raise when one of ``values`` (a handoff's files or notes: names, written as
    given) holds a secret; values that are not a list of text are left for the
    knowledge layer to refuse.

    Raises:
        RubiError: ``"<name>[<i>]: holds a secret (<kind>); …"``.
    """
    from rubi.app.secretguard import refuse_secret
    from rubi.knowledge.items import MAX_LIST_ITEMS

    if isinstance(values, str) or len(values) > MAX_LIST_ITEMS:
        return  # the knowledge layer refuses it, before any work per entry
    if not all(isinstance(v, str) for v in values):
        return
    for i, value in enumerate(values):
        refuse_secret(value, f"{name}[{i}]")


def _scrub_handoff(goal: Any, state: Any, next_steps: Any) -> tuple[Any, Any, Any, list[str]]:
    """Goal, state and steps with their secrets redacted (:mod:`rubi.app.secretguard`);
    values that are not text are passed on for the knowledge layer to refuse."""
    from rubi.app.secretguard import scrub_text

    redacted: list[str] = []
    if isinstance(goal, str):
        goal, found = scrub_text(goal, "goal")
        redacted += found
    if isinstance(state, str):
        state, found = scrub_text(state, "state")
        redacted += found
    if not isinstance(next_steps, str) and all(isinstance(s, str) for s in next_steps):
        steps = []
        for i, step in enumerate(next_steps):
            step, found = scrub_text(step, f"next_steps[{i}]")
            steps.append(step)
            redacted += found
        next_steps = steps
    return goal, state, next_steps, redacted


def _file_links(paths: VaultPaths, refs: Sequence[str]) -> list[str]:
    """``refs`` as link targets Obsidian resolves: the file name of the note each names
    (its vault path when another note has that file name); unknown ones unchanged."""
    from rubi.app.reading import resolve_ref
    from rubi.app.reads import graph_for
    from rubi.knowledge.items import MAX_LIST_ITEMS
    from rubi.vault.names import fold

    if not refs or len(refs) > MAX_LIST_ITEMS or not all(isinstance(r, str) for r in refs):
        return list(refs)  # the knowledge layer reports what is wrong with them
    stems: dict[str, int] = {}
    out: list[str] = []
    with graph_for(paths) as build:
        for node, attrs in build.graph.nodes(data=True):
            if attrs.get("kind") == "note":
                key = fold(str(node).rsplit("/", 1)[-1])
                stems[key] = stems.get(key, 0) + 1
        for ref in refs:
            try:
                note_id = resolve_ref(build, ref)
            except NoteNotFoundError:
                out.append(ref)
                continue
            stem = note_id.rsplit("/", 1)[-1]
            out.append(stem if stems.get(fold(stem), 0) == 1 else note_id)
    return out


def last_handoff(paths: VaultPaths) -> Handoff | None:
    """The newest handoff of the project, or None."""
    from rubi.knowledge.handoff import last_handoff as knowledge_last_handoff

    return knowledge_last_handoff(paths)


MAX_AUTHOR_CHARS = 120
"""A teammate's handoff's ``author:`` named at most this long (it came with a pull)."""


def teammate_handoff(paths: VaultPaths) -> tuple[str, str] | None:
    """``(id, author)`` of the newest handoff another author wrote, for saying so
    where :func:`last_handoff` found none of this user's; or None."""
    from rubi.knowledge.handoff import author_of
    from rubi.knowledge.handoff import teammate_handoff as knowledge_teammate_handoff

    found = knowledge_teammate_handoff(paths)
    if found is None:
        return None
    author = author_of(found.text)  # a pulled file's: a name, held to a name's length
    if len(author) > MAX_AUTHOR_CHARS:
        author = author[:MAX_AUTHOR_CHARS] + "…"
    return found.path.removesuffix(".md"), author


# -- status and doctor --------------------------------------------------------------
def doctor(paths: VaultPaths) -> DoctorReport:
    """Check the vault (see :func:`rubi.app.health.check_vault`)."""
    from rubi.app.health import check_vault

    return check_vault(paths)


# -- names re-exported from the heavy parts, imported on first use -----------------
_LAZY: dict[str, str] = {
    # search and reading (every reader: a recall hook or the engine loads them anyway)
    "keep_vectors": "rubi.app.searching",
    "search": "rubi.app.searching",
    "backlinks": "rubi.app.reads",
    "link_list": "rubi.app.reads",
    "links": "rubi.app.reads",
    "read_code": "rubi.app.reads",
    "read_many": "rubi.app.reads",
    "read_note": "rubi.app.reads",
    "read_part": "rubi.app.reads",
    "VaultStatus": "rubi.app.status",
    "status": "rubi.app.status",
    # init (a hook never makes a vault)
    "InitReport": "rubi.app.vaultinit",
    "init_project": "rubi.app.vaultinit",
    # the use cases of the Claude Code integration and the watcher
    "map_text": "rubi.app.mappages",
    "write_summary": "rubi.app.mappages",
    "ensure_personal_vault": "rubi.app.personalvault",
    "describe_redacted": "rubi.app.secretguard",
    "capture_turn": "rubi.app.sessionrecord",
    "clean_turn": "rubi.app.turntext",
    "context_size": "rubi.app.sessionrecord",
    "link_files": "rubi.app.sessionrecord",
    "session_file": "rubi.app.sessionrecord",
    "write_record": "rubi.app.sessionrecord",
    "refresh_index": "rubi.app.sessionstart",
    "session_start_context": "rubi.app.sessionstart",
    "apply_changes": "rubi.app.updates",
    "catch_up": "rubi.app.updates",
    "catch_up_if_changed": "rubi.app.updates",
    "import_ahead": "rubi.app.updates",
    "remember_code": "rubi.app.updates",
    "on_scans": "rubi.app.updates",
    "scans_cpu_s": "rubi.app.updates",
    "set_watched": "rubi.app.updates",
    "CodeView": "rubi.app.codeview",
    "DoctorReport": "rubi.app.health",
    "Handoff": "rubi.knowledge.handoff",
    "IndexReport": "rubi.sync",
    "LinkList": "rubi.app.reading",
    "LinkView": "rubi.app.reading",
    "NoteView": "rubi.app.reading",
    "Registered": "rubi.app.registration",
    "SEARCH_SCOPES": "rubi.app.results",
    "SearchResult": "rubi.search.engine",
    "render_note_view": "rubi.app.reading",
    "render_search": "rubi.app.results",
    "resolve_ref": "rubi.app.reading",
    "search_answer": "rubi.app.results",
    "search_json": "rubi.app.results",
    "semantic_status": "rubi.app.health",
    # Claude Code's folders and transcripts, which the settings reader and the startup
    # audit read (never loaded on a hook's path)
    "MAIN_CHAIN": "rubi.transcripts.events",
    "ApiCall": "rubi.transcripts.events",
    "Attachment": "rubi.transcripts.events",
    "Compaction": "rubi.transcripts.events",
    "UserText": "rubi.transcripts.events",
    "TranscriptReader": "rubi.transcripts.transcript",
    "TranscriptsNotFoundError": "rubi.transcripts.errors",
    "claude_config_dir": "rubi.transcripts.locate",
    "discover_sessions": "rubi.transcripts.locate",
    "project_slug": "rubi.transcripts.locate",
    "projects_dir": "rubi.transcripts.locate",
}
"""Re-exported name -> the module that defines it (imported when the name is first
asked for: a hook that never renders a search never imports the search engine)."""
_RENAMED = {"describe_redacted": "describe"}
"""Re-exported names the defining module calls otherwise."""

if TYPE_CHECKING:
    from rubi.app.health import semantic_status
    from rubi.app.reading import render_note_view, resolve_ref
    from rubi.app.reads import (
        backlinks,
        link_list,
        links,
        read_code,
        read_many,
        read_note,
        read_part,
    )
    from rubi.app.results import SEARCH_SCOPES, render_search, search_answer, search_json
    from rubi.app.searching import keep_vectors, search
    from rubi.app.status import VaultStatus, status
    from rubi.app.vaultinit import InitReport, init_project
    from rubi.transcripts.errors import TranscriptsNotFoundError
    from rubi.transcripts.events import MAIN_CHAIN, ApiCall, Attachment, Compaction, UserText
    from rubi.transcripts.locate import (
        claude_config_dir,
        discover_sessions,
        project_slug,
        projects_dir,
    )
    from rubi.transcripts.transcript import TranscriptReader


def __getattr__(name: str) -> Any:
    """PEP 562: the names of :data:`_LAZY`, imported on first use and then cached."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), _RENAMED.get(name, name))
    globals()[name] = value
    return value
