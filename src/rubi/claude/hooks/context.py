"""What every handler gets: the event, the vault (if the project has one), the
settings, this session's small state file, and where to log."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubi.claude.hooks.event import HookEvent, parse_event
from rubi.core.errors import RubiError
from rubi.core.hooksettings import HookSettings, load_settings
from rubi.core.paths import VaultPaths, find_vault

__all__ = ["HookContext", "SessionState", "log_file", "open_context"]


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
        harvest_asked: Stop already asked since the last exploration spree.
        prompt: the last prompt not yet captured.
        record_offset: transcript bytes already summarised by PreCompact.
    """

    explorations: int = 0
    meter_asked: bool = False
    harvest_asked: bool = False
    prompt: str = ""
    record_offset: int = 0
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

    def state_path(self) -> Path | None:
        if self.vault is None:
            return None
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", self.session_id or "unknown")[:80]
        return self.vault.index_dir / "hooks" / f"{name}.json"

    def load_state(self) -> SessionState:
        path = self.state_path()
        if path is None:
            return SessionState()
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return SessionState()
        known = {k: raw[k] for k in SessionState.__dataclass_fields__ if k in raw}
        return SessionState(**known)

    def save_state(self, state: SessionState) -> None:
        path = self.state_path()
        if path is None:
            return
        from rubi.core.atomic import atomic_write_text

        atomic_write_text(path, json.dumps(state.__dict__))


def open_context(payload: dict[str, Any] | HookEvent, name: str = "") -> HookContext:
    """The context for one hook call: ``payload`` is the decoded hook JSON (parsed by
    :func:`rubi.claude.hooks.event.parse_event`; a path-like value that fails its check
    is dropped) or an event parsed already; its vault is the ``.rubi/`` at or above
    ``cwd``."""
    event = payload if isinstance(payload, HookEvent) else parse_event(payload, name)
    vault: VaultPaths | None
    try:
        vault = find_vault(cwd=event.folder)
    except (RubiError, OSError):
        vault = None
    return HookContext(
        event,
        vault,
        load_settings(vault.root if vault else None, vault.project_root if vault else None),
    )
