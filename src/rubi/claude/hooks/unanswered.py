"""A prompt a session sent and got no answer to (the session ended first), captured
into its session record: by SessionEnd (:mod:`rubi.claude.hooks.end`, cold or in the
plugin's server) and, when the plugin's server was killed before its end, by the next
SessionStart (:func:`rubi.claude.hooks.costline.last_session_line`)."""

from __future__ import annotations

from rubi.claude.hooks.context import HookContext

__all__ = ["ENDED_BEFORE_ANSWER", "capture_unanswered"]

ENDED_BEFORE_ANSWER = "(the session ended before an answer)"
"""The answer recorded beside a prompt whose session ended first."""


def capture_unanswered(ctx: HookContext) -> bool:
    """Capture the prompt ``ctx``'s session sent and got no answer to, with
    :data:`ENDED_BEFORE_ANSWER` (none pending, or no vault: nothing, and ``rubi.app``
    is not loaded).

    Returns:
        Whether a prompt was captured.
    """
    if ctx.vault is None or not ctx.load_state().prompt:
        return False  # most sessions end here, without loading rubi.app
    from rubi.claude.hooks.capture import capture_turn

    with ctx.session_state() as state:
        if not state.prompt:
            return False
        capture_turn(ctx, state, ENDED_BEFORE_ANSWER)
    return True
