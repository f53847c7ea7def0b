"""PreToolUse on ``Read``: the guard (:mod:`rubi.claude.hooks.guard`), then, for a read
that goes ahead, the meter (:func:`rubi.claude.hooks.meter.meter`): the read counts as
exploration and the context size is watched here, in the one hook process a read
starts anyway, instead of in a second one after it (the plugin's PostToolUse matcher
leaves ``Read`` out). A denied read is not counted: it did not happen."""

from __future__ import annotations

from rubi.claude.hooks import guard
from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["handle"]


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """The guard's denial; else, for a ``Read``, the meter's ask (PreToolUse
    ``additionalContext``) or None; None for any other tool."""
    denied = guard.handle(ctx)
    if denied is not None or ctx.event.tool_name != "Read":
        return denied
    from rubi.claude.hooks.meter import meter

    return meter(ctx, "PreToolUse")
