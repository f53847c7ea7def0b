"""Files in a tree that make git wait, remembered across processes.

Git opens every ``.gitignore`` and ``.gitattributes`` it meets while it walks a work
tree (``git status``, ``git ls-files --others``). One that is a FIFO, as an archive can
carry, makes git block on ``open`` until rubi's timeout
(:data:`rubi.core.gitrepo.GIT_TIMEOUT_S`). Within a process :mod:`rubi.core.gitrepo`
then stops asking git about the tree; but each hook is a process of its own, so every
prompt would pay the timeout again.

So after a timeout the tree is searched for such a file (:func:`find_blocker`), and
when one is found it is written down in the user's cache (:func:`remember`): a later
process asks :func:`blocked`, which checks that the file named there is still not a
regular file (one ``lstat``) and, if so, leaves git out from the start. A timeout with
no such file (a loaded machine, a huge repository) is remembered by nobody: the next
process asks git again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path, PurePosixPath

__all__ = ["BLOCKING_NAMES", "MAX_WALK_ENTRIES", "blocked", "find_blocker", "remember"]

log = logging.getLogger(__name__)

BLOCKING_NAMES = frozenset({".gitignore", ".gitattributes"})
"""The per-folder files git opens while it walks a work tree."""

MAX_WALK_ENTRIES = 200_000
"""Folder entries :func:`find_blocker` looks at before it gives up (a tree that large
is listed in well under a second by ``os.scandir``)."""

_SKIP_DIRS = frozenset({".git"})
"""Folders git never walks for ignore files."""

_MARKER_DIR = "git-blocked"
"""The folder of markers in the user's cache."""


def _marker(real_root: str) -> Path:
    from rubi.core.digest import sha256_hex
    from rubi.core.paths import cache_home

    key = sha256_hex(os.fsencode(real_root))[:32]  # no OpenSSL: the same digest
    return cache_home() / _MARKER_DIR / key


def _not_regular(path: str) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def find_blocker(root: Path, *, max_entries: int = MAX_WALK_ENTRIES) -> str | None:
    """The first ``.gitignore`` or ``.gitattributes`` below ``root`` that is a FIFO,
    socket or device, as a ``/``-separated path relative to ``root``; None when there
    is none among the first ``max_entries`` entries. Symlinks are not followed."""
    seen = 0
    stack = [os.fspath(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > max_entries:
                return None
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIP_DIRS:
                        stack.append(entry.path)
                elif entry.name in BLOCKING_NAMES and _not_regular(entry.path):
                    return PurePosixPath(*Path(os.path.relpath(entry.path, root)).parts).as_posix()
            except OSError:
                continue
    return None


def remember(real_root: str, blocker: str) -> None:
    """Write down, for later processes, that ``blocker`` (relative to the tree at
    ``real_root``) makes git wait. Never raises: a cache that cannot be written only
    means the next process finds it again."""
    from rubi.core.atomic import atomic_write_text
    from rubi.core.paths import ensure_private_dir

    try:
        marker = _marker(real_root)
        ensure_private_dir(marker.parent)
        atomic_write_text(marker, f"{blocker}\n{real_root}\n")
    except OSError as exc:
        log.debug("cannot remember the git blocker of %s: %s", real_root, exc)


def blocked(real_root: str) -> str | None:
    """The file written down by :func:`remember` for the tree at ``real_root`` while it
    is still not a regular file; None otherwise (a marker whose file was mended is
    removed)."""
    marker = _marker(real_root)
    try:
        text = marker.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.splitlines()
    rel = PurePosixPath(lines[0]) if lines else None
    if (
        rel is None
        or len(lines) < 2
        or lines[1] != real_root
        or rel.is_absolute()
        or ".." in rel.parts
        or rel.name not in BLOCKING_NAMES
    ):
        _forget(marker)
        return None
    if _not_regular(os.path.join(real_root, *rel.parts)):
        return rel.as_posix()
    _forget(marker)
    return None


def _forget(marker: Path) -> None:
    with contextlib.suppress(OSError):
        marker.unlink()
