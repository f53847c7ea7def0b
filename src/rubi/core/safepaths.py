"""Path values from untrusted places (notes, hook JSON, MCP arguments, a cloned
repository) made safe before a path join or a subprocess.

Every function here is pure string and path work plus ``realpath``: nothing is read or
written. Two rules hold everywhere in rubi:

- a path named by input is taken relative to a root (the project or the vault) and
  refused when it leaves that root (``..``, an absolute path elsewhere, a drive or UNC
  name on Windows, a NUL byte);
- a value passed to ``git`` is validated for its kind (a commit must be a hex object
  id) and passed after ``--end-of-options``, so it can never be read as an option.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path, PurePosixPath, PureWindowsPath

from rubi.core.errors import RubiError

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import TypeGuard


__all__ = [
    "COMMIT_RE",
    "UnsafePathError",
    "is_commit_id",
    "is_inside",
    "link_outside",
    "project_relative",
    "relative_path",
    "require_inside",
    "resolve_inside",
    "safe_child",
]

COMMIT_RE = re.compile(r"^[0-9a-f]{4,64}$")
"""A git object id as notes record it: 4 to 64 lower-case hex digits (SHA-1 or
SHA-256, full or abbreviated). Anything else (``--output=...``) is never given to git."""


class UnsafePathError(RubiError):
    """A path from input leaves the folder it must stay in, or is malformed."""


def is_commit_id(value: object) -> TypeGuard[str]:
    """True when ``value`` is a string that looks like a git object id (:data:`COMMIT_RE`)."""
    return isinstance(value, str) and COMMIT_RE.fullmatch(value) is not None


def is_inside(root: Path, path: Path) -> bool:
    """True when ``path``, with every symlink resolved, is ``root`` or below it.

    Both are resolved with :func:`os.path.realpath`, so a symlink that points out of
    ``root`` counts as outside. ``path`` need not exist.
    """
    return resolve_inside(root, path)[0]


def resolve_inside(root: Path, path: Path) -> tuple[bool, str]:
    """:func:`is_inside`, and the real path of ``path`` (every symlink resolved), so
    that a caller about to open it resolves it once (an ``lstat`` per folder)."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    try:
        return os.path.commonpath([real_root, real]) == real_root, real
    except ValueError:  # different drives on Windows
        return False, real


def require_inside(root: Path, path: Path, *, what: str, where: str = "the project") -> Path:
    """``path`` itself, after checking that it resolves (every symlink followed) inside
    ``root``: a folder rubi is about to write into (``notes/``, ``handoffs/``) that a
    cloned tree made a link to somewhere else is refused, so nothing is written outside.
    ``what`` names the path in the message; one ending in ``/`` is a folder.

    Raises:
        UnsafePathError: ``path`` resolves outside ``root``.
    """
    if not is_inside(root, path):
        kind = "folder" if what.endswith("/") else "file"
        raise UnsafePathError(
            f"{what}: a symlink that leads outside {where} ({os.path.realpath(path)}); "
            f"rubi writes only inside it: replace the link with a {kind} of its own"
        )
    return path


def link_outside(root: Path, path: Path) -> Path | None:
    """The first symlink on the way from ``root`` down to ``path`` (``path`` itself
    included, a dangling link too) that leads outside ``root``; None when there is none.

    ``path`` must be ``root`` or below it, lexically. Only the parts below ``root`` are
    looked at: a ``root`` reached through a link of its own is the user's choice.
    """
    real_root = os.path.realpath(root)
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return path
    here = root
    for part in parts:
        here = here / part
        if not os.path.islink(here):
            continue
        real = os.path.realpath(here)
        try:
            inside = os.path.commonpath([real_root, real]) == real_root
        except ValueError:  # another drive on Windows
            inside = False
        if not inside:
            return here
    return None


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Characters no path rubi accepts may hold: NUL ends a C string, a line break would
split the line a path is written on (a handoff's file list, a log)."""


def _show(value: str) -> str:
    """``value`` as a message shows it: as typed, or quoted when it holds control
    characters or lone surrogates (a message stays one line)."""
    if _CONTROL.search(value) or re.search(r"[\ud800-\udfff]", value):
        return repr(value)
    return value


def _parts(value: str) -> tuple[str, ...] | None:
    """The POSIX parts of a relative path, or None if it is absolute in any dialect."""
    text = value.replace("\\", "/")
    if text.startswith("/") or PureWindowsPath(value).drive or PureWindowsPath(value).root:
        return None
    return PurePosixPath(text).parts


def relative_path(value: str, *, what: str = "path") -> str:
    """Normalise a relative path given by input without looking at any folder.

    ``\\`` separators become ``/``, ``./`` and ``x/..`` are folded, a trailing ``/``
    (a folder) is kept. For checks that have no root at hand; with one, use
    :func:`project_relative`, which also refuses symlinks that lead out.

    Returns:
        The POSIX path, never ``"."``, never starting with ``/`` or ``..``.

    Raises:
        UnsafePathError: empty, absolute (POSIX, drive or UNC), climbs above its
            start with ``..``, or holds a control character.
    """
    raw = value.strip()
    if not raw or _CONTROL.search(raw):
        raise UnsafePathError(f"{what} {_show(value)}: not a usable path; name a file")
    if _parts(raw) is None or raw.startswith("~"):
        raise UnsafePathError(
            f"{what} {_show(value)}: an absolute path; give it relative to the project"
        )
    text = raw.replace("\\", "/")
    folded = posixpath.normpath(text)
    if folded == ".." or folded.startswith("../"):
        raise UnsafePathError(f"{what} {_show(value)}: leaves the project; name a file inside it")
    if folded == ".":
        raise UnsafePathError(f"{what} {_show(value)}: names the project itself; name a file in it")
    return folded + "/" if text.endswith("/") else folded


def _relative_to(root: Path, candidate: Path) -> Path | None:
    """``candidate`` relative to ``root``, lexically; if that fails, with the symlinks of
    ``root`` and of ``candidate``'s folder resolved (a ``cwd`` is a physical path, a
    root found by walking up may not be: ``/tmp`` → ``/private/tmp`` on macOS)."""
    if not candidate.is_absolute():
        return None  # a drive or UNC path read on POSIX (``C:\\x``): never here
    try:
        return candidate.relative_to(root)
    except ValueError:
        pass
    real_root = Path(os.path.realpath(root))
    for other in (candidate, Path(os.path.realpath(candidate.parent)) / candidate.name):
        try:
            return other.relative_to(real_root)
        except ValueError:
            continue
    return None


def project_relative(root: Path, value: str, *, cwd: Path | None = None, what: str = "path") -> str:
    """Normalise a path given by input to a POSIX path relative to ``root``.

    A relative ``value`` is taken from ``cwd`` when given (a CLI argument typed in a
    subfolder), else from ``root`` (a value stored in a note, an MCP argument). An
    absolute one must lie inside ``root``. ``\\`` separators become ``/``, ``.`` and
    ``..`` parts are folded, a trailing ``/`` kept off; the result is the path as
    ``git ls-files`` prints it from ``root``. Symlinks are not resolved in the result
    (it names the path the user typed), but one that leads out of ``root`` is refused.

    Args:
        root: the project (or vault) folder, absolute.
        value: the path as given.
        cwd: the folder a relative path is taken from; None: ``root``.
        what: how the message names the value (``--file``, ``files:`` ...).

    Returns:
        The relative POSIX path (``"."`` for ``root`` itself).

    Raises:
        UnsafePathError: empty, holds a control character (NUL, a line break), or
            leaves ``root`` (``..``, an absolute path elsewhere, a drive or UNC name, a
            symlink that points out).
    """
    raw = value.strip()
    if not raw or _CONTROL.search(raw):
        raise UnsafePathError(f"{what} {_show(value)}: not a usable path; name a file in {root}")
    root = Path(os.path.abspath(root))
    base = Path(os.path.abspath(cwd)) if cwd is not None else root
    expanded = Path(raw).expanduser() if raw.startswith("~") else Path(raw)
    if expanded.is_absolute() or _parts(raw) is None:
        candidate = Path(os.path.normpath(expanded))
    else:
        candidate = Path(os.path.normpath(base / raw.replace("\\", "/")))
    rel = _relative_to(root, candidate)
    if rel is None:
        raise UnsafePathError(
            f"{what} {_show(value)}: outside the project {root}; name a file inside it"
        )
    if not is_inside(root, root / rel):
        raise UnsafePathError(
            f"{what} {_show(value)}: a symlink that leads outside the project {root}; "
            "name the real file"
        )
    text = rel.as_posix()
    return text or "."


def safe_child(root: Path, name: str, *, what: str = "name") -> Path:
    """``root / name`` for a name that came from input (a note id, a module slug, a
    title used as a file name), refused when it would leave ``root``.

    Raises:
        UnsafePathError: ``name`` is empty, absolute, holds ``..`` parts or a control
            character (NUL, a line break), or resolves (through a symlink) outside ``root``.
    """
    parts = _parts(name) if name and not _CONTROL.search(name) else None
    if not parts or any(p in ("..", "") for p in parts):
        raise UnsafePathError(f"{what} {name!r}: not a name inside {root}")
    path = root.joinpath(*parts)
    if not is_inside(root, path):
        raise UnsafePathError(f"{what} {name!r}: leads outside {root}")
    return path
