"""List a repository's files and read source files defensively.

The listing is ``git ls-files`` (tracked plus untracked-but-not-ignored files); without
git, a walk that honours ``.gitignore`` files. Vendored, generated and tool folders,
lock files and minified bundles are left out by name before anything is read.
"""

from __future__ import annotations

import logging
import os
import stat
import tokenize
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from rubi.core.gitrepo import git_bytes
from rubi.core.model import ScanWarning
from rubi.core.safeio import (
    UnsafeFileError,
    escaped_name,
    file_kind,
    has_control_chars,
    has_surrogates,
    read_bytes,
    refusal,
)
from rubi.core.safepaths import is_inside
from rubi.core.treerules import CODE_SKIP_DIRS, code_path_skipped

__all__ = [
    "GIT_TIMEOUT_S",
    "MAX_FILE_BYTES",
    "MINIFIED_MEAN_LINE_CHARS",
    "SKIP_DIR_NAMES",
    "FileListing",
    "SourceText",
    "check_file",
    "decode_source",
    "list_files",
    "list_under",
    "looks_minified",
    "skipped_by_name",
    "stat_files",
]

logger = logging.getLogger(__name__)

MAX_FILE_BYTES = 4_000_000
"""Larger files are left out with a warning: above the largest hand-written sources in
well-known repositories (TypeScript's ``checker.ts`` is about 3 MB) and below the
generated bundles, fixtures and amalgamations that would only add noise and time."""

MINIFIED_MEAN_LINE_CHARS = 300
"""A JS/CSS file of more than 4 kB whose lines average more than this is minified or
generated; people keep lines under ~120 characters."""

MAX_GITIGNORE_BYTES = 1_000_000
"""A ``.gitignore`` is read up to this size (the largest real ones are a few kB)."""

_NOT_UTF8 = "file name is not UTF-8; skipped: rename it"
_NOT_UTF8_DIR = "folder name is not UTF-8; its files are skipped: rename it"
_CONTROL = "file name holds a line break or control character; skipped: rename it"
"""As for a note (:mod:`rubi.vault.scan`): such a name, printed in the map page the
agent reads or in a list of hits, would start a line of its own."""

GIT_TIMEOUT_S = 10.0
"""``git ls-files`` answers in well under a second even on large repositories; one
that takes this long is stuck (a FIFO among the ``.gitignore`` files), and git is then
not asked about the tree again in this process (:func:`rubi.core.gitrepo.stalled`),
nor in later ones while the FIFO found behind the timeout is there
(:mod:`rubi.core.gitblock`): a hook is a process of its own."""

SKIP_DIR_NAMES = CODE_SKIP_DIRS
"""Folders never mapped (:data:`rubi.core.treerules.CODE_SKIP_DIRS`, the rule the
watcher shares)."""

_LOCK_NAMES = frozenset(
    {"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "go.sum", "bun.lockb"}
)
_MINIFIED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", "-min.js", ".bundle.js")


@dataclass(frozen=True, slots=True)
class FileListing:
    """Files of a repository: sorted repository-relative POSIX paths, whether git listed
    them, and names that could not be used."""

    paths: list[str]
    used_git: bool
    warnings: list[ScanWarning]


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source file decoded for parsing, and what was odd about it (or None)."""

    text: str
    problem: str | None


def skipped_by_name(path: str) -> bool:
    """True for paths in :data:`SKIP_DIR_NAMES` folders, lock files and minified names."""
    if code_path_skipped(path):
        return True
    name = path.rpartition("/")[2].lower()
    return name in _LOCK_NAMES or name.endswith(".lock") or name.endswith(_MINIFIED_SUFFIXES)


def _not_skipped(paths: list[str]) -> set[str]:
    """``paths`` without those :func:`skipped_by_name` rejects, each folder's rule
    asked once (a listing of 7,729 paths: 12.6 → 4.7 ms; most share their folder)."""
    folders: dict[str, bool] = {}
    kept: set[str] = set()
    for path in paths:
        folder = path.replace("\\", "/").rpartition("/")[0]  # as code_path_skipped reads it
        skipped = folders.get(folder)
        if skipped is None:
            skipped = folders[folder] = code_path_skipped(f"{folder}/-")
        if skipped:
            continue
        name = path.rpartition("/")[2].lower()
        if not (name in _LOCK_NAMES or name.endswith(".lock") or name.endswith(_MINIFIED_SUFFIXES)):
            kept.add(path)
    return kept


def list_files(root: Path) -> FileListing:
    """List the files of the repository at ``root``.

    Args:
        root: the repository (or any folder, with or without git).

    Returns:
        Paths relative to ``root``, sorted, without the folders and names that
        :func:`skipped_by_name` rejects. ``used_git`` tells whether git answered.
        Symlinks and paths that no longer exist may still be listed; the caller
        checks each file before reading it.
    """
    warnings: list[ScanWarning] = []
    refused = _unreadable_excludes(root)
    if refused is not None and refused[0] != ".gitignore":  # the walk reports that one
        warnings.append(ScanWarning(*refused))
    raw = _git_ls_files(root) if refused is None else None
    used_git = raw is not None
    if raw is None:
        paths = _walk(root, warnings)
    else:
        paths = []
        for item in raw:
            try:
                paths.append(item.decode("utf-8"))
            except UnicodeDecodeError:
                name = item.decode("utf-8", errors="backslashreplace")
                warnings.append(ScanWarning(name, _NOT_UTF8))
    kept_paths = _not_skipped(paths)
    for path in sorted(p for p in kept_paths if has_control_chars(p)):
        warnings.append(ScanWarning(escaped_name(path), _CONTROL))
    kept = sorted(p for p in kept_paths if not has_control_chars(p))
    return FileListing(kept, used_git, warnings)


LIST_UNDER_MAX = 64
"""Paths :func:`list_under` takes at most (more: list the whole repository)."""


def list_under(root: Path, rels: Collection[str]) -> list[str] | None:
    """What :func:`list_files` lists of the git repository at ``root`` at or under
    each of ``rels`` (repository-relative POSIX paths of files or folders, present or
    gone), sorted: one ``git ls-files`` limited to them (literal paths), the same
    rules (``.gitignore`` files, git's excludes, tracked files that are gone).

    Returns:
        The paths; None when git does not answer, a name is not UTF-8, or there are
        more than :data:`LIST_UNDER_MAX` paths (list the repository instead).
    """
    if not rels:
        return []
    if len(rels) > LIST_UNDER_MAX:
        return None
    raw = _git_ls_files(root, sorted(rels))
    if raw is None:
        return None
    try:
        paths = {item.decode("utf-8") for item in raw}
    except UnicodeDecodeError:
        return None
    return sorted(p for p in paths if not skipped_by_name(p) and not has_control_chars(p))


def _git_ls_files(root: Path, only: Collection[str] = ()) -> list[bytes] | None:
    """``git ls-files`` at ``root`` (limited to the literal paths ``only`` when given),
    or None when git is missing, this is no repository, git stalled in this tree
    before (:func:`rubi.core.gitrepo.stalled`), or a file git would read for its
    excludes is not a regular file (:func:`_unreadable_excludes`: git would wait on a
    FIFO until its timeout)."""
    if _unreadable_excludes(root) is not None:
        return None
    literal = ["--literal-pathspecs"] if only else []
    args = [*literal, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    if only:
        args += ["--", *only]
    out = git_bytes(root, *args, timeout_s=GIT_TIMEOUT_S)
    if out is None:
        return None
    return [p for p in out.split(b"\0") if p]


def _unreadable_excludes(root: Path) -> tuple[str, str] | None:
    """The first file ``git ls-files --exclude-standard`` reads at ``root`` that is
    not a regular file (a FIFO, socket or device: git would block opening it), and
    why; None when all are regular or absent. Looked at: ``.gitignore``,
    ``.git/info/exclude`` and ``core.excludesFile``."""
    found: list[tuple[str, Path]] = [
        (".gitignore", root / ".gitignore"),
        (".git/info/exclude", root / ".git" / "info" / "exclude"),
    ]
    configured = git_bytes(root, "config", "--path", "--get", "core.excludesFile")
    if configured and configured.strip():
        path = Path(os.fsdecode(configured.strip()))
        found.append(("core.excludesFile " + str(path), root / path))
    for label, path in found:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            return label, (
                f"is not a regular file ({file_kind(st.st_mode)}); git would wait on it, so "
                "the files are listed without git: make it a regular file"
            )
    return None


def _walk(root: Path, warnings: list[ScanWarning]) -> list[str]:
    """Every file under ``root`` that no ``.gitignore`` ignores; symlinked folders are
    not entered (no loops, nothing outside). A name that is not UTF-8 (file or folder)
    is reported and skipped; a ``.gitignore`` is read through :mod:`rubi.core.safeio`."""
    # Only here: pathspec (and the typing_extensions and inspect it imports) cost
    # 10-12 ms of CPU that a project under git, listed by git, never needs.
    from rubi.codemap.gitignore import IgnoreRules, parse_gitignore

    rules = IgnoreRules()
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        if ".gitignore" in filenames:
            rules.add(
                parse_gitignore(
                    _gitignore_text(root, prefix + ".gitignore", warnings), prefix.rstrip("/")
                )
            )
        kept: list[str] = []
        for d in sorted(dirnames):
            if has_surrogates(d):
                warnings.append(ScanWarning(escaped_name(prefix + d) + "/", _NOT_UTF8_DIR))
            elif d not in SKIP_DIR_NAMES and not rules.ignored(prefix + d, is_dir=True):
                kept.append(d)
        dirnames[:] = kept
        for name in filenames:
            if has_surrogates(name):
                warnings.append(ScanWarning(escaped_name(prefix + name), _NOT_UTF8))
                continue
            if not rules.ignored(prefix + name, is_dir=False):
                found.append(prefix + name)
    return found


def _gitignore_text(root: Path, rel: str, warnings: list[ScanWarning]) -> str:
    """A ``.gitignore``'s text ("" when it cannot be used, with a warning when refused or
    over :data:`MAX_GITIGNORE_BYTES`)."""
    try:
        got = read_bytes(root, rel, limit=MAX_GITIGNORE_BYTES)
    except UnsafeFileError as exc:
        warnings.append(ScanWarning(rel, exc.reason))
        return ""
    except OSError:
        return ""
    if got.truncated:
        warnings.append(
            ScanWarning(
                rel, f"larger than {MAX_GITIGNORE_BYTES // 1_000_000} MB; only its start is used"
            )
        )
    return got.data.decode("utf-8", errors="replace")


def stat_files(root: Path, paths: Iterable[str]) -> dict[str, os.stat_result]:
    """``{path: lstat}`` of the listed files that exist (a symlink's own stat): taken
    once a run, for the code fingerprint and the map's scan both."""
    base = str(root)
    out: dict[str, os.stat_result] = {}
    for rel in paths:
        try:
            out[rel] = os.lstat(os.path.join(base, rel))  # strings: 10,000 Paths cost 0.1 s
        except OSError:
            continue
    return out


def check_file(
    root: Path, path: str, stats: Mapping[str, os.stat_result] | None = None
) -> tuple[os.stat_result | None, str | None]:
    """Stat a listed file without following symlinks (or take its stat from ``stats``,
    :func:`stat_files` of this run, where a missing path is a file that is gone).

    Returns:
        ``(stat, None)`` for a regular file small enough to map; ``(None, reason)`` for
        one to leave out with a warning (a symlink, a FIFO, device or socket, a file
        over the size limit); ``(None, None)`` for one that is gone or is a folder (a
        submodule, a deleted but tracked path), left out silently.
    """
    if stats is not None:
        found = stats.get(path)
        if found is None:
            return None, None
        st = found
    else:
        try:
            st = os.lstat(os.path.join(root, path))
        except OSError:
            return None, None
    if stat.S_ISLNK(st.st_mode):
        if not is_inside(root, root / path):
            return None, (
                "a symlink that leads outside the project; rubi does not read it: "
                "replace the link with the file itself"
            )
        return None, "is a symbolic link; skipped (its target is mapped if it is in the repository)"
    if stat.S_ISDIR(st.st_mode):
        return None, None
    if not stat.S_ISREG(st.st_mode):
        return None, refusal(root, root / path) or "is not a regular file; skipped"
    if st.st_size > MAX_FILE_BYTES:
        mb = st.st_size / 1_000_000
        return None, f"is {mb:.1f} MB, over the {MAX_FILE_BYTES // 1_000_000} MB limit; skipped"
    return st, None


def looks_minified(data: bytes) -> bool:
    """True for a file of more than 4 kB whose mean line length exceeds
    :data:`MINIFIED_MEAN_LINE_CHARS`."""
    return len(data) > 4096 and len(data) / (data.count(b"\n") + 1) > MINIFIED_MEAN_LINE_CHARS


def decode_source(data: bytes, language: str) -> SourceText:
    """Decode a source file's bytes.

    Python files honour a PEP 263 coding cookie; everything else is UTF-8 (a BOM is
    dropped). Bytes that do not decode become U+FFFD and the problem is reported.

    Args:
        data: the file's bytes (already checked for NUL bytes).
        language: the file's language.

    Returns:
        The text and a problem description, or None when it decoded cleanly.
    """
    encoding = "utf-8-sig"
    if language == "python":
        try:
            encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
        except SyntaxError:
            encoding = "utf-8-sig"
    try:
        return SourceText(data.decode(encoding), None)
    except (UnicodeDecodeError, LookupError) as exc:
        where = f" (byte {exc.start})" if isinstance(exc, UnicodeDecodeError) else ""
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        name = "UTF-8" if encoding.lower().replace("_", "-") in ("utf-8", "utf-8-sig") else encoding
        return SourceText(text, f"is not valid {name}{where}; read with replacement characters")
