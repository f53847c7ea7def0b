"""Capture the conversation's text (no tool calls, no thinking) into the session
record, through the redaction filter, so past sessions are searchable
(:func:`rubi.app.capture_turn`: each side of a turn is redacted first and cut
afterwards, so a cut never leaves part of a secret)."""

from __future__ import annotations

from rubi import app
from rubi.app.sessionrecord import MAX_TURN_CHARS
from rubi.claude.hooks.context import HookContext, SessionState

__all__ = ["MAX_TURN_CHARS", "capture_turn", "clean_turn"]

clean_turn = app.clean_turn


def capture_turn(ctx: HookContext, state: SessionState, answer: str | None) -> None:
    """Append the pending prompt and ``answer`` (redacted); clears ``state.prompt``."""
    if ctx.vault is None:
        return
    app.capture_turn(ctx.vault, ctx.session_id, state.prompt, answer)
    state.prompt = ""
