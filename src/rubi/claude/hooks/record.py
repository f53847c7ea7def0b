"""PreCompact: write an objective record of the session so far (requests, files read
and edited, commands, notes written) into the session record, linked to those files
(:func:`rubi.app.write_record`). Never blocks compaction.

The transcript is read once from the last offset, within :data:`READ_BUDGET_S`; what
is left is summarised by the next compaction.
"""

from __future__ import annotations

from typing import Any

from rubi import app
from rubi.app.sessionrecord import MAX_ITEMS
from rubi.claude.hooks.context import HookContext

__all__ = ["MAX_ITEMS", "READ_BUDGET_S", "handle"]

READ_BUDGET_S = 20.0
"""Seconds spent reading the transcript at most (Claude Code stops a hook after 60 s;
a stopped hook saves nothing and would be retried from the same offset)."""


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Append the record; output nothing (compaction goes ahead)."""
    transcript = ctx.event.transcript_path
    if ctx.vault is None or transcript is None:
        return None
    state = ctx.load_state()
    end, path, files = app.write_record(
        ctx.vault,
        ctx.session_id,
        transcript,
        state.record_offset,
        cwd=ctx.cwd,
        trigger=ctx.event.trigger or "auto",
        budget_s=READ_BUDGET_S,
    )
    state.record_offset = end
    ctx.save_state(state)  # before linking: a note that cannot be edited never stalls it
    if path is not None:
        app.link_files(path, files)
    return None
