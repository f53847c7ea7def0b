"""PostToolUse: count exploration for the harvest, and watch the context size.

When the main conversation's context passes ``meter_share`` of ``context_window``
(default 80% of 150,000 tokens), Claude is asked, once per session, to register what
it learned and save a handoff, so that compaction loses nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rubi import app
from rubi.claude.hooks.context import HookContext

__all__ = ["EXPLORING_TOOLS", "handle", "is_exploration", "is_register"]

EXPLORING_TOOLS = frozenset(
    {"Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "NotebookRead", "Task"}
)
_EXPLORING_MCP = re.compile(r"^mcp__.*__(search|read|map)$")
_EXPLORING_SHELL = re.compile(
    r"^\s*(?:rg|grep|find|fd|ls|cat|head|tail|less|tree|git (?:log|show|grep))\b"
)


def is_register(tool: str, args: Mapping[str, Any]) -> bool:
    """The call saved knowledge (the MCP register tool, or ``rubi note add``)."""
    if tool.startswith("mcp__") and tool.endswith("__register"):
        return True
    return tool == "Bash" and "rubi note add" in str(args.get("command") or "")


def is_exploration(tool: str, args: Mapping[str, Any]) -> bool:
    """The call looked something up (a read, a search, a listing)."""
    if tool in EXPLORING_TOOLS or _EXPLORING_MCP.match(tool):
        return True
    return tool == "Bash" and bool(_EXPLORING_SHELL.match(str(args.get("command") or "")))


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Update the counters; ask for notes and a handoff once the context is large."""
    event = ctx.event
    if ctx.vault is None or event.agent_id:
        return None  # subagents have their own context
    tool, args = event.tool_name, event.tool_input
    state = ctx.load_state()
    before = (state.explorations, state.meter_asked)
    if is_register(tool, args):
        state.explorations = 0
    elif is_exploration(tool, args):
        state.explorations += 1
    message = None
    if event.transcript_path is not None:
        size = app.context_size(event.transcript_path)
        window = ctx.settings.context_window
        threshold = ctx.settings.meter_share * window
        if state.meter_asked and (size is None or size < threshold / 2):
            state.meter_asked = False  # compacted: the next climb gets its own reminder
        elif not state.meter_asked and size is not None and size >= threshold:
            state.meter_asked = True
            message = (
                f"Context is at {size:,} tokens ({size / window:.0%} of the {window:,}-token "
                "window rubi watches). Before it is compacted: register the durable "
                "knowledge from this session with the rubi register tool (decisions, "
                "bugs, gotchas, with their files), then save a handoff (rubi handoff "
                "tool, action=save) with the goal, the state and the next steps."
            )
    if (state.explorations, state.meter_asked) != before:
        ctx.save_state(state)
    if message is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": message}}
