"""Capture the conversation's text (no tool calls, no thinking) into the session
record, through the redaction filter, so past sessions are searchable.

Each side of a turn is redacted first and cut afterwards
(:func:`rubi.sessions.privacy.redact_cut`): a cut never leaves part of a secret."""

from __future__ import annotations

import time

from rubi.claude.hooks.context import HookContext, SessionState
from rubi.claude.hooks.sessionlog import append, session_file

__all__ = ["MAX_TURN_CHARS", "capture_turn", "clean_turn"]

MAX_TURN_CHARS = 20_000
"""Each side of a turn is cut here: the record is for finding, not for replaying."""


def clean_turn(text: str) -> str:
    """``text`` as it may be stored: redacted, then cut to :data:`MAX_TURN_CHARS`."""
    from rubi.sessions.privacy import redact_cut

    return redact_cut(text.strip(), MAX_TURN_CHARS)


def capture_turn(ctx: HookContext, state: SessionState, answer: str | None) -> None:
    """Append the pending prompt and ``answer`` (redacted); clears ``state.prompt``."""
    if ctx.vault is None or (not state.prompt and not answer):
        return
    stamp = time.strftime("%H:%M", time.gmtime())
    block = [f"### {stamp}"]
    if state.prompt:
        block.append("**User:** " + clean_turn(state.prompt))
    if answer:
        block.append("**Claude:** " + clean_turn(answer))
    append(session_file(ctx.vault, ctx.session_id), "\n\n".join(block))
    state.prompt = ""
