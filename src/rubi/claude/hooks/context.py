"""What every handler gets: the event, the vault (if the project has one), the
settings, this session's small state file, and where to log.

Claude Code runs the hooks of parallel tool calls at the same time, each in its own
process (or one at a time in a resident engine, with the rest cold beside it), so the
state file is only ever changed under its lock: :meth:`HookContext.session_state`
reads it, lets the handler change it and writes it back while holding
``hooks/<session>.lock``. Eight concurrent PostToolUse hooks count eight.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rubi.claude.hooks.event import HookEvent, parse_event
from rubi.claude.hooksettings import HookSettings, load_settings
from rubi.core.errors import RubiError
from rubi.core.jsonline import dumps, loads
from rubi.core.paths import VaultPaths, find_vault, walked_vault

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.core.vaultwalk import VaultWalk

__all__ = ["STATE_LOCK_WAIT_S", "HookContext", "SessionState", "log_file", "open_context"]

STATE_LOCK_WAIT_S = 5.0
"""A hook waits at most this long for another hook of the session to release its state
(each holds it for a read and a write); past it the hook goes on without the lock."""


def log_file(vault: VaultPaths | None) -> Path:
    """``hooks.log`` in the vault's derived-data folder (the user cache), else in the
    rubi cache folder itself."""
    if vault is not None:
        return vault.index_dir / "hooks.log"
    from rubi.core.paths import cache_home

    return cache_home() / "hooks.log"


@dataclass
class SessionState:
    """Per-session counters kept between hook calls (``hooks/<session>.json`` in the
    vault's derived-data folder, in the user cache).

    Attributes:
        explorations: reads and searches since the last register.
        meter_asked: the meter already asked for notes and a handoff.
        prompt: the last prompt not yet captured.
        record_offset: transcript bytes already summarised by PreCompact.
        guard_denied: the whole-file reads the guard denied once (``path|offset|limit``
            keys, oldest first); the same read again goes through.
        model: the model SessionStart named (Claude Code sends it after a compaction
            and on resume), ``""`` when none did.
        captured: keys of the answers captured last (:func:`rubi.claude.hooks.capture.turn_key`,
            oldest first): a turn captured already is not captured again.
    """

    explorations: int = 0
    meter_asked: bool = False
    prompt: str = ""
    record_offset: int = 0
    guard_denied: list[str] = field(default_factory=list)
    model: str = ""
    captured: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class HookContext:
    """One hook call: the event, the project's vault (None outside a project) and the
    hook settings."""

    event: HookEvent
    vault: VaultPaths | None
    settings: HookSettings

    @property
    def session_id(self) -> str:
        return self.event.session_id

    @property
    def cwd(self) -> Path:
        return self.event.folder

    def for_session(self, session_id: str) -> HookContext:
        """This context as seen by another session of the same project (its state)."""
        if session_id == self.session_id:
            return self
        from dataclasses import replace

        return HookContext(replace(self.event, session_id=session_id), self.vault, self.settings)

    def state_path(self) -> Path | None:
        """``hooks/<session>.json`` in the vault's derived-data folder, or in rubi's
        cache folder outside a project (the Read guard keeps its denials there); None
        without a session id outside a project."""
        if self.vault is not None:
            folder = self.vault.index_dir
        elif self.session_id:
            from rubi.core.paths import cache_home

            folder = cache_home()
        else:
            return None
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", self.session_id or "unknown")[:80]
        return folder / "hooks" / f"{name}.json"

    def load_state(self) -> SessionState:
        """The session's state as last saved (a read only: change it through
        :meth:`session_state`)."""
        path = self.state_path()
        if path is None:
            return SessionState()
        try:
            raw = loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return SessionState()
        if not isinstance(raw, dict):
            return SessionState()
        defaults = SessionState()
        known = {
            k: raw[k]
            for k in SessionState.__dataclass_fields__
            if k in raw and isinstance(raw[k], type(getattr(defaults, k)))
        }
        return SessionState(**known)

    def save_state(self, state: SessionState) -> None:
        """Write ``state`` (call it under :meth:`session_state`'s lock): atomically but
        not fsynced. It is rewritten by most hook calls of a session (a dozen in a
        short one), it holds counters and the Read guard's marks, never a user's
        words that exist nowhere else (the transcript has them), and a crash that
        loses it leaves an old or empty file, which :meth:`load_state` reads as a
        fresh state."""
        path = self.state_path()
        if path is None:
            return
        from rubi.core.atomic import atomic_write_text

        atomic_write_text(path, dumps(state.__dict__), durable=False)

    @contextmanager
    def session_state(self) -> Iterator[SessionState]:
        """The state, read under the session's lock and written back (when changed) as
        the block ends, before the lock is released; an exception in the block writes
        nothing. Without a state file (no session id outside a project): a fresh state,
        never saved.

        Waits at most :data:`STATE_LOCK_WAIT_S` for the lock, then goes on without it
        (a hook never hangs a session).
        """
        path = self.state_path()
        if path is None:
            yield SessionState()
            return
        from rubi.claude.filelocks import held

        path.parent.mkdir(parents=True, exist_ok=True)
        with held(path.with_suffix(".lock"), STATE_LOCK_WAIT_S) as locked:
            if not locked:
                import logging  # only now: a hook that gets the lock never loads it

                logging.getLogger(__name__).warning(
                    "session state %s: lock busy, updating without it", path.name
                )
            state = self.load_state()
            before = dumps(state.__dict__)
            yield state
            if dumps(state.__dict__) != before:
                self.save_state(state)


def open_context(
    payload: dict[str, Any] | HookEvent, name: str = "", *, walk: VaultWalk | None = None
) -> HookContext:
    """The context for one hook call: ``payload`` is the decoded hook JSON (parsed by
    :func:`rubi.claude.hooks.event.parse_event`; a path-like value that fails its check
    is dropped) or an event parsed already; its vault is the ``.rubi/`` at or above
    ``cwd``: the one ``walk`` found when it started from there (the engine's check, the
    client's look for an engine), else found now."""
    event = payload if isinstance(payload, HookEvent) else parse_event(payload, name)
    vault: VaultPaths | None
    try:
        if walk is not None and walk.covers(str(event.folder)):
            vault = walked_vault(walk)
        else:
            vault = find_vault(cwd=event.folder)
    except (RubiError, OSError):
        vault = None
    return HookContext(
        event,
        vault,
        load_settings(vault.root if vault else None, vault.project_root if vault else None),
    )
