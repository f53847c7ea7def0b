"""Capture the conversation's text (no tool calls, no thinking) into the session
record, through the redaction filter, so past sessions are searchable."""

from __future__ import annotations

import time

from rubi.hooks.context import HookContext, SessionState
from rubi.hooks.sessionlog import append, session_file

__all__ = ["MAX_TURN_CHARS", "capture_turn"]

MAX_TURN_CHARS = 20_000
"""Each side of a turn is cut here: the record is for finding, not for replaying."""


def _cut(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_TURN_CHARS else text[:MAX_TURN_CHARS] + "\n[…cut]"


def capture_turn(ctx: HookContext, state: SessionState, answer: str | None) -> None:
    """Append the pending prompt and ``answer`` (redacted); clears ``state.prompt``."""
    if ctx.vault is None or (not state.prompt and not answer):
        return
    from rubi.sessions.privacy import redact

    stamp = time.strftime("%H:%M", time.gmtime())
    block = [f"### {stamp}"]
    if state.prompt:
        block.append("**User:** " + redact(_cut(state.prompt)))
    if answer:
        block.append("**Claude:** " + redact(_cut(answer)))
    append(session_file(ctx.vault, ctx.session_id), "\n\n".join(block))
    state.prompt = ""
