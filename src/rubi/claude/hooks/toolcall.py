"""A hook that reaches rubi as a call of the plugin's MCP server, not as a process.

Claude Code (2.1.118 on) runs a hook handler of type ``mcp_tool`` by calling a tool
on an MCP server it is already connected to: ``{"type": "mcp_tool", "server":
"plugin:rubi:rubi", "tool": "hook", "input": {...}}``. Each string value of ``input``
has its ``${path}`` parts replaced by that dotted path of the hook's JSON input (an
object becomes its JSON text, a missing value ``""``); there is no path to the whole
input, so :func:`tool_input` names the fields each event's handler reads. The tool's
text is read exactly as a command hook's stdout. Verified with Claude Code 2.1.197
(``docs/engine.md``, "Hooks through the plugin's server"): a plugin's server is named
``plugin:<plugin>:<server>``; the tool need not be in ``tools/list`` (so the model
never sees it, and no permission is asked); SessionStart has no MCP client yet and
SessionEnd comes after the servers are closed, so those two (and PreCompact) stay
command hooks; a server not connected yet skips the hook (fail-open).

:func:`payload_of` turns the tool's arguments back into the hook JSON the command
route reads from stdin, checking them first (untrusted: whatever client started the
server may call the tool with anything): the event one of :data:`TOOL_EVENTS`, every
value a string of bounded size, ``tool_input`` a JSON object. The handlers then check
the path-like values as always (:mod:`rubi.claude.hooks.payload`). Stdlib only.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "HOOK_TOOL",
    "MAX_TEXT_CHARS",
    "MAX_TOOL_INPUT_CHARS",
    "PLUGIN_SERVER",
    "TOOL_EVENTS",
    "payload_of",
    "tool_input",
]

HOOK_TOOL = "hook"
"""The MCP tool an ``mcp_tool`` hook calls; not listed by ``tools/list``."""

PLUGIN_SERVER = "plugin:rubi:rubi"
"""How Claude Code names the plugin's own server (plugin ``rubi``, server ``rubi`` of
its ``.mcp.json``) in an ``mcp_tool`` hook; the bare ``rubi`` is not connected."""

COMMON = ("session_id", "transcript_path", "cwd")
"""Fields every handler reads."""

TOOL_EVENTS: dict[str, tuple[str, ...]] = {
    "UserPromptSubmit": (*COMMON, "prompt"),
    "PreToolUse": (*COMMON, "tool_name", "tool_input", "agent_id"),
    "PostToolUse": (*COMMON, "tool_name", "tool_input", "agent_id"),
    "Stop": (*COMMON, "stop_hook_active", "last_assistant_message"),
}
"""The events the plugin routes through its server, and the hook JSON fields each
one's handler reads (never ``tool_response``: a read's whole text, unused)."""

MAX_TEXT_CHARS = 2_000_000
"""The longest string argument accepted (a prompt with a large paste)."""

MAX_TOOL_INPUT_CHARS = 8_000_000
"""The longest ``tool_input`` JSON text accepted (a Write of a large file; a longer one
is refused and that hook skipped)."""


def tool_input(event: str) -> dict[str, str]:
    """The ``input`` of ``event``'s ``mcp_tool`` hook: the event by name, then each
    field of :data:`TOOL_EVENTS` as a ``${field}`` Claude Code fills in.

    Raises:
        KeyError: ``event`` is not routed through the server.
    """
    return {"event": event, **{name: "${" + name + "}" for name in TOOL_EVENTS[event]}}


def payload_of(arguments: Any) -> tuple[str, dict[str, Any]]:
    """The event and the hook JSON (as a command hook reads it on stdin) of a call of
    :data:`HOOK_TOOL` with ``arguments``.

    Empty strings are left out (Claude Code puts ``""`` for a field the event lacks);
    ``stop_hook_active`` becomes a boolean, ``tool_input`` the object its JSON names.

    Raises:
        ValueError: one line saying which argument is wrong: not an object, an
            unknown event, an argument the event does not take, a value that is not
            a string or is too long, a ``tool_input`` that is not a JSON object.
    """
    if not isinstance(arguments, dict):
        raise ValueError("the arguments are not an object")
    event = arguments.get("event")
    if not isinstance(event, str) or event not in TOOL_EVENTS:
        events = ", ".join(TOOL_EVENTS)
        raise ValueError(f"event: not one of {events}")
    allowed = TOOL_EVENTS[event]
    payload: dict[str, Any] = {"hook_event_name": event}
    for name, value in arguments.items():
        if name == "event":
            continue
        if name not in allowed:
            raise ValueError(f"{name}: not an argument of {event}")
        if not isinstance(value, str):
            raise ValueError(f"{name}: not a string")
        limit = MAX_TOOL_INPUT_CHARS if name == "tool_input" else MAX_TEXT_CHARS
        if len(value) > limit:
            raise ValueError(f"{name}: longer than {limit:,} characters")
        if value:
            payload[name] = _value(name, value)
    return event, payload


def _value(name: str, text: str) -> Any:
    if name == "stop_hook_active":
        if text not in ("true", "false"):
            raise ValueError("stop_hook_active: not true or false")
        return text == "true"
    if name != "tool_input":
        return text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("tool_input: not JSON") from None
    if not isinstance(value, dict):
        raise ValueError("tool_input: not a JSON object")
    return value
