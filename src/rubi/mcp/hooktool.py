"""The ``hook`` tool: Claude Code's ``mcp_tool`` hooks, answered by the running server.

A hook handler of type ``mcp_tool`` calls a tool of a connected server and reads the
tool's text as a command hook's stdout (``docs/engine.md``, "Hooks through the
plugin's server"). The server answers :data:`HOOK_TOOL` with a :data:`HookAnswerer` given by
whoever starts it (``rubi serve``: :func:`rubi.engine.hooktool.hook_answerer`, the
handlers ``rubi hook`` runs): in the greeting before the MCP SDK is loaded
(:mod:`rubi.mcp.early`) and after (:class:`rubi.mcp.stdio.RubiMCPServer`), never
waiting for the warm-up (the answerer runs a hook of the server's own project in the
server's process, with the handlers a cold command hook runs).

The tool is not in ``tools/list``: the model never sees it (its description would
cost tokens on every request) and so never calls it; Claude Code calls it by name.
Only the stdlib is imported here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HOOK_TOOL", "HookAnswerer", "hook_result"]

log = logging.getLogger(__name__)

HOOK_TOOL = "hook"
"""The tool's name (:data:`rubi.claude.hooks.toolcall.HOOK_TOOL`, which the plugin's
hooks call)."""

HookAnswerer = Callable[["dict[str, Any]"], str]
"""The tool call's arguments → the hook's output text (``""`` for none).
Raises ``ValueError`` with one line for arguments that are not a hook."""


def hook_result(answer: HookAnswerer, arguments: dict[str, Any]) -> dict[str, Any]:
    """The ``CallToolResult`` (as on the wire) of a call of :data:`HOOK_TOOL`: the
    hook's output as one text block; bad arguments, or an answerer that fails, an
    error result with one line (Claude Code then skips the hook: fail-open)."""
    try:
        text = answer(arguments)
    except ValueError as exc:
        return _error(f"Error executing tool {HOOK_TOOL}: {str(exc)[:300]}")
    except Exception:
        log.exception("the hook tool failed")
        return _error(f"Error executing tool {HOOK_TOOL}")
    return {"content": [{"type": "text", "text": text}], "isError": False}


def _error(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}
