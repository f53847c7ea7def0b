"""PreToolUse on Read: deny a whole-file read of a huge file once, with the file's
outline (symbols with their lines, from the code map) so a ranged read is one step
away. A read with a small ``limit`` always passes, and so does the same read asked
again in the session: the agent saw the outline and still wants the whole file."""

from __future__ import annotations

import os
from typing import Any

from rubi.claude.hooks.context import HookContext
from rubi.core.tokens import tokens_for_chars

__all__ = ["OUTLINE_CHARS", "REMEMBERED_DENIALS", "handle"]

OUTLINE_CHARS = 2_500
"""The outline in a denial's reason takes at most this many characters (~600 tokens:
far less than the file)."""
REMEMBERED_DENIALS = 50
"""Denied reads a session remembers (the oldest are forgotten first)."""

READ_DEFAULT_LINES = 2000
"""Claude Code's Read returns this many lines when no limit is given."""
PASS_THROUGH = frozenset(
    [
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".webp",
        ".bmp",
        ".ico",
        ".tif",
        ".tiff",
        ".pdf",
        ".ipynb",
        ".heic",
        ".avif",
    ]
)
"""Images, PDFs and notebooks: Read renders them (pages, not lines); never guarded."""


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Deny, with a reason Claude reads, or say nothing (the read goes ahead).

    A read is guarded when it would return more than ``guard_max_lines`` lines (no
    ``limit`` means Claude Code's default of 2,000) of a file over the line or byte
    limit. Images, PDFs (``pages``), notebooks and binary files pass.
    """
    if ctx.event.tool_name != "Read":
        return None
    args = ctx.event.tool_input
    path = str(args.get("file_path") or "")
    if not path or os.path.splitext(path)[1].lower() in PASS_THROUGH or args.get("pages"):
        return None
    limits = ctx.settings
    limit = args.get("limit")
    span = limit if isinstance(limit, int) and limit > 0 else READ_DEFAULT_LINES
    if span <= limits.guard_max_lines:
        return None  # a ranged read of a reasonable size
    if not os.path.isabs(path):
        path = os.path.join(str(ctx.cwd), path)
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    lines = 0
    if size > limits.guard_max_lines:  # a smaller file cannot have more lines than that
        with open(path, "rb") as fh:
            head = fh.read(8192)
            if b"\x00" in head:
                return None  # binary: Read shows what it can; lines mean nothing
            lines = head.count(b"\n") + sum(
                chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b"")
            )
    if size <= limits.guard_max_bytes and lines <= limits.guard_max_lines:
        return None
    key = f"{os.path.realpath(path)}|{args.get('offset')}|{limit}"
    with ctx.session_state() as state:
        if key in state.guard_denied:
            state.guard_denied.remove(key)  # asked again: let it through, once
            return None
        state.guard_denied = [*state.guard_denied, key][-REMEMBERED_DENIALS:]
    return _deny(ctx, path, size, lines)


def _outline(ctx: HookContext, path: str, lines: int) -> str:
    """The file's symbols with their lines, as a few lines of text ("" when unmapped)."""
    if ctx.vault is None:
        return ""
    from rubi.app.fileoutline import outline_lines, symbol_ranges

    ranges = symbol_ranges(ctx.vault, path, lines)
    if not ranges:
        return ""
    return "\nIts symbols (from rubi's code map):\n" + "\n".join(
        outline_lines(ranges, OUTLINE_CHARS)
    )


def _deny(ctx: HookContext, path: str, size: int, lines: int) -> dict[str, Any]:
    shape = f"{lines:,} lines, " if lines else ""
    reason = (
        f"{os.path.basename(path)} is large ({shape}{size / 1000:,.0f} KB); reading it whole "
        f"costs about {tokens_for_chars(size):,} tokens of context. Read the part you need "
        "with offset and limit (e.g. offset=1, limit=200), or find it first with Grep. "
        "Asking for the whole file again reads it."
    ) + _outline(ctx, path, lines)
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
