"""A commit of an untrusted repository checked out in a temporary worktree.

``git worktree add --detach`` runs with rubi's git hardening (no hooks, no fsmonitor,
no pager, no network: :mod:`rubi.core.githardening`) and with every filter driver the
repository's config names turned off (a checkout runs ``smudge`` and ``process``
filters), so nothing a downloaded repository carries runs. The worktree is removed
(and pruned) when the block ends, whatever happens in it.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
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


def _git(repo: Path, *args: str, extra: list[str] | None = None) -> str:
    cmd = ["git", *GIT_HARDENING, *(extra or []), *_location(repo), *args]
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            errors="replace",
            env=git_environment(),
            timeout=CHECKOUT_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
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


@contextlib.contextmanager
def checkout(repo: Path, commit: str) -> Iterator[Path]:
    """A detached worktree of ``repo`` at ``commit`` in a new temporary folder.

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
        _git(repo, "worktree", "add", "--detach", str(tree), commit, extra=filters)
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
