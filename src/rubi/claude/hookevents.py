"""The Claude Code hook events rubi answers."""

from __future__ import annotations

__all__ = ["HOOK_EVENTS"]

HOOK_EVENTS: tuple[str, ...] = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "PreCompact",
    "SessionEnd",
)
"""The Claude Code hook events rubi answers, in the order a session meets them:
``rubi hook EVENT``'s choices, the installer's hook groups and the plugin's
``hooks/hooks.json`` all list exactly these."""
