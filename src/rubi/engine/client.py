"""The hook side of the engine (stdlib only, imported by every ``rubi hook`` call).

:func:`hook_via_engine` sends one hook call to the engine of its vault and returns what
the hook would print, or None: no engine, an event engines do not answer, a payload
without a usable ``cwd``, an engine of another rubi or environment, a refusal, a
timeout, a connection that breaks. None means: run the hook cold. Nothing here ever
starts an engine.
"""

from __future__ import annotations

import json
import os
import stat
import time

from rubi.engine.address import address_for, find_vault_root
from rubi.engine.protocol import (
    MAX_REPLY_BYTES,
    MAX_REQUEST_BYTES,
    PROTOCOL,
    build_id,
    engine_event,
    environment,
    read_line,
)

__all__ = ["CONNECT_TIMEOUT_S", "REPLY_TIMEOUT_S", "hook_via_engine"]

CONNECT_TIMEOUT_S = 0.25
REPLY_TIMEOUT_S = 3.0
"""How long a hook waits for the engine before running cold (Claude Code gives the
tool hooks 5 s, the prompt hook 10 s, in ``hooks/hooks.json``)."""


def _request(event: str, raw: str) -> tuple[str, bytes] | None:
    """The engine's socket path and the request line, or None (cold)."""
    try:
        payload = json.loads(raw) if raw.strip() else None
    except ValueError:
        return None
    if not isinstance(payload, dict) or not engine_event(event, payload):
        return None
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or "\x00" in cwd or not os.path.isabs(cwd):
        return None  # the cold path would look from its own folder; an engine has another
    if not os.path.isdir(cwd):
        return None
    vault = find_vault_root(cwd)
    if vault is None:
        return None
    address = address_for(vault)
    if address is None:
        return None
    request = {
        "rubi": "hook",
        "protocol": PROTOCOL,
        "build": build_id(),
        "env": environment(),
        "vault": address.vault,
        "event": event,
        "input": raw,
    }
    line = json.dumps(request).encode("ascii") + b"\n"
    return (address.socket, line) if len(line) <= MAX_REQUEST_BYTES else None


def hook_via_engine(
    event: str,
    raw: str,
    *,
    connect_timeout_s: float = CONNECT_TIMEOUT_S,
    reply_timeout_s: float = REPLY_TIMEOUT_S,
) -> str | None:
    """What the hook prints (``""`` for nothing), as answered by the engine; None when
    the hook must run cold.

    Args:
        event: the hook's command-line argument (``""`` when none was given).
        raw: the hook's stdin, as read.
    """
    if os.environ.get("RUBI_ENGINE", "").strip().lower() in ("0", "off", "no", "false"):
        return None
    try:
        prepared = _request(event, raw)
        if prepared is None:
            return None
        path, line = prepared
        if not stat.S_ISSOCK(os.stat(path).st_mode):
            return None
        # Only now, and the C module alone: ``socket`` costs a hook ~3 ms of imports
        # (selectors, enums of every constant); ``_socket`` 0.3 ms, with the same calls.
        import _socket

        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            sock.settimeout(connect_timeout_s)
            sock.connect(path)
            sock.settimeout(reply_timeout_s)
            sock.sendall(line)
            reply = json.loads(read_line(sock, MAX_REPLY_BYTES, time.monotonic() + reply_timeout_s))
        finally:
            sock.close()
    except (OSError, ValueError):
        return None  # no engine, a stale socket, a timeout, a broken or bad reply
    if not isinstance(reply, dict) or reply.get("ok") is not True:
        return None
    output = reply.get("output")
    return output if isinstance(output, str) else None
