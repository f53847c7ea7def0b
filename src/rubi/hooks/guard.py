"""PreToolUse on Read: deny a whole-file read of a huge file, pointing to a ranged
read or a search. A ranged read (``offset``/``limit``) always passes."""

from __future__ import annotations

import os
from typing import Any

from rubi.hooks.context import HookContext

__all__ = ["handle"]

COUNT_LINES_ABOVE_BYTES = 16_000
"""Smaller files cannot hold more lines than the limit at any sane line length."""


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Deny, with a reason Claude reads, or say nothing (the read goes ahead)."""
    p = ctx.payload
    if p.get("tool_name") != "Read":
        return None
    args = p.get("tool_input") if isinstance(p.get("tool_input"), dict) else {}
    assert isinstance(args, dict)
    if args.get("offset") is not None or args.get("limit") is not None:
        return None
    path = str(args.get("file_path") or "")
    if not path:
        return None
    if not os.path.isabs(path):
        path = os.path.join(str(ctx.cwd), path)
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    limits = ctx.settings
    lines = 0
    if size > COUNT_LINES_ABOVE_BYTES:
        with open(path, "rb") as fh:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    if size <= limits.guard_max_bytes and lines <= limits.guard_max_lines:
        return None
    reason = (
        f"{os.path.basename(path)} is large ({lines:,} lines, {size / 1000:,.0f} KB); reading it "
        f"whole costs about {size // 4:,} tokens of context. Read the part you need with "
        "offset and limit (e.g. offset=1, limit=200), find it first with Grep, or ask the "
        "rubi search tool for the file's symbols."
    )
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
