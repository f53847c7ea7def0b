"""SessionEnd: leave the pointer the next SessionStart follows to show what rubi cost
this session (:mod:`rubi.claude.hooks.costline`); capture a prompt that got no answer
(the session ended first); on
``/clear``, leave the pointer the next SessionStart follows to this session's record
(:mod:`rubi.claude.hooks.previous`). Kept tiny: Claude Code gives SessionEnd hooks
about 1.5 s together."""

from __future__ import annotations

from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["handle"]


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Never outputs anything."""
    if ctx.vault is None:
        return None
    from rubi.claude.hooks.costline import remember_ended

    remember_ended(ctx)
    if ctx.event.reason == "clear":
        from rubi.claude.hooks.previous import remember_cleared

        remember_cleared(ctx)
    if not ctx.load_state().prompt:
        return None  # most sessions end here, without loading rubi.app
    from rubi.claude.hooks.capture import capture_turn

    with ctx.session_state() as state:
        if state.prompt:
            capture_turn(ctx, state, "(the session ended before an answer)")
    return None
