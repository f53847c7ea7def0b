"""The engine's socket chores (stdlib only): who is at the other end of a connection,
whether anything listens on a socket file, a reply line sent so that closing never
resets it, and the vault's lock (an exclusive ``flock``) that makes one process per
vault the engine (:mod:`rubi.engine.server`)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import struct
import sys
import time
from typing import Any

from rubi.engine.protocol import MAX_REQUEST_BYTES

__all__ = ["answers", "peer_is_user", "reply", "try_lock"]

READ_TIMEOUT_S = 5.0
"""A client must send its whole request within this (and read the reply within it)."""
DRAIN_S = 1.0
"""After a reply, the peer's unread bytes are read and dropped for at most this long."""


def peer_is_user(conn: socket.socket) -> bool:
    """The peer runs as this user (Linux ``SO_PEERCRED``; elsewhere the 0700 runtime
    folder is the check)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None or not sys.platform.startswith("linux"):
        return True
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("iII"))
    except OSError:
        return False
    _pid, uid, _gid = struct.unpack("iII", creds)
    return bool(uid == os.getuid())


def answers(path: str) -> bool:
    """Something listens on the socket at ``path``: only a refused connection (nobody
    bound to it) or a file that is gone counts as no; a full backlog counts as yes."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        try:
            probe.connect(path)
        except (ConnectionRefusedError, FileNotFoundError):
            return False
        except OSError:
            return True
    return True


def reply(conn: socket.socket, reply: dict[str, Any], *, drain: bool = True) -> None:
    """Send the reply line (a value JSON has no form for, in a command's answer, as its
    ``str``, as the command prints it); with ``drain``, read what the peer still sends
    (for a while) so that closing never resets the connection before the peer has read
    the line."""
    with contextlib.suppress(OSError):
        conn.settimeout(READ_TIMEOUT_S)
        conn.sendall(json.dumps(reply, default=str).encode("ascii") + b"\n")
        if not drain:
            return
        conn.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + DRAIN_S
        drained = 0
        while drained < MAX_REQUEST_BYTES and time.monotonic() < deadline:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = conn.recv(1 << 16)
            if not chunk:
                break
            drained += len(chunk)


def try_lock(path: str) -> int | None:
    """An fd holding an exclusive ``flock`` on ``path``, or None when another holds it."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd
