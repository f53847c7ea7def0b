"""The client side of the engine (stdlib only, with rubi's stdlib-only hook payload
checks and vault walk; imported by every ``rubi hook`` call and every ``rubi search``
and ``rubi read``).

:func:`try_engine` sends one hook call (its payload decoded once, by the console
script) to the engine of its vault and returns what the hook would print, or None: no
engine, an event engines do not answer, a payload without a usable ``cwd``, an engine
of another rubi or environment, a refusal, no acknowledgement in time, a connection
that breaks before it. None means: run the hook cold. Once the engine has acknowledged
the hook and this side has confirmed (:data:`~rubi.engine.protocol.GO`), the hook is
the engine's: a late or lost answer means the hook prints nothing, never that it runs a
second time, cold. :func:`call_via_engine` asks it for a command's answer (``rubi
search``, ``rubi read``). Nothing here ever starts an engine.
"""

from __future__ import annotations

import os
import stat
import time

from rubi.claude.hooks.payload import working_dir
from rubi.core import jsonline
from rubi.core.vaultwalk import VaultWalk
from rubi.engine.address import address_for
from rubi.engine.protocol import (
    ACK,
    GO,
    MAX_CALL_REPLY_BYTES,
    MAX_REPLY_BYTES,
    MAX_REQUEST_BYTES,
    PROTOCOL,
    LineReader,
    build_id,
    engine_event,
    environment,
    event_key,
)

__all__ = [
    "CALL_ACK_TIMEOUT_S",
    "CALL_REPLY_TIMEOUT_S",
    "CONNECT_TIMEOUT_S",
    "HOOK_ACK_TIMEOUT_S",
    "HOOK_BUDGET_S",
    "REPLY_TIMEOUT_S",
    "SHORT_HOOK_ACK_TIMEOUT_S",
    "call_via_engine",
    "hook_request",
    "try_engine",
]

CONNECT_TIMEOUT_S = 0.25
REPLY_TIMEOUT_S = 4.0
"""How long a hook the engine has acknowledged waits for its answer (seconds from the
request) unless :data:`HOOK_BUDGET_S` names its event; then it prints nothing."""
HOOK_BUDGET_S = {"sessionstart": 29.0, "userpromptsubmit": 9.0, "stop": 9.0}
"""The same for the events Claude Code gives 30 s and 10 s (``hooks/hooks.json``; the
tool hooks and SessionEnd get 5 s): a second less, for this process's start and exit."""
HOOK_ACK_TIMEOUT_S = 1.0
"""How long the recall and SessionStart wait for the engine to acknowledge them
(:data:`ACK`, sent before the hook runs): an engine that accepts connections but does
not work (``rubi watch`` suspended with Ctrl-Z, a host busy starting) costs each such
hook this, not :data:`REPLY_TIMEOUT_S`; about what they cost cold on a busy machine
(0.25-0.65 s of CPU, 0.5-1.1 s wall, docs/benchmarks.md), so a client never waits on
an engine longer than answering cold would take."""
SHORT_HOOK_ACK_TIMEOUT_S = 0.3
"""The same for the other hooks (the tool hooks, Stop, SessionEnd), which cost 45-70 ms
of CPU cold: an engine that does not acknowledge one in this time (busy with another
hook, starting, stopped) leaves it to the cold path at once."""
_SLOW_COLD = frozenset({"userpromptsubmit", "sessionstart"})
"""Events whose cold path searches (:data:`HOOK_ACK_TIMEOUT_S`)."""
CALL_REPLY_TIMEOUT_S = 30.0
"""How long a command waits for the engine's answer (a first search of a large vault
may take seconds)."""
CALL_ACK_TIMEOUT_S = 1.5
"""How long a command waits for the engine to acknowledge it (:data:`ACK`, sent before
the command runs) before running cold: an engine that accepts connections but does
not work (suspended with Ctrl-Z, stuck) costs this, not the whole reply timeout."""


def _off() -> bool:
    return os.environ.get("RUBI_ENGINE", "").strip().lower() in ("0", "off", "no", "false")


def hook_request(vault: str, event: str, raw: str) -> dict[str, object]:
    """The request an engine answers for a hook (:mod:`rubi.engine.protocol`): this
    build and environment, the engine's ``vault`` (its resolved path), the hook's
    ``event`` and its JSON input ``raw`` as read from stdin, unparsed. One builder for
    the client and for tests that speak to an engine, so a field added to the protocol
    reaches both."""
    return {
        "rubi": "hook",
        "protocol": PROTOCOL,
        "build": build_id(),
        "env": environment(),
        "vault": vault,
        "event": event,
        "input": raw,
    }


def _request(
    event: str, raw: str, payload: object
) -> tuple[tuple[str, bytes, float, float] | None, VaultWalk | None]:
    """The engine's socket path, the request line, how long the answer may take
    (seconds, :data:`HOOK_BUDGET_S`) and how long its acknowledgement
    (:data:`HOOK_ACK_TIMEOUT_S`, :data:`SHORT_HOOK_ACK_TIMEOUT_S`), or None (cold);
    and the vault walk taken from the hook's folder (None when none was)."""
    if not isinstance(payload, dict) or not engine_event(event, payload):
        return None, None
    cwd = working_dir(payload.get("cwd"))  # the folder the cold handler walks from
    if cwd is None:
        return None, None  # the cold path would look from its own folder; an engine has another
    walk = VaultWalk.from_folder(cwd)
    if walk.found is None:
        return None, walk
    address = address_for(walk.found)
    if address is None:
        return None, walk
    line = jsonline.dumps(hook_request(address.vault, event, raw)).encode("ascii") + b"\n"
    if len(line) > MAX_REQUEST_BYTES:
        return None, walk
    key = event_key(event, payload)
    budget_s = HOOK_BUDGET_S.get(key, REPLY_TIMEOUT_S)
    ack_s = HOOK_ACK_TIMEOUT_S if key in _SLOW_COLD else SHORT_HOOK_ACK_TIMEOUT_S
    return (address.socket, line, budget_s, ack_s), walk


def try_engine(
    event: str,
    raw: str,
    payload: object,
    *,
    connect_timeout_s: float = CONNECT_TIMEOUT_S,
    reply_timeout_s: float | None = None,
    ack_timeout_s: float | None = None,
) -> tuple[str | None, VaultWalk | None]:
    """What the hook prints (``""`` for nothing), as answered by the engine, or None
    when the hook must run cold: only when the engine did not take it (no engine, a
    refusal, no acknowledgement within ``ack_timeout_s``). A hook the engine took
    prints what it answers within ``reply_timeout_s``, else nothing (``""``). With it,
    the vault walk taken to find the engine (None when none was): a cold run hands it
    to the handler (:func:`rubi.claude.hooks.entry.respond`) instead of walking again.

    Args:
        event: the hook's command-line argument (``""`` when none was given).
        raw: the hook's stdin, as read (sent as it is).
        payload: ``raw`` decoded (any JSON value; the caller decodes it once).
        reply_timeout_s: seconds from the request to the answer (default: the event's
            budget, :data:`HOOK_BUDGET_S`, else :data:`REPLY_TIMEOUT_S`).
        ack_timeout_s: seconds from the request to the acknowledgement (default: about
            the event's cold cost, :data:`HOOK_ACK_TIMEOUT_S` for the recall and
            SessionStart, else :data:`SHORT_HOOK_ACK_TIMEOUT_S`).
    """
    if _off():
        return None, None
    walk: VaultWalk | None = None
    try:
        prepared, walk = _request(event, raw, payload)
        if prepared is None:
            return None, walk
        path, line, budget_s, ack_s = prepared
        if not stat.S_ISSOCK(os.stat(path).st_mode):
            return None, walk
    except (OSError, ValueError):
        return None, walk  # no engine, a stale socket
    wait_s = budget_s if reply_timeout_s is None else reply_timeout_s
    ack_s = ack_s if ack_timeout_s is None else ack_timeout_s
    return _hook_exchange(path, line, connect_timeout_s, ack_s, wait_s), walk


def _output(reply: object) -> str | None:
    """The hook output of a reply line already decoded; None when it is not an answer."""
    if not isinstance(reply, dict) or reply.get("ok") is not True:
        return None
    output = reply.get("output")
    return output if isinstance(output, str) else None


def _hook_exchange(
    path: str, line: bytes, connect_timeout_s: float, ack_timeout_s: float, reply_timeout_s: float
) -> str | None:
    """One hook through the engine at ``path`` (:func:`try_engine`'s output).

    The engine's first line must come within ``ack_timeout_s``: an answer without an
    acknowledgement is taken as it is (a refusal: None, cold); an acknowledgement is
    confirmed with :data:`GO`, after which any failure is ``""`` (the engine runs the
    hook; it must not run here too)."""
    import _socket  # not ``socket``: see _exchange

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        try:
            sock.settimeout(connect_timeout_s)
            sock.connect(path)
            sock.settimeout(reply_timeout_s)
            sock.sendall(line)
            sent = time.monotonic()
            reader = LineReader(sock)
            first = reader.line(MAX_REPLY_BYTES, sent + min(ack_timeout_s, reply_timeout_s))
            if first != ACK.rstrip(b"\n"):
                return _output(jsonline.loads(first))
        except (OSError, ValueError):
            return None  # no engine, no acknowledgement in time, a broken or bad reply
        try:
            sock.sendall(GO)
        except OSError:  # the engine hung up: it runs nothing unconfirmed, unless it
            try:  # had answered already (then that answer stands)
                return _output(jsonline.loads(reader.line(MAX_REPLY_BYTES, sent + reply_timeout_s)))
            except (OSError, ValueError):
                return None
        try:
            answer = _output(jsonline.loads(reader.line(MAX_REPLY_BYTES, sent + reply_timeout_s)))
        except (OSError, ValueError):
            answer = None  # late, lost or malformed: the engine has the hook
        return answer if answer is not None else ""
    finally:
        sock.close()


def _exchange(
    path: str,
    line: bytes,
    connect_timeout_s: float,
    reply_timeout_s: float,
    ack_timeout_s: float | None = None,
    limit: int = MAX_REPLY_BYTES,
) -> dict[str, object] | None:
    """Send ``line`` to the socket at ``path``; the reply when it says ``ok``, within
    ``reply_timeout_s`` of sending, at most ``limit`` bytes. With ``ack_timeout_s``, the
    first line must come within that: an acknowledgement (:data:`ACK`) that the reply
    follows, or the reply itself (a refusal, an engine of the same build from before
    acknowledgements).

    Raises:
        OSError, ValueError: no engine, a timeout, a broken or malformed reply.
    """
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
        sent = time.monotonic()
        reader = LineReader(sock)
        first = min(ack_timeout_s, reply_timeout_s) if ack_timeout_s is not None else None
        got = reader.line(limit, sent + (reply_timeout_s if first is None else first))
        if first is not None and got == ACK.rstrip(b"\n"):
            got = reader.line(limit, sent + reply_timeout_s)
        reply = jsonline.loads(got)
    finally:
        sock.close()
    return reply if isinstance(reply, dict) and reply.get("ok") is True else None


def call_via_engine(
    vault: list[str | None],
    name: str,
    args: dict[str, object],
    *,
    connect_timeout_s: float = CONNECT_TIMEOUT_S,
    reply_timeout_s: float = CALL_REPLY_TIMEOUT_S,
    ack_timeout_s: float = CALL_ACK_TIMEOUT_S,
) -> dict[str, object] | None:
    """The engine's reply to the command ``name`` with ``args``
    (:mod:`rubi.app.commandanswers`) for ``vault`` (its folder and its project's, as
    the command found them: :func:`rubi.core.commandcalls.vault_fields`): ``{"ok":
    true, "answer": ...}`` or ``{"ok": true, "error": ...}``; None when no engine of
    this build and environment serves that vault, it refused, or it did not answer in
    time (the command then answers itself).

    Args:
        ack_timeout_s: how long the engine has to acknowledge the call (seconds).
        reply_timeout_s: how long it has to answer (seconds, from the request).
    """
    if _off():
        return None
    try:
        root = vault[0]
        address = address_for(root) if isinstance(root, str) else None
        if address is None:
            return None
        request = {
            "rubi": "call",
            "protocol": PROTOCOL,
            "build": build_id(),
            "env": environment(),
            "vault": address.vault,
            "paths": vault,
            "name": name,
            "args": args,
        }
        line = jsonline.dumps(request).encode("ascii") + b"\n"
        if len(line) > MAX_REQUEST_BYTES:
            return None
        return _exchange(
            address.socket,
            line,
            connect_timeout_s,
            reply_timeout_s,
            ack_timeout_s,
            MAX_CALL_REPLY_BYTES,
        )
    except (OSError, ValueError):
        return None
