"""Where the engine of a vault listens (stdlib only: a hook imports this on every
call; a hook finds its vault with :mod:`rubi.core.vaultwalk`).

One engine per vault (a project's or a plain vault's): ``<runtime>/<key>.sock`` with
``<key>.lock`` beside it, where ``<runtime>`` is ``$XDG_RUNTIME_DIR/rubi`` (else
``$TMPDIR/rubi-<uid>``, else ``/tmp/rubi-<uid>``), a folder owned by the user with mode
0700, and ``<key>`` the first 16 hex digits of the SHA-256 of the vault's resolved path.
A folder that is not the user's own, or that others may enter, is never used: then
there is no engine and hooks take the cold path. Windows (no Unix sockets to rely on) has no engine.
"""

from __future__ import annotations

import os
import stat

from rubi.core.vaultwalk import VAULT_DIRNAME

__all__ = [
    "MAX_SOCKET_PATH",
    "VAULT_DIRNAME",
    "Address",
    "address_for",
    "runtime_dir",
    "supported",
]

MAX_SOCKET_PATH = 100
"""Unix socket paths are limited to 104–108 bytes; a longer one means no engine."""


class Address:
    """The socket and lock file of one vault's engine (absolute paths as ``str``)."""

    __slots__ = ("lock", "socket", "vault")

    def __init__(self, vault: str, folder: str) -> None:
        key = _sha256(os.fsencode(vault))[:16]
        self.vault = vault
        self.socket = os.path.join(folder, f"{key}.sock")
        self.lock = os.path.join(folder, f"{key}.lock")

    def __repr__(self) -> str:
        return f"Address(vault={self.vault!r}, socket={self.socket!r})"


def _sha256(data: bytes) -> str:
    """The SHA-256 hex digest of ``data``: the interpreter's built-in ``_sha256`` where
    it is there (0.3 ms to import; ``hashlib`` loads OpenSSL, 2–3 ms a hook), else
    ``hashlib``. The same digest either way."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:  # a build without it
        from hashlib import sha256
    digest: str = sha256(data).hexdigest()
    return digest


def supported() -> bool:
    """Unix sockets, ``flock`` and user ids are there (POSIX, not Windows)."""
    return os.name == "posix" and hasattr(os, "getuid")


def _private(folder: str) -> bool:
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def runtime_dir(*, create: bool = False) -> str | None:
    """The user's private rubi runtime folder, or None when there is none to trust.

    ``create`` makes it (mode 0700) when missing; an existing folder is used only when
    it is a real folder (not a link), owned by the user, closed to group and others.
    """
    if not supported():
        return None
    base = os.environ.get("XDG_RUNTIME_DIR", "")
    if base and os.path.isabs(base) and os.path.isdir(base):
        folder = os.path.join(base, "rubi")
    else:
        tmp = os.environ.get("TMPDIR", "")
        tmp = tmp if tmp and os.path.isabs(tmp) and os.path.isdir(tmp) else "/tmp"
        folder = os.path.join(tmp, f"rubi-{os.getuid()}")
    if create:
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    return folder if _private(folder) else None


def address_for(vault_root: str, *, create: bool = False) -> Address | None:
    """The :class:`Address` of the engine for the vault at ``vault_root`` (resolved
    here), or None when there is no usable runtime folder or the path is too long."""
    folder = runtime_dir(create=create)
    if folder is None:
        return None
    address = Address(os.path.realpath(vault_root), folder)
    return address if len(os.fsencode(address.socket)) <= MAX_SOCKET_PATH else None
