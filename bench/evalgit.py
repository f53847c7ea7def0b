"""A commit of an untrusted repository checked out in a temporary worktree.

``git worktree add --detach`` runs with rubi's git hardening (no hooks, no fsmonitor,
no pager, no network: :mod:`rubi.core.githardening`) and with every filter driver the
repository's config names turned off (a checkout runs ``smudge`` and ``process``
filters), so nothing a downloaded repository carries runs. The worktree is removed
(and pruned) when the block ends, whatever happens in it.

A partial copy of a repository (a snapshot that left out its largest files, a partial
clone) lacks some blobs, and ``git worktree add`` refuses such a commit outright. The
checkout therefore builds the index from the commit's trees (which are always there),
drops the entries whose blob is absent, and writes the rest: the worktree holds every
file the repository can give, the absent ones are named on stderr in one line, and
``git ls-files`` does not list them.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rubi.core.githardening import (
    DRIVER_PROGRAM_KEYS,
    GIT_HARDENING,
    driver_overrides,
    git_environment,
)

__all__ = ["GitError", "checkout"]

CHECKOUT_TIMEOUT_S = 600.0
_HEX40 = re.compile(r"[0-9a-f]{40}")


class GitError(RuntimeError):
    """git could not check the commit out; the message says which and why."""


def _location(repo: Path) -> list[str]:
    """``--git-dir`` for a bare repository (named explicitly, as the hardening asks),
    ``-C`` for a work tree."""
    if not (repo / ".git").exists() and (repo / "HEAD").is_file() and (repo / "objects").is_dir():
        return ["--git-dir", str(repo)]
    return ["-C", str(repo)]


def _git(repo: Path, *args: str, extra: list[str] | None = None, stdin: str | None = None) -> str:
    cmd = ["git", *GIT_HARDENING, *(extra or []), *_location(repo), *args]
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            errors="surrogateescape",
            env=git_environment(),
            timeout=CHECKOUT_TIMEOUT_S,
            input=stdin,
            stdin=subprocess.DEVNULL if stdin is None else None,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitError(f"{repo}: git {args[0]} did not finish ({exc})") from exc
    if done.returncode != 0:
        raise GitError(f"{repo}: git {' '.join(args[:2])} failed: {done.stderr.strip()[:300]}")
    return done.stdout


def _filters_off(repo: Path) -> list[str]:
    options = driver_overrides(_git_config_names(repo))
    if options is None:
        raise GitError(f"{repo}: a filter driver cannot be turned off; remove it from its config")
    return options


def _git_config_names(repo: Path) -> list[str]:
    cmd = ["git", *GIT_HARDENING, *_location(repo), "config", "-z", "--name-only"]
    done = subprocess.run(
        [*cmd, "--get-regexp", DRIVER_PROGRAM_KEYS],
        capture_output=True,
        env=git_environment(),
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise GitError(f"{repo}: git config failed: {done.stderr.decode(errors='replace')[:300]}")
    return [n.decode("utf-8", "surrogateescape") for n in done.stdout.split(b"\0") if n]


def absent_blobs(repo: Path, commit: str) -> list[str]:
    """The paths of ``commit`` whose blob ``repo`` does not hold, sorted.

    One ``git ls-tree -r`` and one ``git cat-file --batch-check`` (which answers
    ``<id> missing`` for an object it cannot read). Submodule entries are not blobs
    and are never listed.

    Raises:
        GitError: git failed on either command.
    """
    listing = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    paths: dict[str, list[str]] = {}
    for entry in listing.split("\0"):
        meta, _, path = entry.partition("\t")
        fields = meta.split()
        if len(fields) == 3 and fields[1] == "blob" and path:
            paths.setdefault(fields[2], []).append(path)
    if not paths:
        return []
    answer = _git(repo, "cat-file", "--batch-check", stdin="".join(f"{b}\n" for b in paths))
    absent = [
        path
        for line in answer.splitlines()
        if line.endswith(" missing")
        for path in paths.get(line.split(" ", 1)[0], [])
    ]
    return sorted(absent)


@contextlib.contextmanager
def checkout(repo: Path, commit: str) -> Iterator[Path]:
    """A detached worktree of ``repo`` at ``commit`` in a new temporary folder (every
    file whose blob ``repo`` holds; :func:`absent_blobs` names the others).

    Raises:
        GitError: ``commit`` is not 40 hex digits, ``repo`` does not have it, or git
            failed; the message names the repository.
    """
    if not _HEX40.fullmatch(commit):
        raise GitError(f"{repo}: {commit!r:.60} is not a 40-hex commit id")
    filters = _filters_off(repo)
    holder = Path(tempfile.mkdtemp(prefix="rubi-eval-wt-"))
    tree = holder / "tree"
    try:
        _git(repo, "worktree", "add", "--no-checkout", "--detach", str(tree), commit)
        absent = absent_blobs(repo, commit)
        _git(tree, "read-tree", commit)
        if absent:
            _git(tree, "update-index", "--force-remove", "-z", "--stdin",
                 stdin="".join(f"{p}\0" for p in absent))  # fmt: skip
            print(
                f"{repo}@{commit[:10]}: {len(absent)} file(s) absent from the repository's "
                f"objects left out of the checkout (first: {absent[0]})",
                file=sys.stderr,
            )
        _git(tree, "checkout-index", "--all", extra=filters)
        head = _git(tree, "rev-parse", "HEAD").strip()
        if head != commit:
            raise GitError(f"{repo}: the worktree is at {head}, not {commit}")
        yield tree
    finally:
        with contextlib.suppress(GitError):
            _git(repo, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(holder, ignore_errors=True)
        with contextlib.suppress(GitError):
            _git(repo, "worktree", "prune")
