"""The session a ``/clear`` left: ``/clear`` starts a new session id, so the session
record (kept per session id) is found through the one that ended.

SessionEnd (reason ``clear``, which Claude Code fires with the old id just before
SessionStart ``clear`` with the new one) leaves a pointer, ``hooks/cleared.json`` in
the vault's derived-data folder: the old session id, its transcript and when. The next
SessionStart ``clear`` of the project takes it when it is fresh; without one (a
SessionEnd that timed out) the newest other transcript in the new session's transcript
folder stands in, when it was written in the last :data:`POINTER_TTL_S` seconds.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from rubi.claude.hooks.context import HookContext
from rubi.claude.hooks.payload import session_id as usable_id
from rubi.claude.hooks.payload import transcript_path as usable_transcript

__all__ = ["POINTER_FILE", "POINTER_TTL_S", "Previous", "find_previous", "remember_cleared"]

POINTER_FILE = "cleared.json"
POINTER_TTL_S = 600.0
"""A pointer (or a sibling transcript) older than this is another story, not the
session just cleared."""


@dataclass(frozen=True, slots=True)
class Previous:
    """The cleared session: its id and its transcript (None when gone)."""

    session_id: str
    transcript: Path | None


def _pointer(ctx: HookContext) -> Path | None:
    return ctx.vault.index_dir / "hooks" / POINTER_FILE if ctx.vault is not None else None


def remember_cleared(ctx: HookContext, now: float | None = None) -> None:
    """Leave the pointer to this (ending) session for the next SessionStart ``clear``."""
    path = _pointer(ctx)
    if path is None or not ctx.session_id:
        return
    from rubi.core.atomic import atomic_write_text

    transcript = ctx.event.transcript_path
    data = {
        "session_id": ctx.session_id,
        "transcript_path": str(transcript) if transcript else None,
        "at": time.time() if now is None else now,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data))


def _from_pointer(ctx: HookContext, now: float) -> Previous | None:
    path = _pointer(ctx)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    sid = usable_id(data.get("session_id"))
    at = data.get("at")
    if not sid or sid == ctx.session_id or not isinstance(at, (int, float)):
        return None
    if not 0 <= now - at <= POINTER_TTL_S:
        return None
    found = usable_transcript(data.get("transcript_path"))
    return Previous(sid, Path(found) if found else None)


def _from_transcripts(ctx: HookContext, now: float) -> Previous | None:
    """The newest other ``<session>.jsonl`` beside this session's transcript."""
    current = ctx.event.transcript_path
    if current is None:
        return None
    best: tuple[float, Path] | None = None
    try:
        for path in current.parent.glob("*.jsonl"):
            if path.name == current.name or not usable_id(path.stem):
                continue
            mtime = path.stat().st_mtime
            if now - mtime <= POINTER_TTL_S and (best is None or mtime > best[0]):
                best = (mtime, path)
    except OSError:
        return None
    return Previous(best[1].stem, best[1]) if best is not None else None


def find_previous(ctx: HookContext, now: float | None = None) -> Previous | None:
    """The session the ``/clear`` that started this one left, or None when unknown."""
    when = time.time() if now is None else now
    return _from_pointer(ctx, when) or _from_transcripts(ctx, when)
