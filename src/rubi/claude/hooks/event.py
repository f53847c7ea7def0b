"""The hook JSON, parsed once into a frozen event every handler reads.

Claude Code sends one JSON object per hook call on stdin (the integration reference
lists the shapes: common fields ``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``, then per event ``prompt``, ``tool_name``/``tool_input``/
``tool_response``, ``source``, ``trigger``, ``stop_hook_active``,
``last_assistant_message``, ``reason``, ``agent_id``...). The path-like values are
checked by :mod:`rubi.claude.hooks.payload` (a value that fails is dropped); every other
value of the wrong JSON type becomes its empty default, so a handler never meets a
``None`` prompt or a list where a mapping belongs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from rubi.claude.hooks.payload import session_id, transcript_path, working_dir

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HookEvent", "event_key", "parse_event"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def event_key(name: str) -> str:
    """``"UserPromptSubmit"``, ``"user-prompt-submit"`` -> ``"userpromptsubmit"``."""
    return name.replace("-", "").replace("_", "").lower()


@dataclass(frozen=True, slots=True)
class HookEvent:
    """One hook call, normalised.

    Attributes:
        name: the event as Claude Code names it (``hook_event_name``, or the name the
            hook was started with), e.g. ``"UserPromptSubmit"``; ``""`` when unknown.
        session_id: a usable session id, or ``""``.
        transcript_path: an existing ``.jsonl`` transcript by absolute path, or None.
        cwd: an existing folder by absolute path, or None.
        prompt: UserPromptSubmit's prompt (``""`` otherwise).
        tool_name, tool_input, tool_response: Pre/PostToolUse (a read-only mapping;
            ``tool_response`` as sent, any JSON value).
        agent_id: set when a subagent made the tool call.
        source: SessionStart's ``startup``, ``resume``, ``clear`` or ``compact``.
        model: SessionStart's model (Claude Code names it after a compaction and on
            resume, e.g. ``claude-opus-4-8[1m]``), ``""`` when absent.
        trigger: PreCompact's ``manual`` or ``auto``.
        custom_instructions: PreCompact's ``/compact`` argument.
        stop_hook_active: Stop was already continued by a Stop hook.
        last_assistant_message: Stop's final answer text, or None.
        reason: SessionEnd's reason.
    """

    name: str = ""
    session_id: str = ""
    transcript_path: Path | None = None
    cwd: Path | None = None
    prompt: str = ""
    tool_name: str = ""
    tool_input: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    tool_response: Any = None
    agent_id: str = ""
    source: str = ""
    model: str = ""
    trigger: str = ""
    custom_instructions: str = ""
    stop_hook_active: bool = False
    last_assistant_message: str | None = None
    reason: str = ""

    @property
    def key(self) -> str:
        """:attr:`name` as :func:`event_key` gives it."""
        return event_key(self.name)

    @property
    def folder(self) -> Path:
        """Where to look for the vault: :attr:`cwd`, else the current folder."""
        return self.cwd if self.cwd is not None else Path(".")


def _text(payload: Mapping[str, Any], key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


def parse_event(payload: Any, name: str = "") -> HookEvent:
    """The event in ``payload`` (the decoded hook JSON; anything else is an empty
    event). ``name`` (the hook's command-line argument) wins over
    ``hook_event_name``."""
    p: Mapping[str, Any] = payload if isinstance(payload, dict) else {}
    transcript = transcript_path(p.get("transcript_path"))
    cwd = working_dir(p.get("cwd"))
    tool_input = p.get("tool_input")
    answer = p.get("last_assistant_message")
    return HookEvent(
        name=name or _text(p, "hook_event_name"),
        session_id=session_id(p.get("session_id")),
        transcript_path=Path(transcript) if transcript else None,
        cwd=Path(cwd) if cwd else None,
        prompt=_text(p, "prompt"),
        tool_name=_text(p, "tool_name"),
        tool_input=MappingProxyType(dict(tool_input)) if isinstance(tool_input, dict) else _EMPTY,
        tool_response=p.get("tool_response"),
        agent_id=_text(p, "agent_id"),
        source=_text(p, "source"),
        model=_text(p, "model")[:200],
        trigger=_text(p, "trigger"),
        custom_instructions=_text(p, "custom_instructions"),
        stop_hook_active=p.get("stop_hook_active") is True,
        last_assistant_message=answer if isinstance(answer, str) else None,
        reason=_text(p, "reason"),
    )
