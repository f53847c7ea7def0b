"""The Claude Code plugin's hooks (``hooks/hooks.json``): the events of every prompt and
tool call go to the plugin's running MCP server (``mcp_tool``), the others run
``rubi hook EVENT`` as a process.

The plugin starts ``rubi serve`` itself (its ``.mcp.json``), so a hook that fires per
prompt or per tool call needs no process of its own: Claude Code calls the server's
unlisted ``hook`` tool (:mod:`rubi.claude.hooks.toolcall`), which answers as ``rubi
hook`` would. SessionStart fires before Claude Code has an MCP client, SessionEnd after
it closed the servers, and PreCompact is rare: those three stay commands. The server
does SessionEnd's work itself when the session's process ends
(:mod:`rubi.engine.sessionend`), so the plugin's SessionEnd command runs only for the
ends after which the server lives on (:data:`PLUGIN_MATCHERS`). Settings written by
``rubi install`` (no plugin, maybe no server) keep commands for every event and every
end (:func:`rubi.claude.install.hook_groups`).
"""

from __future__ import annotations

from typing import Any

from rubi.claude.hooks.toolcall import HOOK_TOOL, PLUGIN_SERVER, TOOL_EVENTS, tool_input
from rubi.claude.install import HOOK_EVENTS, hook_group

__all__ = ["PLUGIN_MATCHERS", "plugin_hook_groups", "tool_hook_group"]

PLUGIN_MATCHERS = {"SessionEnd": "clear|resume"}
"""The plugin's matchers where they differ from :data:`~rubi.claude.install.HOOK_EVENTS`'.
SessionEnd's matcher is its ``reason``: ``/clear`` and ``/resume`` end a session inside a
Claude Code process whose server lives on, so they keep the command; every other end
(``other``, ``logout``, ``prompt_input_exit``...) stops the server, which does the work."""


def tool_hook_group(event: str, matcher: str | None, timeout: int) -> dict[str, Any]:
    """The matcher group of ``event`` through the plugin's server: ``{"matcher"?,
    "hooks": [{"type": "mcp_tool", "server", "tool", "input", "timeout"}]}``.

    Raises:
        KeyError: ``event`` is not one of :data:`~rubi.claude.hooks.toolcall.TOOL_EVENTS`.
    """
    hook = {
        "type": "mcp_tool",
        "server": PLUGIN_SERVER,
        "tool": HOOK_TOOL,
        "input": tool_input(event),
        "timeout": timeout,
    }
    return {"matcher": matcher, "hooks": [hook]} if matcher else {"hooks": [hook]}


def plugin_hook_groups(command: str = "rubi") -> dict[str, dict[str, Any]]:
    """Event → the plugin's matcher group, in :data:`~rubi.claude.install.HOOK_EVENTS`'
    order, with its matchers and timeouts."""
    return {
        event: (
            tool_hook_group(event, matcher, timeout)
            if event in TOOL_EVENTS
            else hook_group(command, event, matcher, timeout)
        )
        for event, (default, timeout) in HOOK_EVENTS.items()
        for matcher in [PLUGIN_MATCHERS.get(event, default)]
    }
