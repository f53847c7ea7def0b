"""SessionEnd: capture a prompt that got no answer (the session ended first). Kept
tiny: Claude Code gives SessionEnd hooks about 1.5 s together."""

from __future__ import annotations

from typing import Any

from rubi.claude.hooks.capture import capture_turn
from rubi.claude.hooks.context import HookContext

__all__ = ["handle"]


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Never outputs anything."""
    if ctx.vault is None:
        return None
    state = ctx.load_state()
    if state.prompt:
        capture_turn(ctx, state, "(the session ended before an answer)")
        ctx.save_state(state)
    return None
