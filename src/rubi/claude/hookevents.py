"""The Claude Code hook events rubi answers."""

from __future__ import annotations

__all__ = ["HOOK_EVENTS", "POST_TOOL_MATCHER"]

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

POST_TOOL_MATCHER = "^(?!Read$)"
"""PostToolUse's matcher: every tool but ``Read`` (Claude Code compares a matcher with
characters other than letters, digits, ``_``, ``|``, ``,``, ``-`` and spaces as a
JavaScript regular expression). A read is metered by its PreToolUse hook
(:mod:`rubi.claude.hooks.tooluse`), which runs anyway: one hook process, not two."""
