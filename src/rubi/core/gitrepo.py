"""The few git facts rubi needs, from the git CLI: HEAD, and which files changed
after a commit (for stale notes). No git, no repository, a shallow or detached
checkout: the answers degrade to "unknown", never to an error.

Commits come from notes (``commit:`` frontmatter), which arrive by ``git clone``: only
values that are hex object ids (:func:`rubi.core.safepaths.is_commit_id`) reach git, and
always after ``--end-of-options``, so a note can never pass git an option
(``--output=.git/config`` would otherwise write files)."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rubi.core.filestamp import QUIET_AFTER_S, quiet_stamp
from rubi.core.githardening import (
    DRIVER_PROGRAM_KEYS,
    GIT_HARDENING,
    driver_overrides,
    git_environment,
)
from rubi.core.safeio import has_surrogates
from rubi.core.safepaths import is_commit_id

__all__ = [
    "GIT",
    "GIT_TIMEOUT_S",
    "Worktree",
    "changes_since",
    "filter_overrides",
    "git_bytes",
    "git_lines",
    "git_output",
    "head",
    "stalled",
    "user_identity",
    "worktrees",
]

log = logging.getLogger(__name__)

GIT_TIMEOUT_S = 10.0
"""A git call that takes longer is abandoned (a hung credential prompt, a huge repo, a
FIFO where git reads a file); git is then not asked about that tree again in this
process (:func:`stalled`)."""


GIT = ("git", *GIT_HARDENING, "-c", "core.quotePath=false")
"""Every git call: hardened (:data:`~rubi.core.githardening.GIT_HARDENING`), file names
printed as they are (not octal-quoted)."""

_stalled: dict[str, str] = {}
"""Real paths of the trees where a git call timed out in this process, with the
command that did. Never cleared: such a tree is listed and dated without git until the
process ends (a warning says so when it is added; a later process asks git again,
unless a blocker was written down)."""
_stalled_lock = threading.Lock()
_looked_up: dict[str, bool] = {}
"""Folders whose written-down blocker (:func:`rubi.core.gitblock.blocked`) was looked
up in this process, and the answer. Never cleared: a blocker removed while a process
runs is noticed by the next one."""


def stalled(root: Path) -> bool:
    """True when git is not to be asked about ``root``: a git call timed out in it or
    a folder above it in this process, or an earlier process found a FIFO
    ``.gitignore``/``.gitattributes`` in it that is still there
    (:func:`rubi.core.gitblock.blocked`; looked up once per folder and process)."""
    if _stalled and _under_stalled(os.path.realpath(root)):
        return True
    key = os.fspath(root)
    known = _looked_up.get(key)
    if known is not None:
        return known
    real = os.path.realpath(root)
    from rubi.core.gitblock import blocked

    blocker = blocked(real)
    with _stalled_lock:
        _looked_up[key] = blocker is not None
        if blocker is not None and real not in _stalled:
            _stalled[real] = "blocked"
            log.warning(
                "%s: %s is not a regular file, so git would wait on it: rubi lists and "
                "dates this folder's files without git; make it a regular file",
                root,
                blocker,
            )
    return blocker is not None


def _under_stalled(real: str) -> bool:
    with _stalled_lock:
        return any(real == t or real.startswith(t.rstrip(os.sep) + os.sep) for t in _stalled)


def _stall(root: Path, args: tuple[str, ...], timeout_s: float) -> None:
    """Remember that git timed out in ``root``, say so once per tree, and look for the
    file that made git wait, written down for later processes when found
    (:mod:`rubi.core.gitblock`)."""
    real = os.path.realpath(root)
    with _stalled_lock:
        first = real not in _stalled
        _stalled.setdefault(real, args[0] if args else "git")
    if not first:
        return
    from rubi.core.gitblock import find_blocker, remember

    blocker = find_blocker(Path(real))
    if blocker is not None:
        remember(real, blocker)
    log.warning(
        "%s: git %s did not answer within %.0f s; rubi does not ask git about this folder again %s",
        root,
        _command(args),
        timeout_s,
        f"while {blocker} is not a regular file: make it one"
        if blocker is not None
        else "in this run (look for a FIFO or a hung file among .gitignore, "
        ".gitattributes and .git/info/exclude)",
    )


def _command(args: tuple[str, ...]) -> str:
    """The git command of ``args`` (the first word that is not an option before it)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-c":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return "git"


def _run(
    root: Path, args: tuple[str, ...], timeout_s: float, stdin: bytes | None = None
) -> tuple[int, bytes] | None:
    """``git -C root ARGS`` run hardened with ``stdin`` as its input (None: stdin
    closed): its exit code and standard output, or None when git is missing, times out,
    or timed out before in this tree."""
    if stalled(root):
        return None
    try:
        proc = subprocess.run(
            [*GIT, "-C", str(root), *args],
            capture_output=True,
            timeout=timeout_s,
            check=False,
            input=stdin,
            stdin=subprocess.DEVNULL if stdin is None else None,
            env=git_environment(),
        )
    except subprocess.TimeoutExpired:
        _stall(root, args, timeout_s)
        return None
    except (OSError, subprocess.SubprocessError) as exc:
        log.debug("git %s failed: %s", _command(args), exc)
        return None
    if proc.returncode != 0:
        said = proc.stderr[:300].decode("utf-8", "replace").strip()
        log.debug("git %s: exit %d%s", _command(args), proc.returncode, f": {said}" if said else "")
    return proc.returncode, proc.stdout


def git_bytes(
    root: Path, *args: str, timeout_s: float | None = None, stdin: bytes | None = None
) -> bytes | None:
    """The standard output of ``git -C root ARGS`` as bytes (hardened, at most
    ``timeout_s``, default :data:`GIT_TIMEOUT_S`; ``stdin`` written to its input, None:
    stdin closed), or None when git is missing, fails, times out, or timed out before in
    this tree (:func:`stalled`)."""
    done = _run(root, args, GIT_TIMEOUT_S if timeout_s is None else timeout_s, stdin)
    if done is None or done[0] != 0:
        return None
    return done[1]


def git_output(root: Path, *args: str) -> str | None:
    """:func:`git_bytes` as text: UTF-8, a byte that is not UTF-8 (a file name from
    another system) kept as a lone surrogate (``surrogateescape``), so one odd name
    never fails the whole answer; callers skip such names
    (:func:`rubi.core.safeio.has_surrogates`)."""
    out = git_bytes(root, *args)
    return None if out is None else out.decode("utf-8", errors="surrogateescape")


def git_lines(root: Path, *args: str) -> Iterator[str]:
    """The output lines of ``git -C root ARGS`` (newline removed) as git writes them,
    for a caller that stops reading when it knows enough: git is then ended. Names that
    are not UTF-8 are decoded as in :func:`git_output`. Nothing when git is missing or
    the tree :func:`stalled`; git is killed after :data:`GIT_TIMEOUT_S` (and the tree
    then counts as stalled)."""
    if stalled(root):
        return
    try:
        proc = subprocess.Popen(
            [*GIT, "-C", str(root), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            env=git_environment(),
        )
    except OSError as exc:
        log.debug("git %s failed: %s", _command(args), exc)
        return
    timed_out = threading.Event()

    def _kill() -> None:
        timed_out.set()
        proc.kill()

    limit = GIT_TIMEOUT_S
    watchdog = threading.Timer(limit, _kill)
    watchdog.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            yield line.rstrip("\n")
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if timed_out.is_set():
            _stall(root, args, limit)


def filter_overrides(root: Path) -> list[str] | None:
    """``-c`` options that turn off every filter program the repository at ``root``
    defines (:func:`~rubi.core.githardening.driver_overrides`), for a command that may
    hash work-tree files (``status``): [] when it defines none; None when one cannot be
    turned off or git does not answer (then do not run that command)."""
    done = _run(
        root,
        ("config", "-z", "--name-only", "--get-regexp", DRIVER_PROGRAM_KEYS),
        GIT_TIMEOUT_S,
    )
    if done is None or done[0] not in (0, 1):  # 1: no such setting
        return None
    out = done[1] if done[0] == 0 else b""
    names = [n.decode("utf-8", "surrogateescape") for n in out.split(b"\0") if n]
    return driver_overrides(names)


def user_identity(root: Path) -> str:
    """Who is working here, as git knows them: ``user.email`` (else ``user.name``) of
    the repository holding ``root`` and the user's git config; "" when neither is set
    or git is missing."""
    for key in ("user.email", "user.name"):
        out = git_output(root, "config", "--get", key)
        if out and out.strip():
            return out.strip()
    return ""


def head(root: Path) -> str | None:
    """The full SHA of HEAD, or None outside a repository (or without git).

    Asked of git once, then again only when HEAD may have moved: ``HEAD``, the branch
    file it names and ``packed-refs`` are remembered by their stamp
    (:func:`rubi.core.filestamp.quiet_stamp`: git replaces each by a rename, so a move
    gives a new inode). A search's stale flags and dates ask for HEAD; a spawn of git
    from a large long-lived process costs milliseconds."""
    where = str(root)
    dirs = _git_dirs.get(where)
    if dirs is None:  # a process's first question: where HEAD lives too, in the same call
        if where in _outside and not _may_be_inside(root):
            return None
        started = time.monotonic()
        out = git_output(
            root, "rev-parse", "--absolute-git-dir", "--git-common-dir", "--verify", "-q", "HEAD"
        )
        lines = out.splitlines() if out else []
        if len(lines) != 3:
            if not _may_be_inside(root):
                _outside.add(where)
            return None  # no git, no repository, or no commit yet
        dirs = _git_dirs[where] = (Path(lines[0]), (root / lines[1]).resolve())
        first = lines[2].strip()
        if time.monotonic() - started < QUIET_AFTER_S / 2:
            # HEAD's files, quiet now (unchanged for QUIET_AFTER_S), were unchanged
            # since before git started: the answer holds for this stamp
            key = _head_key(*dirs)
            if key is not None:
                _heads[where] = (key, first)
        return first
    key = _head_key(*dirs)  # looked at before git is asked, never after
    known = _heads.get(where)
    if key is not None and known is not None and known[0] == key:
        return known[1]
    out = git_output(root, "rev-parse", "--verify", "-q", "HEAD")
    sha = out.strip() if out else None
    if key is not None:
        _heads[where] = (key, sha)
    return sha


_outside: set[str] = set()
"""Folders git placed in no repository: asked again once one may hold them."""


def _may_be_inside(root: Path) -> bool:
    """Whether ``root`` may be in a git repository: a ``.git`` in it or a folder above,
    as written or as its real path (git looks above the real one: a vault reached
    through a symlink), or git told where to look (``GIT_DIR``, ``GIT_WORK_TREE``). A
    few stats: a vault outside git (most Obsidian vaults) would spawn git for nothing
    on every search."""
    if os.environ.get("GIT_DIR") or os.environ.get("GIT_WORK_TREE"):
        return True
    written = os.path.abspath(root)
    for here in {Path(written), Path(os.path.realpath(written))}:
        if any(os.path.lexists(folder / ".git") for folder in (here, *here.parents)):
            return True
    return False


_REF = re.compile(r"refs/[A-Za-z0-9._/-]+")
_heads: dict[str, tuple[object, str | None]] = {}
"""Each work tree's HEAD commit, with the look of HEAD's files it was read for
(:func:`_head_key`): read again whenever those files change, never trusted when they
cannot vouch for it."""
_git_dirs: dict[str, tuple[Path, Path]] = {}
"""A work tree's git folder and common folder (where HEAD and the refs live), asked of
git once per work tree and process (a work tree does not move its git folder)."""


def _head_key(git_dir: Path, common: Path) -> object | None:
    """What HEAD's files look like now, or None when they cannot vouch for HEAD (a
    reftable store, a file changed within
    :data:`~rubi.core.filestamp.QUIET_AFTER_S`)."""
    try:
        text = (git_dir / "HEAD").read_bytes()[:512]
    except OSError:
        return None
    if (common / "reftable").exists():
        return None  # a reftable store rewrites its tables, not a file per ref
    files = [git_dir / "HEAD", common / "packed-refs"]
    if text.startswith(b"ref: "):
        ref = text[5:].strip().decode("ascii", "replace")
        if not _REF.fullmatch(ref) or ".." in ref:
            return None
        files.append(common / ref)
    stamp = quiet_stamp(files)
    return None if stamp is None else (text, stamp)


def changes_since(root: Path, commits: Iterable[str]) -> dict[str, set[str]] | None:
    """Files changed between each commit and HEAD, in one ``git log`` call.

    Args:
        root: the repository.
        commits: commit SHAs (full or abbreviated) as notes recorded them; values that
            are not hex object ids are ignored (never passed to git).

    Returns:
        ``{commit as given: {repository paths changed after it}}`` for every commit
        that is an ancestor of HEAD and present in this clone; commits git does not
        know (shallow clone, rewritten history) are left out. None without git.
    """
    wanted = sorted({c for c in commits if is_commit_id(c)})
    if not wanted:
        return {}
    # The oldest known commit bounds the history read (one short call for the dates).
    dates = git_output(root, "show", "-s", "--format=%H %ct", "--end-of-options", *wanted)
    if dates is None:
        known = [
            c
            for c in wanted
            if git_output(root, "cat-file", "-e", "--end-of-options", f"{c}^{{commit}}") is not None
        ]
        if not known:
            return {} if head(root) else None
        dates = git_output(root, "show", "-s", "--format=%H %ct", "--end-of-options", *known) or ""
    stamps = [line.split() for line in dates.splitlines() if line.strip()]
    if not stamps:
        return {}
    oldest = min(stamps, key=lambda p: int(p[1]))[0]
    # --first-parent -m: a merge counts with everything it brought in (a branch commit
    # older than the note, merged after it, still changes the note's files).
    out = git_output(
        root,
        "log",
        "--first-parent",
        "-m",
        "--format=%x00%H",
        "--name-only",
        "--no-renames",
        "--end-of-options",
        "HEAD",
        f"^{oldest}^@",
        "--",
    )
    if out is None:
        return None
    changed: set[str] = set()
    result: dict[str, set[str]] = {}
    pending = set(wanted)
    for block in out.split("\x00")[1:]:
        lines = block.strip("\n").split("\n")
        sha, files = lines[0].strip(), [f for f in lines[1:] if f and not has_surrogates(f)]
        for c in list(pending):
            if sha.startswith(c):
                result[c] = set(changed)
                pending.discard(c)
        if not pending:
            break
        changed.update(files)
    for c in pending:  # not on the first-parent line (a side branch): compare trees
        diff = git_output(
            root, "diff", "--name-only", "--no-renames", "--end-of-options", c, "HEAD", "--"
        )
        if diff is not None:
            result[c] = {line for line in diff.splitlines() if line and not has_surrogates(line)}
    return result


@dataclass(frozen=True, slots=True)
class Worktree:
    """One working tree of a repository: its folder (absolute) and its branch
    (``refs/heads/`` removed; "" when detached)."""

    path: Path
    branch: str


def worktrees(root: Path) -> list[Worktree]:
    """Every working tree of the repository holding ``root`` (``git worktree list
    --porcelain -z``, git 2.36 or later), the main one first; [] outside a repository,
    without git, or with a git too old for ``-z``. Records and fields are NUL-separated,
    so a folder name holding a newline (or a planted ``.git/worktrees/*/gitdir``) cannot
    add a line naming another folder. Worktrees whose folder is gone (``prunable``) are
    left out."""
    out = git_output(root, "worktree", "list", "--porcelain", "-z")
    if not out:
        return []
    found: list[Worktree] = []
    fields: dict[str, str] = {}
    for field in out.split("\x00"):
        if field:
            key, _, value = field.partition(" ")
            fields.setdefault(key, value)
            continue
        where = fields.get("worktree")  # an empty field ends a record
        if where and "bare" not in fields and "prunable" not in fields:
            branch = fields.get("branch", "").removeprefix("refs/heads/")
            if Path(where).is_dir():
                found.append(Worktree(Path(where), branch))
        fields = {}
    return found
