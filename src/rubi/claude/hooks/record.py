"""PreCompact: write an objective record of the session so far (requests, files read
and edited, commands, notes written) into the session record, linked to those files.
Never blocks compaction.

Captured text is redacted before it is cut (:func:`rubi.sessions.privacy.redact_cut`),
so a cut never leaves part of a secret. The transcript is read once from the last
offset, in time linear in its size, within :data:`READ_BUDGET_S`; what is left is
summarised by the next compaction.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rubi.claude.hooks.context import HookContext
from rubi.claude.hooks.sessionlog import append, session_file

__all__ = ["MAX_ITEMS", "READ_BUDGET_S", "handle"]

MAX_ITEMS = 40
"""Per list: a record is a summary, not a log."""
READ_BUDGET_S = 20.0
"""Seconds spent reading the transcript at most (Claude Code stops a hook after 60 s;
a stopped hook saves nothing and would be retried from the same offset)."""
LINKED_FILES = 200
"""Files added to the record's ``files:`` per record."""


def _section(title: str, items: list[str], total: int, code: bool = False) -> str:
    if not items:
        return ""
    shown = items[:MAX_ITEMS]
    more = f"\n- … {total - len(shown)} more" if total > len(shown) else ""
    tick = "`" if code else ""
    return f"**{title}**\n" + "\n".join(f"- {tick}{s}{tick}" for s in shown) + more


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Append the record; output nothing (compaction goes ahead)."""
    transcript = ctx.payload.get("transcript_path")
    if ctx.vault is None or not transcript:
        return None
    from rubi.sessions.privacy import redact, redact_cut
    from rubi.sessions.turns import COMMAND_CHARS, REQUEST_CHARS, read_activity

    state = ctx.load_state()
    start = state.record_offset
    activity = read_activity(Path(str(transcript)), start, ctx.cwd, budget_s=READ_BUDGET_S)
    path: Path | None = None
    files: list[str] = []
    if not activity.empty():
        trigger = str(ctx.payload.get("trigger") or "auto")
        stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
        requests = [
            redact_cut(r, REQUEST_CHARS, collapse=True, more="…")
            for r in activity.requests[:MAX_ITEMS]
        ]
        commands = [
            redact_cut(c, COMMAND_CHARS, collapse=True, more="…")
            for c in activity.commands[:MAX_ITEMS]
        ]
        read = [redact(f) for f in activity.files_read]
        edited = [redact(f) for f in activity.files_edited]
        notes = [redact(n) for n in activity.notes_written]
        files = [f for f in read + edited if "[REDACTED:" not in f]
        rest = "" if activity.complete else " — the rest goes in the next record"
        parts = [
            f"## Record {stamp} (before {trigger} compaction; transcript byte "
            f"{start}–{activity.end_offset}{rest})",
            _section("Requests", requests, activity.total("requests")),
            _section("Files read", read, activity.total("files_read"), code=True),
            _section("Files edited", edited, activity.total("files_edited"), code=True),
            _section("Commands", commands, activity.total("commands"), code=True),
            _section("Notes written", notes, activity.total("notes_written")),
        ]
        path = session_file(ctx.vault, ctx.session_id)
        append(path, "\n\n".join(p for p in parts if p))
    state.record_offset = activity.end_offset
    ctx.save_state(state)  # before linking: a note that cannot be edited never stalls it
    if path is not None:
        _link_files(path, files)
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
        lambda text: edit_note_text(
            text, path.name, merge_lists={"files": relative[:LINKED_FILES]}
        ),
    )
