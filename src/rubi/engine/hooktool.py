"""The MCP server's ``hook`` tool: a hook Claude Code sends as a tool call
(``mcp_tool``, :mod:`rubi.claude.hooks.toolcall`) answered as ``rubi hook EVENT``
answers it, in the server's process instead of a new one.

The same way as the console script (:mod:`rubi.entry`): through the engine of the
hook's vault when one takes it (another process's: :func:`rubi.engine.client.try_engine`),
else cold, here, with the same handlers (:func:`rubi.claude.hooks.entry.respond`);
nothing outside a project for the events whose handlers do nothing there. A hook of
the server's own project (:func:`hook_answerer`) is always answered here: the server
is already the warm process an engine would be (its modules stay imported between
calls), and a request to its own engine would only hand the hook to another of its
threads through a socket (or be refused while that engine has not loaded, and come
back). The answer is the text the command hook prints, byte for byte.

A hook answered here reads as a cold process reads
(:func:`rubi.app.searching.searching_once`: the flat graph, the vectors on demand) what
the server has not loaded yet, so the session's first recall costs the server what a
cold ``rubi hook`` process's recall costs, not the load of its resident graph and
every vector; whatever this process loaded before (its engine, its watcher, a search
tool call) is used as it is. A list it has not loaded at all (the dense list before
NumPy: ``ready_only``) is left out, logged, until the warm-up or a search loads it.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable

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

__all__ = ["answer_hook_call", "hook_answerer"]


def hook_answerer(served: str | os.PathLike[str] | None) -> Callable[[Any], str]:
    """:func:`answer_hook_call` for a server of the vault at ``served`` (its ``.rubi``
    folder; None: a server of no project vault): hooks whose ``cwd`` finds that vault
    are answered in this process, never through an engine."""
    local = os.path.realpath(served) if served is not None else None

    def answer(arguments: Any) -> str:
        return answer_hook_call(arguments, local=local)

    return answer


def _walk_of(payload: dict[str, Any]) -> VaultWalk | None:
    cwd = working_dir(payload.get("cwd"))
    if cwd is None:
        return None
    try:
        return VaultWalk.from_folder(cwd)
    except (OSError, ValueError):
        return None


def answer_hook_call(arguments: Any, *, local: str | None = None) -> str:
    """What ``rubi hook EVENT`` prints for the hook a call of the ``hook`` tool carries.

    Args:
        arguments: the tool call's arguments (untrusted; see
            :func:`rubi.claude.hooks.toolcall.payload_of`).
        local: the real path of the vault this process serves: a hook of that vault
            runs here without asking an engine.

    Returns:
        The hook's output (``""`` for none); a handler that fails is logged to the
        vault's hooks log and answers ``""``, as the command hook does.

    Raises:
        ValueError: the arguments are not a hook (one line saying why).
    """
    event, payload = payload_of(arguments)
    walk: VaultWalk | None = None
    if local is not None:
        walk = _walk_of(payload)
    if walk is None or walk.found is None or os.path.realpath(walk.found) != local:
        raw = json.dumps(payload, ensure_ascii=False)
        output, walk = try_engine(event, raw, payload)
        if output is not None:
            return output
    if walk is None and event_key(event, payload) in PROJECT_EVENTS:
        walk = _walk_of(payload)
    if walk is not None and walk.found is None and event_key(event, payload) in PROJECT_EVENTS:
        return ""  # outside a project these handlers answer nothing
    from rubi.app.searching import LEFT_OUT, searching_once

    out = io.StringIO()
    left = dict(LEFT_OUT)
    with searching_once(ready_only=True):
        respond(event, payload, out, walk=walk)
    if left != LEFT_OUT:
        import logging

        lists = ", ".join(name for name in LEFT_OUT if LEFT_OUT[name] != left.get(name))
        logging.getLogger(__name__).info("%s answered without: %s (not loaded yet)", event, lists)
    return out.getvalue()
