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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rubi.core.filestamp import quiet_stamp
from rubi.core.safepaths import GIT_HARDENING, is_commit_id

__all__ = [
    "GIT",
    "GIT_TIMEOUT_S",
    "Worktree",
    "changes_since",
    "git_lines",
    "git_output",
    "head",
    "user_identity",
    "worktrees",
]

log = logging.getLogger(__name__)

GIT_TIMEOUT_S = 10.0
"""A git call that takes longer is abandoned (a hung credential prompt, a huge repo)."""


GIT = ("git", *GIT_HARDENING, "-c", "core.quotePath=false")
"""Every git call: hardened (:data:`~rubi.core.safepaths.GIT_HARDENING`), file names
printed as they are (not octal-quoted)."""


def git_output(root: Path, *args: str) -> str | None:
    """The standard output of ``git -C root ARGS`` (stdin closed, at most
    :data:`GIT_TIMEOUT_S`), or None when git is missing, fails or times out."""
    try:
        proc = subprocess.run(
            [*GIT, "-C", str(root), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        log.debug("git %s failed: %s", args[0], exc)
        return None
    if proc.returncode != 0:
        log.debug("git %s: %s", args[0], proc.stderr.strip())
        return None
    return proc.stdout


def git_lines(root: Path, *args: str) -> Iterator[str]:
    """The output lines of ``git -C root ARGS`` (newline removed) as git writes them,
    for a caller that stops reading when it knows enough: git is then ended. Nothing
    when git is missing; git is killed after :data:`GIT_TIMEOUT_S`."""
    try:
        proc = subprocess.Popen(
            [*GIT, "-C", str(root), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
        )
    except OSError as exc:
        log.debug("git %s failed: %s", args[0], exc)
        return
    watchdog = threading.Timer(GIT_TIMEOUT_S, proc.kill)
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
        out = git_output(
            root, "rev-parse", "--absolute-git-dir", "--git-common-dir", "--verify", "-q", "HEAD"
        )
        lines = out.splitlines() if out else []
        if len(lines) != 3:
            if not _may_be_inside(root):
                _outside.add(where)
            return None  # no git, no repository, or no commit yet
        _git_dirs[where] = (Path(lines[0]), (root / lines[1]).resolve())
        return lines[2].strip()  # not remembered: HEAD's files may have moved since
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
_git_dirs: dict[str, tuple[Path, Path]] = {}
"""A work tree's git folder and common folder (where HEAD and the refs live)."""


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
        sha, files = lines[0].strip(), [f for f in lines[1:] if f]
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
            result[c] = {line for line in diff.splitlines() if line}
    return result


@dataclass(frozen=True, slots=True)
class Worktree:
    """One working tree of a repository: its folder (absolute) and its branch
    (``refs/heads/`` removed; "" when detached)."""

    path: Path
    branch: str


def worktrees(root: Path) -> list[Worktree]:
    """Every working tree of the repository holding ``root`` (``git worktree list``),
    the main one first; [] outside a repository or without git. Worktrees whose folder
    is gone (``prunable``) are left out."""
    out = git_output(root, "worktree", "list", "--porcelain")
    if not out:
        return []
    found: list[Worktree] = []
    for block in out.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, _, value = line.partition(" ")
            if key:
                fields[key] = value
        where = fields.get("worktree")
        if not where or "bare" in fields or "prunable" in fields:
            continue
        branch = fields.get("branch", "").removeprefix("refs/heads/")
        path = Path(where)
        if path.is_dir():
            found.append(Worktree(path, branch))
    return found
