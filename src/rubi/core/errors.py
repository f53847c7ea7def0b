"""The errors rubi raises. Surfaces turn them into one clean line for the user."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "IndexCorruptError",
    "NoteNotFoundError",
    "NoteParseError",
    "RubiError",
    "VaultNotFoundError",
    "VaultRefusedError",
    "index_reads",
    "index_unreadable",
    "os_error_line",
]


class RubiError(Exception):
    """Base class: every error a user can cause. ``str(err)`` is a one-line message
    that names the file or argument and says what to do."""


class VaultNotFoundError(RubiError):
    """No vault at the given path, or no ``.rubi/`` above the current folder."""


class VaultRefusedError(VaultNotFoundError):
    """A ``.rubi/`` the walk up from a folder found and did not use (another user's,
    at the filesystem's root, linked out of its project); the message says why and the
    one way to use it (:func:`rubi.core.paths.walked_vault`)."""


class NoteNotFoundError(RubiError):
    """An id or path that names no note in the vault."""


class NoteParseError(RubiError):
    """A note that cannot be read or parsed (binary, bad encoding, broken YAML).

    Attributes:
        path: the vault-relative path of the note.
        reason: what is wrong, in a few words.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class IndexCorruptError(RubiError):
    """The derived index is missing or unreadable; ``rubi index --full`` rebuilds it."""


def index_unreadable(directory: object, exc: Exception) -> IndexCorruptError:
    """The one line for a search index Whoosh cannot read: what failed, and the fix."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return IndexCorruptError(f"{directory}: index unreadable ({what}); run `rubi index --full`")


@contextmanager
def index_reads(directory: object) -> Iterator[None]:
    """Within the block, an error Whoosh raises reading a damaged index (an
    ``EOFError`` click would show as ``Aborted!``, a garbled pickle's) is
    :func:`index_unreadable`'s one line; rubi's own errors and ``OSError`` pass."""
    try:
        yield
    except (RubiError, OSError):
        raise
    except Exception as exc:
        raise index_unreadable(directory, exc) from exc


def os_error_line(exc: OSError) -> str:
    """The one line a command shows for an ``OSError``: ``<file>: <reason>``, or the
    reason alone when no file is named (``Broken pipe``)."""
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror or exc}"
