"""PreCompact: write an objective record of the session so far (requests, files read
and edited, commands, notes written) into the session record, linked to those files
(:func:`rubi.app.write_record`). Never blocks compaction.

The transcript is read once from the last offset, within :data:`READ_BUDGET_S`; what
is left is summarised by the next compaction.
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.sessionrecord import MAX_ITEMS
from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_ITEMS", "READ_BUDGET_S", "handle", "write_session_record"]

READ_BUDGET_S = 20.0
"""Seconds spent reading the transcript at most (Claude Code stops a hook after 60 s;
a stopped hook saves nothing and would be retried from the same offset)."""


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Append the record; output nothing (compaction goes ahead)."""
    transcript = ctx.event.transcript_path
    if ctx.vault is None or transcript is None:
        return None
    write_session_record(ctx, transcript, ctx.event.trigger or "auto", READ_BUDGET_S)
    return None


def write_session_record(
    ctx: HookContext, transcript: Path, trigger: str, budget_s: float, session_id: str = ""
) -> bool:
    """Append the record of ``transcript`` from the session's saved offset on (the
    session ``session_id``, else the event's), save the new offset, link the files.
    The transcript is read outside the state lock (it may take seconds); the offset is
    saved under it, never moved back.

    Returns:
        Whether a record was written.
    """
    assert ctx.vault is not None
    sid = session_id or ctx.session_id
    other = ctx.for_session(sid)
    end, path, files = app.write_record(
        ctx.vault,
        sid,
        transcript,
        other.load_state().record_offset,
        cwd=ctx.cwd,
        trigger=trigger,
        budget_s=budget_s,
    )
    with other.session_state() as state:  # before linking: a stuck note never stalls it
        state.record_offset = max(state.record_offset, end)
    if path is not None:
        app.link_files(path, files)
    return path is not None
