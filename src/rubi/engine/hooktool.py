"""The MCP server's ``hook`` tool: a hook Claude Code sends as a tool call
(``mcp_tool``, :mod:`rubi.claude.hooks.toolcall`) answered as ``rubi hook EVENT``
answers it, in the server's process instead of a new one.

The same way as the console script (:mod:`rubi.entry`): through the engine of the
hook's vault when one takes it (this server's own, once warm, or another process's:
:func:`rubi.engine.client.try_engine`), else cold, here, with the same handlers
(:func:`rubi.claude.hooks.entry.respond`); nothing outside a project for the events
whose handlers do nothing there. The answer is the text the command hook prints, byte
for byte.
"""

from __future__ import annotations

import io
import json

from rubi.claude.hookevents import PROJECT_EVENTS
from rubi.claude.hooks.entry import respond
from rubi.claude.hooks.payload import working_dir
from rubi.claude.hooks.toolcall import payload_of
from rubi.core.vaultwalk import VaultWalk
from rubi.engine.client import try_engine
from rubi.engine.protocol import event_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["answer_hook_call"]


def answer_hook_call(arguments: Any) -> str:
    """What ``rubi hook EVENT`` prints for the hook a call of the ``hook`` tool carries.

    Args:
        arguments: the tool call's arguments (untrusted; see
            :func:`rubi.claude.hooks.toolcall.payload_of`).

    Returns:
        The hook's output (``""`` for none); a handler that fails is logged to the
        vault's hooks log and answers ``""``, as the command hook does.

    Raises:
        ValueError: the arguments are not a hook (one line saying why).
    """
    event, payload = payload_of(arguments)
    raw = json.dumps(payload, ensure_ascii=False)
    output, walk = try_engine(event, raw, payload)
    if output is not None:
        return output
    if walk is None and event_key(event, payload) in PROJECT_EVENTS:
        cwd = working_dir(payload.get("cwd"))
        if cwd is not None:
            try:
                walk = VaultWalk.from_folder(cwd)
            except (OSError, ValueError):
                walk = None
    if walk is not None and walk.found is None and event_key(event, payload) in PROJECT_EVENTS:
        return ""  # outside a project these handlers answer nothing
    out = io.StringIO()
    respond(event, payload, out, walk=walk)
    return out.getvalue()
