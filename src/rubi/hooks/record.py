"""PreCompact: write an objective record of the session so far (requests, files read
and edited, commands, notes written) into the session record, linked to those files.
Never blocks compaction."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rubi.hooks.context import HookContext
from rubi.hooks.sessionlog import append, session_file

__all__ = ["MAX_ITEMS", "handle"]

MAX_ITEMS = 40
"""Per list: a record is a summary, not a log."""


def _section(title: str, items: list[str], code: bool = False) -> str:
    if not items:
        return ""
    shown = items[:MAX_ITEMS]
    more = f"\n- … {len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else ""
    tick = "`" if code else ""
    return f"**{title}**\n" + "\n".join(f"- {tick}{s}{tick}" for s in shown) + more


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Append the record; output nothing (compaction goes ahead)."""
    transcript = ctx.payload.get("transcript_path")
    if ctx.vault is None or not transcript:
        return None
    from rubi.sessions.privacy import redact
    from rubi.sessions.turns import read_activity

    state = ctx.load_state()
    activity = read_activity(Path(str(transcript)), state.record_offset, ctx.cwd)
    if not activity.empty():
        trigger = str(ctx.payload.get("trigger") or "auto")
        stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
        parts = [
            f"## Record {stamp} (before {trigger} compaction; transcript byte "
            f"{state.record_offset}–{activity.end_offset})",
            _section("Requests", [redact(r) for r in activity.requests]),
            _section("Files read", activity.files_read, code=True),
            _section("Files edited", activity.files_edited, code=True),
            _section("Commands", [redact(c) for c in activity.commands], code=True),
            _section("Notes written", activity.notes_written),
        ]
        path = session_file(ctx.vault, ctx.session_id)
        append(path, "\n\n".join(p for p in parts if p))
        _link_files(path, activity.files_read + activity.files_edited)
    state.record_offset = activity.end_offset
    ctx.save_state(state)
    return None


def _link_files(path: Path, files: list[str]) -> None:
    """Add the files to the record's ``files:`` so the graph links the session to them."""
    relative = [f for f in files if f and not f.startswith("/")]
    if not relative:
        return
    from rubi.knowledge.notefile import edit_note_text, rewrite

    rewrite(
        path,
        path.name,
        lambda text: edit_note_text(text, path.name, merge_lists={"files": relative[:200]}),
    )
