"""The wire between a hook and the engine: one JSON line each way (stdlib only).

Request (at most :data:`MAX_REQUEST_BYTES`, newline included)::

    {"rubi": "hook", "protocol": 2, "build": BUILD, "env": {NAME: VALUE|null},
     "vault": "/abs/project/.rubi", "event": "UserPromptSubmit", "input": "<hook JSON>"}

``input`` is the hook's stdin as read; ``event`` its command-line argument (may be
``""``: then the payload's ``hook_event_name`` names it, as in the cold path).
``{"rubi": "ping", "protocol": 2}`` asks whether an engine answers (``{"ok": true,
"vault": ..., "pid": ..., "ready": BOOL}``; ``ready``: it has loaded everything a
request may need, ``rubi.engine.warmup``).

A command's answer (``rubi search`` and ``rubi read``: :mod:`rubi.app.commandanswers`)::

    {"rubi": "call", "protocol": 2, "build": BUILD, "env": {NAME: VALUE|null},
     "vault": "/abs/project/.rubi", "paths": [VAULT_ROOT, PROJECT_ROOT|null],
     "name": "search", "args": {...}}

``paths``: the vault as the command found it, which must be the engine's own. Answered
``{"ok": true, "answer": {"json": VALUE}|{"text": TEXT}}``, or ``{"ok": true, "error":
{"kind": "error"|"usage", "message": TEXT}}`` for an error the command shows as one
line; the command prints either as it would have printed its own (at most
:data:`MAX_CALL_REPLY_BYTES`).

A hook's reply (at most :data:`MAX_REPLY_BYTES`): ``{"ok": true, "output": "<stdout text>"}``,
or ``{"ok": false, "error": "<one line>"}``, after which the hook runs cold.

Before it answers a command, the engine sends :data:`ACK` (``{"ok": true, "accepted":
true}``) as soon as it has read and checked the request, then the reply: a client that
sees no acknowledgement quickly (an engine suspended with Ctrl-Z still accepts
connections) runs cold instead of waiting out the whole reply timeout. A refusal comes
without one.

A hook is never run twice (once by the engine, once cold by a client that gave up
waiting), so it takes one more step: the engine sends :data:`ACK` once the request is
checked and the engine's hook slot is its own, and runs the hook only when the client
answers :data:`GO`. A client that has sent :data:`GO` never runs the hook cold: it
waits for the reply within the hook's budget and otherwise prints nothing. A client
that saw no :data:`ACK` in time closes the connection and runs cold; the engine, which
then reads no :data:`GO`, runs nothing.

An engine answers only a request that would be answered exactly as it answers it: same
rubi (:func:`build_id`), same environment for the variables rubi reads
(:data:`ENV_KEYS`), same vault, a hook event in :data:`ENGINE_EVENTS`.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ACK",
    "ENGINE_EVENTS",
    "ENV_KEYS",
    "GO",
    "MAX_CALL_REPLY_BYTES",
    "MAX_REPLY_BYTES",
    "MAX_REQUEST_BYTES",
    "PROTOCOL",
    "LineReader",
    "LineTooLong",
    "build_id",
    "engine_event",
    "environment",
    "event_key",
    "read_line",
]

PROTOCOL = 2
MAX_REQUEST_BYTES = 8 * 1024 * 1024
"""A hook's JSON larger than this (a PostToolUse carrying a huge tool result) runs cold."""
MAX_REPLY_BYTES = 1024 * 1024
"""Hook output is at most a few kB (Claude Code cuts ``additionalContext`` at 10,000
characters); a longer reply is not an engine's."""
MAX_CALL_REPLY_BYTES = 64 * 1024 * 1024
"""A command's answer: a search within its budget, or a note read whole (as long as the
note is, each character up to 12 bytes of ASCII JSON); over this, the command answers
itself."""
ENGINE_EVENTS = frozenset(
    {"sessionstart", "userpromptsubmit", "pretooluse", "posttooluse", "stop", "sessionend"}
)
"""Events an engine answers (:func:`rubi.claude.hooks.event.event_key` form). SessionStart
through an engine skips bringing the index up to date when the engine's host watches
the vault (its watcher applies every change: ``rubi.app.sessionstart.refresh_index``), so
it costs what reading the map costs; cold it indexes first. PreCompact (reads a
transcript, edits notes) runs once in a while and always runs cold."""
ENV_KEYS = (
    "HOME",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "RUBI_VAULT",
    "RUBI_CONTEXT_WINDOW",
    "CLAUDE_CONFIG_DIR",
    "TZ",
    # where Claude Code compacts (rubi.claude.hooks.compaction.ENV_READ)
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
    "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    "DISABLE_AUTO_COMPACT",
    "DISABLE_COMPACT",
    "ANTHROPIC_MODEL",
    "RUBI_SEMANTIC",  # the dense channel on or off changes recall's ranking
)
"""Environment variables that change what a hook does (where derived data and the
user config live, the personal vault, the meter's window, Claude Code's folder and
compaction settings, the time zone of captured turns): they must match between a hook
and the engine."""


ACK = b'{"ok": true, "accepted": true}\n'
"""The line an engine sends when it starts running a command, or is ready to run a
hook, for a client."""
GO = b'{"go": true}\n'
"""The line a hook's client sends back on :data:`ACK`: from then on the hook is the
engine's alone to run."""


class LineTooLong(ValueError):
    """A peer sent more than the limit before a newline."""


def build_id() -> str:
    """Which rubi is running: its version and the folder it was imported from."""
    import rubi

    return f"{rubi.__version__} {os.path.dirname(os.path.abspath(rubi.__file__))}"


def environment() -> dict[str, str | None]:
    """The values of :data:`ENV_KEYS` here (None when unset)."""
    return {key: os.environ.get(key) for key in ENV_KEYS}


def _key(name: str) -> str:
    return name.replace("-", "").replace("_", "").lower()


def event_key(argv_event: str, payload: Any) -> str:
    """The event this hook call handles, in :data:`ENGINE_EVENTS` form: its argument,
    else the payload's ``hook_event_name``, as the cold path picks it."""
    name = argv_event
    if not name and isinstance(payload, dict):
        value = payload.get("hook_event_name")
        name = value if isinstance(value, str) else ""
    return _key(name)


def engine_event(argv_event: str, payload: Any) -> bool:
    """The event this hook call handles (:func:`event_key`) is one an engine answers."""
    return event_key(argv_event, payload) in ENGINE_EVENTS


class LineReader:
    """The lines a peer sends on one connection, in turn: what came after a newline is
    kept for the next :meth:`line` (an engine's acknowledgement and its answer may
    arrive in one read)."""

    __slots__ = ("_buf", "_sock")

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._buf = bytearray()

    def line(self, limit: int, deadline: float) -> bytes:
        """Bytes up to and without the next newline.

        Args:
            limit: the most bytes accepted, newline included.
            deadline: ``time.monotonic()`` by which the line must be complete.

        Raises:
            LineTooLong: ``limit`` bytes came without a newline.
            TimeoutError: the deadline passed.
            ConnectionError: the peer closed before a newline.
        """
        buf = self._buf
        scanned = 0
        while True:
            end = buf.find(b"\n", scanned)
            if end >= 0:
                if end + 1 > limit:
                    raise LineTooLong(f"a line over {limit:,} bytes")
                line = bytes(buf[:end])
                del buf[: end + 1]
                return line
            if len(buf) >= limit:
                raise LineTooLong(f"a line over {limit:,} bytes")
            scanned = len(buf)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no complete line in time")
            self._sock.settimeout(left)
            chunk = self._sock.recv(min(1 << 16, limit + 1 - len(buf)))
            if not chunk:
                raise ConnectionError("closed before a complete line")
            buf += chunk


def read_line(sock: Any, limit: int, deadline: float) -> bytes:
    """Bytes from ``sock`` up to and without the first newline (what follows it is
    dropped; :class:`LineReader` keeps it).

    Args:
        sock: a connected ``socket.socket``.
        limit: the most bytes accepted, newline included.
        deadline: ``time.monotonic()`` by which the line must be complete.

    Raises:
        LineTooLong: ``limit`` bytes came without a newline.
        TimeoutError: the deadline passed.
        ConnectionError: the peer closed before a newline.
    """
    return LineReader(sock).line(limit, deadline)
