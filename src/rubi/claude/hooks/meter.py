"""PostToolUse: count exploration for the harvest, and watch the context size.

A ``Read`` is metered by its PreToolUse hook instead (:func:`meter`, called by
:mod:`rubi.claude.hooks.tooluse` when the guard lets the read go ahead): the guard
runs a process for every read anyway, so the plugin's PostToolUse matcher leaves
``Read`` out and a ten-read turn starts ten hook processes, not twenty. PostToolUse
ignores a ``Read`` (settings written by an older ``rubi install`` still send it), so
a read is never counted twice.

Before the main conversation's context reaches the point where Claude Code compacts it
(derived from the settings Claude Code reads, the model's window and Claude Code's own
margins: :mod:`rubi.claude.hooks.compaction`), Claude is asked, once per climb, to
register what it learned and save a handoff, so that compaction loses nothing. The
counters are updated under the session's lock (parallel tool calls run their hooks at
the same time).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.claude.hooks.compaction import CompactionPoint

__all__ = [
    "EXPLORING_TOOLS",
    "MIN_HEADROOM",
    "ask_point",
    "handle",
    "headroom",
    "is_exploration",
    "is_register",
    "meter",
]

MIN_HEADROOM = 25_000
"""The ask comes at least this many tokens before compaction: a PostToolUse hook can
read the transcript before Claude Code has written the last answer's usage (it is
written asynchronously), so the size it sees may be two tool rounds behind."""

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


def ask_point(ctx: HookContext, size: int | None, model: str) -> tuple[int, CompactionPoint]:
    """The context size at which to ask, and where Claude Code compacts.

    The ask comes :func:`headroom` tokens before the compaction point
    (:func:`rubi.claude.hooks.compaction.compaction_point`); a ``[hooks]
    context_window`` (or ``RUBI_CONTEXT_WINDOW``) set by the user asks at
    ``meter_share`` of it when that is earlier.
    """
    from rubi.claude.hooks.compaction import compaction_point

    project = ctx.vault.project_root if ctx.vault is not None else None
    point = compaction_point(project or ctx.cwd, model, size)
    at = point.at - headroom(point.at)
    if ctx.settings.context_window > 0:
        at = min(at, int(ctx.settings.meter_share * ctx.settings.context_window))
    return at, point


def headroom(compact_at: int) -> int:
    """Tokens left between the ask and the compaction: room to register notes and save
    a handoff, and for the rounds the meter has not seen yet (it reads the last
    usage written to the transcript): a tenth of the point, at least
    :data:`MIN_HEADROOM`."""
    return max(MIN_HEADROOM, compact_at // 10)


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """PostToolUse: update the counters; ask for notes and a handoff before Claude Code
    compacts. A ``Read`` was metered by its PreToolUse hook: nothing."""
    if ctx.event.tool_name == "Read":
        return None
    return meter(ctx, "PostToolUse")


def meter(ctx: HookContext, hook_event: str) -> dict[str, Any] | None:
    """Count the tool call of ``ctx`` (an exploration, or a register that resets the
    count) and read the context size from the transcript's end; past the ask point
    (:func:`ask_point`), once per climb, the ask as ``hook_event``'s
    ``hookSpecificOutput.additionalContext`` (``"PostToolUse"``, or ``"PreToolUse"``
    for a read the guard let through); else None. Subagents' calls are not metered
    (they have their own context)."""
    event = ctx.event
    if ctx.vault is None or event.agent_id:
        return None  # subagents have their own context
    tool, args = event.tool_name, event.tool_input
    size, model = (None, "")
    if event.transcript_path is not None:
        from rubi.app.sessionrecord import context_reading

        size, model = context_reading(event.transcript_path)
    message = None
    with ctx.session_state() as state:
        if is_register(tool, args):
            state.explorations = 0
        elif is_exploration(tool, args):
            state.explorations += 1
        if event.transcript_path is None:
            return None
        if size is None:  # no reading (just compacted): no settings to read for a point
            state.meter_asked = False  # the next climb gets its own reminder
            return None
        at, point = ask_point(ctx, size, state.model or model)
        if state.meter_asked and size < at / 2:
            state.meter_asked = False  # compacted: the next climb gets its own reminder
        elif not state.meter_asked and size >= at:
            state.meter_asked = True
            where = "compacts" if point.auto else "fills its window"
            message = (
                f"Context is at {size:,} tokens; Claude Code {where} at about "
                f"{point.at:,}. Before it does: register the durable knowledge from this "
                "session with the rubi register tool (decisions, bugs, gotchas, with "
                "their files), then save a handoff (rubi handoff tool, action=save) with "
                "the goal, the state and the next steps."
            )
    if message is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": hook_event, "additionalContext": message}}
