"""SessionStart: bring the index up to date (nothing changed: nothing done), then give
Claude the level-0 map (``.rubi/map.md``, a page the index run keeps current); after
``/compact`` or ``/clear``, the last handoff and the latest session record instead
(:func:`rubi.app.session_start_context`).

``/clear`` starts a new session id: the record is the cleared session's
(:mod:`rubi.claude.hooks.previous`), first brought up to date from its transcript (no
PreCompact ran before the ``/clear``). The model Claude Code names (after a compaction
and on resume) is kept for the meter. The user sees, once, what rubi cost the session
that ended last (:mod:`rubi.claude.hooks.costline`).

Run by rubi's Claude Code plugin, whose ``rubi serve`` starts beside this hook and
catches the index up itself (:mod:`rubi.claude.hooks.pluginserver`), the hook leaves
the refresh to the server once the vault has been indexed: the map is read as the last
index run left it, and the session's first seconds scan the files once, not twice.

A vault never indexed (a fresh clone of a project whose ``.rubi/`` is committed) is
not indexed here: that took 28 s on rubi's own clone, past Claude Code's 30 s timeout
at load. The hook starts one detached ``rubi index`` that builds it
(:func:`rubi.app.firstindex.start_first_index`) and answers at once with what needs no
index (the committed map, a handoff) and one line saying the index is being built."""

from __future__ import annotations

from rubi import app
from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~2 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CLEAR_RECORD_BUDGET_S", "HOOK_LOCK_WAIT_S", "MAX_CONTEXT_CHARS", "handle"]

MAX_CONTEXT_CHARS = 9_000
"""Claude Code replaces hook output over 10,000 characters by a file path."""
HOOK_LOCK_WAIT_S = 1.0
"""A hook never waits long for another index run."""
CLEAR_RECORD_BUDGET_S = 10.0
"""Seconds spent at most reading the cleared session's transcript for its record."""


def _record_session(ctx: HookContext) -> str:
    """The session whose record to restore: after ``/clear`` the cleared one (its
    record written first), else this one."""
    if ctx.event.source != "clear":
        return ctx.session_id
    from rubi.claude.hooks.previous import find_previous
    from rubi.claude.hooks.record import write_session_record

    previous = find_previous(ctx)
    if previous is None:
        return ctx.session_id
    if previous.transcript is not None:
        write_session_record(
            ctx, previous.transcript, "clear", CLEAR_RECORD_BUDGET_S, previous.session_id
        )
    return previous.session_id


def _server_refreshes(ctx: HookContext) -> bool:
    """The plugin's ``rubi serve`` catches this (indexed) vault up: no refresh here."""
    from rubi.claude.hooks.pluginserver import plugin_serves

    return ctx.vault is not None and plugin_serves()


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """``additionalContext`` with the map (or the handoff after compact/clear)."""
    if ctx.vault is None:
        return None
    if ctx.event.model:
        with ctx.session_state() as state:
            state.model = ctx.event.model
    from rubi.app.firstindex import INDEX_BUILDING_LINE, never_indexed, start_first_index
    from rubi.claude.hooks.costline import last_session_line

    building = never_indexed(ctx.vault)
    if building:  # built in the background: never within a hook's budget
        start_first_index(ctx.vault)
    elif not _server_refreshes(ctx):
        app.refresh_index(ctx.vault, lock_timeout_s=HOOK_LOCK_WAIT_S)
    room = MAX_CONTEXT_CHARS - (len(INDEX_BUILDING_LINE) + 2 if building else 0)
    text = app.session_start_context(
        ctx.vault,
        source=ctx.event.source or "startup",
        session_id=_record_session(ctx),
        max_chars=room,
    )
    if building:
        text = f"{text}\n\n{INDEX_BUILDING_LINE}" if text else INDEX_BUILDING_LINE
    out: dict[str, Any] = {}
    if text is not None:
        out["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": text}
    line = last_session_line(ctx)  # for the user, never in Claude's context
    if line is not None:
        out["systemMessage"] = line
    return out or None
