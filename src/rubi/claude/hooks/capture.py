"""Capture the conversation's text (no tool calls, no thinking) into the session
record, through the redaction filter, so past sessions are searchable
(:func:`rubi.app.capture_turn`: each side of a turn is redacted first and cut
afterwards, so a cut never leaves part of a secret).

A turn is captured once: Stop hooks for the same answer (the engine's and a cold one,
two processes racing) write it once (:func:`capture_answer`)."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.sessionrecord import MAX_TURN_CHARS
from rubi.claude.hooks.context import HookContext, SessionState
from rubi.core.digest import sha256_hex

__all__ = [
    "MAX_TURN_CHARS",
    "REMEMBERED_TURNS",
    "capture_answer",
    "capture_turn",
    "clean_turn",
    "turn_key",
]

REMEMBERED_TURNS = 20
"""Answers a session remembers having captured (the oldest are forgotten first)."""

clean_turn = app.clean_turn


def turn_key(transcript: Path | None, answer: str | None) -> str:
    """Which answer a Stop hook reports: the ``uuid`` of the transcript's last assistant
    line (``""`` when unknown) and the answer's text, hashed (16 hex digits)."""
    from rubi.app.sessionrecord import last_answer_id

    uuid = last_answer_id(transcript) if transcript is not None else ""
    text = f"{uuid}\0{answer or ''}".encode("utf-8", "surrogatepass")
    return sha256_hex(text)[:16]


def capture_answer(ctx: HookContext, state: SessionState, answer: str | None) -> bool:
    """Capture the pending prompt and ``answer`` (as :func:`capture_turn`) unless this
    answer was captured already and no prompt came since (the same Stop run twice).
    Call it under the session's lock (:meth:`HookContext.session_state`).

    Returns:
        Whether the turn was captured now.
    """
    key = turn_key(ctx.event.transcript_path, answer)
    if not state.prompt and key in state.captured:
        return False
    capture_turn(ctx, state, answer)
    state.captured = [*(k for k in state.captured if k != key), key][-REMEMBERED_TURNS:]
    return True


def capture_turn(ctx: HookContext, state: SessionState, answer: str | None) -> None:
    """Append the pending prompt and ``answer`` (redacted); clears ``state.prompt``."""
    if ctx.vault is None:
        return
    app.capture_turn(ctx.vault, ctx.session_id, state.prompt, answer)
    state.prompt = ""
