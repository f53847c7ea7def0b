"""PreToolUse on Read: deny a whole-file read of a huge file, pointing to a ranged
read or a search. A read with a small ``limit`` always passes."""

from __future__ import annotations

import os
from typing import Any

from rubi.claude.hooks.context import HookContext
from rubi.core.tokens import tokens_for_chars

__all__ = ["handle"]

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
    shape = f"{lines:,} lines, " if lines else ""
    search = ", or ask the rubi search tool for the file's symbols" if ctx.vault is not None else ""
    reason = (
        f"{os.path.basename(path)} is large ({shape}{size / 1000:,.0f} KB); reading it whole "
        f"costs about {tokens_for_chars(size):,} tokens of context. Read the part you need "
        f"with offset and limit (e.g. offset=1, limit=200), or find it first with Grep{search}."
    )
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
