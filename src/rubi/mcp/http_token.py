"""The bearer token of ``rubi serve --http``: where it comes from, where it is kept,
and how a given token is matched.

A token is ``RUBI_HTTP_TOKEN`` when that is set; otherwise the one in
``http-token`` in the user's state folder (:func:`rubi.core.paths.state_home`; on Linux
``~/.local/state/rubi/http-token``), made with :func:`secrets.token_urlsafe` the first
time a server needs one. The file is created mode 0600 in a folder created 0700, and
published whole (a temp file hard-linked into place, so two servers starting at once
agree on one token). It is kept across restarts, so a client configured once keeps
working; ``rubi serve --show-token`` prints it.

The file is read only when it is a regular file of this user (not a symlink, FIFO or
device) that no other user can read or write, holding one token: anything else is one
clear error naming the file and saying what to do (delete it: the next server makes a
new token, and clients need the new one).

This module imports neither the MCP SDK nor pydantic (``--show-token`` stays fast).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.core.paths import ensure_private_dir, state_home

__all__ = [
    "MIN_TOKEN_LENGTH",
    "TOKEN_ENV",
    "TOKEN_FILE_NAME",
    "check_token",
    "default_token_file",
    "resolve_token",
    "token_matches",
]

TOKEN_ENV = "RUBI_HTTP_TOKEN"
"""Environment variable holding the bearer token HTTP clients must send."""
MIN_TOKEN_LENGTH = 16
"""Shortest token accepted (a generated one has 43 characters)."""
TOKEN_FILE_NAME = "http-token"
"""The token file's name in the state folder."""

_TOKEN_CHARS = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
"""RFC 6750 ``b64token``: what may follow ``Bearer `` in an Authorization header."""
_MAX_FILE_BYTES = 4096
_MAKE_TOKEN = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"


def default_token_file() -> Path:
    """``<state folder>/http-token`` (:func:`rubi.core.paths.state_home`)."""
    return state_home() / TOKEN_FILE_NAME


def check_token(token: str, source: str) -> str:
    """``token`` when it can serve as a bearer token, else a one-line error.

    Args:
        token: the candidate, exactly as read (no whitespace is stripped).
        source: how the message names where it came from (``RUBI_HTTP_TOKEN``, a path).

    Raises:
        RubiError: shorter than :data:`MIN_TOKEN_LENGTH`, or holding characters an
            RFC 6750 ``b64token`` cannot (spaces, line breaks, non-ASCII).
    """
    if len(token) < MIN_TOKEN_LENGTH:
        raise RubiError(
            f"{source} is {len(token)} characters long: use at least {MIN_TOKEN_LENGTH} "
            f"random ones ({_MAKE_TOKEN})"
        )
    if not _TOKEN_CHARS.fullmatch(token):
        raise RubiError(
            f"{source} holds characters a bearer token cannot carry: use letters, digits "
            f"and - . _ ~ + / only ({_MAKE_TOKEN})"
        )
    return token


def token_matches(given: str, expected: str) -> bool:
    """Whether ``given`` is exactly ``expected``, in time independent of where they
    differ and of their lengths (both are hashed with SHA-256, then compared with
    :func:`hmac.compare_digest`). A prefix, an extension, a changed case or added
    whitespace never matches; neither does an empty ``given``. Any text compares
    (lone surrogates too)."""
    if not given:
        return False
    a = hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest()
    b = hashlib.sha256(expected.encode("utf-8", "surrogatepass")).digest()
    return hmac.compare_digest(a, b)


def resolve_token(
    environ: Mapping[str, str] | None = None, token_file: Path | None = None
) -> tuple[str, Path | None, bool]:
    """The token a server requires: ``RUBI_HTTP_TOKEN`` when set and not empty, else
    the token file's (made when missing).

    Args:
        environ: where ``RUBI_HTTP_TOKEN`` is read (default :data:`os.environ`).
        token_file: the file (default :func:`default_token_file`).

    Returns:
        ``(token, file, created)``: ``file`` is None for a token from the environment;
        ``created`` tells that the file was made just now.

    Raises:
        RubiError: a bad ``RUBI_HTTP_TOKEN``; a token file that is not this user's
            private regular file holding one token; a state folder that cannot be
            written.
    """
    env = os.environ if environ is None else environ
    raw = env.get(TOKEN_ENV)
    if raw:
        return check_token(raw, TOKEN_ENV), None, False
    path = default_token_file() if token_file is None else token_file
    existing = _read_token_file(path)
    if existing is not None:
        return existing, path, False
    made = _make_token_file(path)
    if made is not None:
        return made, path, True
    existing = _read_token_file(path)  # another server made it meanwhile
    if existing is None:
        raise RubiError(f"{path}: could not be created nor read; delete it and start again")
    return existing, path, False


def _delete_it(path: Path) -> str:
    return (
        f"delete {path} (the next `rubi serve --http` makes a new token; give clients the new one)"
    )


def _read_token_file(path: Path) -> str | None:
    """The token in ``path``; None when there is no file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None  # made next (or the folder cannot be made: that error says so)
    except OSError as exc:
        raise RubiError(f"{path}: cannot be read ({exc.strerror}); {_delete_it(path)}") from exc
    if stat.S_ISLNK(st.st_mode):
        raise RubiError(f"{path} is a symbolic link, not the token file; {_delete_it(path)}")
    if not stat.S_ISREG(st.st_mode):
        raise RubiError(f"{path} is not a regular file; {_delete_it(path)}")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise RubiError(f"{path} belongs to another user (uid {st.st_uid}); {_delete_it(path)}")
    if os.name != "nt" and st.st_mode & 0o077:
        raise RubiError(
            f"{path} is open to other users (mode {stat.S_IMODE(st.st_mode):04o}), so the "
            f"token may be known to them; {_delete_it(path)}"
        )
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise RubiError(f"{path}: cannot be read ({exc.strerror}); {_delete_it(path)}") from exc
    with os.fdopen(fd, "rb") as fh:
        opened = os.fstat(fh.fileno())
        if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino):
            raise RubiError(f"{path} changed while it was read; start again")
        data = fh.read(_MAX_FILE_BYTES + 1)
    if len(data) > _MAX_FILE_BYTES:
        raise RubiError(f"{path} is over {_MAX_FILE_BYTES} bytes, not a token; {_delete_it(path)}")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise RubiError(f"{path} is not a token (not ASCII); {_delete_it(path)}") from exc
    if text.endswith("\n"):  # the one line break rubi writes, or an editor adds
        text = text[:-1]
    try:
        return check_token(text, str(path))
    except RubiError as exc:
        raise RubiError(f"{exc}; or {_delete_it(path)}") from exc


def _make_token_file(path: Path) -> str | None:
    """Create ``path`` (mode 0600) holding a new token; None when the name was taken
    meanwhile (nothing written)."""
    token = secrets.token_urlsafe(32)
    try:
        ensure_private_dir(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError as exc:
        raise RubiError(
            f"{path}: cannot create the token file ({exc.strerror}); make {path.parent} "
            f"writable, or set {TOKEN_ENV}"
        ) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            if os.name != "nt":
                os.fchmod(fh.fileno(), 0o600)  # whatever the umask
            fh.write(f"{token}\n".encode("ascii"))
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)  # whole or not at all, and never over another's file
        except FileExistsError:
            return None
        except OSError as exc:
            raise RubiError(
                f"{path}: cannot create the token file ({exc.strerror}); set {TOKEN_ENV}"
            ) from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return token
