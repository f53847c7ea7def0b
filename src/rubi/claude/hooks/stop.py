"""Stop: capture the turn (once, however often Stop runs for it); after heavy
exploration with nothing registered, ask once for 1–5 durable notes. Never loops
(``stop_hook_active``), never blocks twice for the same exploration."""

from __future__ import annotations

from rubi.claude.hooks.capture import capture_answer
from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["handle"]


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Block once with a request for notes, or say nothing."""
    if ctx.vault is None:
        return None
    result = None
    with ctx.session_state() as state:
        capture_answer(ctx, state, ctx.event.last_assistant_message)
        if not ctx.event.stop_hook_active and state.explorations >= ctx.settings.harvest_after:
            result = {
                "decision": "block",
                "reason": (
                    f"This answer took {state.explorations} reads and searches and nothing "
                    "was saved to the project memory. Register 1-5 durable notes with the "
                    "rubi register tool: decisions made, bugs found, gotchas, how-tos, each "
                    "with the files it is about. Skip what is obvious from the code. Then "
                    "stop."
                ),
            }
            state.explorations = 0  # asked once for this exploration
    return result
