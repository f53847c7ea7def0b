"""SessionStart: bring the index up to date (nothing changed: nothing done), then give
Claude the level-0 map; after ``/compact`` or ``/clear``, the last handoff and the
latest session record instead (:func:`rubi.app.session_start_context`)."""

from __future__ import annotations

from typing import Any

from rubi import app
from rubi.claude.hooks.context import HookContext

__all__ = ["HOOK_LOCK_WAIT_S", "MAX_CONTEXT_CHARS", "handle"]

MAX_CONTEXT_CHARS = 9_000
"""Claude Code replaces hook output over 10,000 characters by a file path."""
HOOK_LOCK_WAIT_S = 1.0
"""A hook never waits long for another index run."""


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """``additionalContext`` with the map (or the handoff after compact/clear)."""
    if ctx.vault is None:
        return None
    app.refresh_index(ctx.vault, lock_timeout_s=HOOK_LOCK_WAIT_S)
    text = app.session_start_context(
        ctx.vault,
        source=ctx.event.source or "startup",
        session_id=ctx.session_id,
        max_chars=MAX_CONTEXT_CHARS,
    )
    if text is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
