"""The line of what rubi cost the last session and what it saved
(:func:`rubi.app.sessioncost.transcript_cost`), shown to the user once.

Claude Code discards what a SessionEnd hook says, and gives it about 1.5 s; so
SessionEnd only leaves a pointer (``hooks/ended.json`` in the vault's derived-data
folder: the session id and its transcript), and the next SessionStart of the project
reads that transcript and shows the line as its ``systemMessage`` (shown to the user,
never to Claude), then drops the pointer. ``[hooks] cost_line = 0`` turns it off;
``rubi cost`` shows the line on demand.
"""

from __future__ import annotations

import stat
from pathlib import Path

from rubi.claude.hooks.context import HookContext
from rubi.core.jsonline import dumps, loads  # json's values without json's imports

__all__ = ["MAX_TRANSCRIPT_BYTES", "POINTER_FILE", "last_session_line", "remember_ended"]


POINTER_FILE = "ended.json"
MAX_TRANSCRIPT_BYTES = 20_000_000
"""A longer transcript is not read at session start (it would take seconds); `rubi
cost` still measures it."""


def _pointer(ctx: HookContext) -> Path | None:
    return ctx.vault.index_dir / "hooks" / POINTER_FILE if ctx.vault is not None else None


def remember_ended(ctx: HookContext, transcript: str | None = None) -> None:
    """Leave the pointer to this (ending) session for the next SessionStart.

    ``transcript``: the session's transcript when the caller knows it and Claude Code
    may not have written it yet (the plugin's server as it is stopped:
    :mod:`rubi.engine.sessionend`); else the hook's own (an existing file)."""
    path = _pointer(ctx)
    named = transcript or ctx.event.transcript_path
    if path is None or not ctx.session_id or named is None or not ctx.settings.cost_line:
        return
    from rubi.core.atomic import atomic_write_text

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, dumps({"session_id": ctx.session_id, "transcript_path": str(named)}))


def last_session_line(ctx: HookContext) -> str | None:
    """The line about the session that ended last in this project, once (the pointer
    is dropped); None without one, for this same session, or when the transcript is
    gone, too long or unreadable. A prompt that session left unanswered (its end's work
    was never done: the plugin's server was killed first) is captured now
    (:func:`rubi.claude.hooks.unanswered.capture_unanswered`)."""
    path = _pointer(ctx)
    if path is None or not ctx.settings.cost_line:
        return None
    try:
        data = loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("session_id") == ctx.session_id:
        return None
    path.unlink(missing_ok=True)
    session = data.get("session_id")
    transcript = data.get("transcript_path")
    if not isinstance(session, str) or not isinstance(transcript, str):
        return None
    from rubi.claude.hooks.payload import session_id as usable_id
    from rubi.claude.hooks.unanswered import capture_unanswered

    if usable_id(session):
        capture_unanswered(ctx.for_session(session))
    try:
        info = Path(transcript).stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_TRANSCRIPT_BYTES:
            return None  # a FIFO or a device would block the session's start: only files
        # The cost's code only for a transcript there is: a gone one paid its imports
        # (rubi.app.sessioncost, the transcript's records, json: 26 M instructions).
        from rubi.app.sessioncost import transcript_cost

        return transcript_cost(Path(transcript), session).line
    except OSError as exc:
        _log_no_line(exc)
        return None


def _log_no_line(exc: OSError) -> None:
    """Log (INFO) why there is no line. Without ``logging`` imported in this process
    nothing configured a handler or a level (the root logger's WARNING drops an INFO
    record, and no handler sees it): the record would go nowhere, so ``logging``
    (8 M instructions for a cold SessionStart) is not imported for it."""
    import sys

    if "logging" not in sys.modules:
        return
    import logging

    logging.getLogger(__name__).info("no cost line for the last session: %s", exc)
