"""The Claude Code hook events rubi answers."""

from __future__ import annotations

__all__ = ["HOOK_EVENTS", "POST_TOOL_MATCHER", "PROJECT_EVENTS"]

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

PROJECT_EVENTS: frozenset[str] = frozenset(
    {"sessionstart", "userpromptsubmit", "posttooluse", "stop", "precompact", "sessionend"}
)
"""The events (in :func:`rubi.claude.hooks.event.event_key` form) whose handlers answer
nothing and change nothing outside a project vault: a plugin enabled for every project
runs them in folders without ``.rubi/`` too, where the console script ends them before
loading any handler. Not PreToolUse: the Read guard works in any folder."""

POST_TOOL_MATCHER = "^(?!Read$)"
"""PostToolUse's matcher: every tool but ``Read`` (Claude Code compares a matcher with
characters other than letters, digits, ``_``, ``|``, ``,``, ``-`` and spaces as a
JavaScript regular expression). A read is metered by its PreToolUse hook
(:mod:`rubi.claude.hooks.tooluse`), which runs anyway: one hook process, not two."""
