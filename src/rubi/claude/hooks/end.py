"""SessionEnd: leave the pointer the next SessionStart follows to show what rubi cost
this session (:mod:`rubi.claude.hooks.costline`); capture a prompt that got no answer
(the session ended first); on
``/clear``, leave the pointer the next SessionStart follows to this session's record
(:mod:`rubi.claude.hooks.previous`). Kept tiny: Claude Code gives SessionEnd hooks
about 1.5 s together. The plugin's server runs the same handler when the session's
process ends (:mod:`rubi.engine.sessionend`); a prompt left unanswered by a server that
could not, the next SessionStart captures
(:func:`rubi.claude.hooks.unanswered.capture_unanswered`)."""

from __future__ import annotations

from rubi.claude.hooks.context import HookContext
from rubi.claude.hooks.unanswered import capture_unanswered

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
    capture_unanswered(ctx)
    return None
