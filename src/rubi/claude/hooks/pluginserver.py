"""Does the Claude Code plugin that runs this hook start ``rubi serve`` for the session?

Claude Code runs a plugin's hooks with ``CLAUDE_PLUGIN_ROOT`` set to the plugin's
folder, and starts the servers its ``.mcp.json`` declares at the same moment as the
session's SessionStart hook. rubi's plugin declares ``rubi serve``, whose background
watch catches the index up (notes and code map, :func:`rubi.app.catch_up`) at its
first idle spell after its first answers: a SessionStart hook that refreshed the index
as well would scan the same files twice in a session's first seconds, on the same
cores.

Everything here is read from the environment and one small file, so both are
untrusted: a relative or missing folder, an unreadable, oversized or malformed
``.mcp.json`` all mean "no" (the hook then refreshes, as without the plugin).
"""

from __future__ import annotations

import os
from pathlib import Path

from rubi.core.jsonline import loads  # json's values without json's imports

TYPE_CHECKING = False  # typing costs a hook ~2 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_CONFIG_BYTES", "PLUGIN_ROOT_VARIABLE", "plugin_serves"]

PLUGIN_ROOT_VARIABLE = "CLAUDE_PLUGIN_ROOT"
"""Set by Claude Code for a plugin's hook processes (and its MCP servers)."""
MAX_CONFIG_BYTES = 64 * 1024
"""A plugin's ``.mcp.json`` larger than this is not read (rubi's is a few lines)."""


def plugin_serves(environ: dict[str, str] | os._Environ[str] | None = None) -> bool:
    """Whether this hook runs from a Claude Code plugin whose ``.mcp.json`` starts
    ``rubi serve`` over stdio (a server whose ``args`` begin with ``serve``).

    Args:
        environ: the environment to read (default: this process's).

    Returns:
        False when ``CLAUDE_PLUGIN_ROOT`` is unset or not an absolute path, or its
        ``.mcp.json`` is missing, unreadable, over :data:`MAX_CONFIG_BYTES` or names
        no such server.
    """
    root = (os.environ if environ is None else environ).get(PLUGIN_ROOT_VARIABLE, "")
    if not root or "\0" in root or not os.path.isabs(root):
        return False
    try:
        with open(Path(root) / ".mcp.json", "rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return False
    if len(raw) > MAX_CONFIG_BYTES:
        return False
    try:
        config = loads(raw)
    except ValueError:  # not JSON, or not UTF-8
        return False
    servers = config.get("mcpServers") if isinstance(config, dict) else None
    if not isinstance(servers, dict):
        return False
    return any(_serves(server) for server in servers.values())


def _serves(server: Any) -> bool:
    """A stdio server entry whose arguments start ``rubi serve``."""
    if not isinstance(server, dict) or server.get("type", "stdio") != "stdio":
        return False
    args = server.get("args")
    return isinstance(args, list) and args[:1] == ["serve"]
