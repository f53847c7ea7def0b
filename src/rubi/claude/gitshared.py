"""Whether a file a project install wrote with this machine's paths would be committed.

``rubi install`` puts its hooks, with the absolute path of this machine's rubi, into
``.claude/settings.local.json``: Claude Code's file for one machine, which a team keeps
out of git. Claude Code asks git to ignore it when Claude Code creates it; when rubi
creates it first, in a repository whose ``.gitignore`` does not name it, ``git add -A``
would commit it, and every teammate's hooks would call a rubi that is not there.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rubi.core.gitrepo import git_bytes

__all__ = ["committed_note"]

MAX_LEVELS = 64
"""Folders looked at, up from the written file, for the work tree's top."""


def _git_may_answer(folder: Path) -> bool:
    """Whether ``folder`` is in a git work tree whose ignore files, from ``folder`` up
    to the top (each ``.gitignore``, and ``.git/info/exclude``), are regular files or
    absent: git opens each to answer, and would wait on a FIFO until its timeout.
    False when no ``.git`` is found within :data:`MAX_LEVELS` folders (no git call)."""
    for level, current in enumerate((folder, *folder.parents)):
        if level >= MAX_LEVELS:
            return False
        ignores = [current / ".gitignore"]
        top = os.path.lexists(current / ".git")
        if top:
            ignores.append(current / ".git" / "info" / "exclude")
        for path in ignores:
            try:
                mode = os.stat(path).st_mode
            except OSError:
                continue
            if not stat.S_ISREG(mode):
                return False
        if top:
            return True
    return False


def committed_note(project: Path, written: Path) -> str | None:
    """A note for the install's report when git at ``project`` would commit
    ``written`` (a file inside ``project``): it is tracked, or untracked and not
    ignored (``git ls-files --cached --others --exclude-standard``, literal path). None
    when git ignores it, ``project`` is no git work tree, an ignore file git would
    read is not a regular file (:func:`_git_may_answer`), git is missing or does not
    answer (hardened, bounded: :func:`rubi.core.gitrepo.git_bytes`), or ``written`` is
    outside ``project``."""
    try:
        rel = written.resolve().relative_to(project.resolve()).as_posix()
    except (OSError, ValueError):
        return None
    if not _git_may_answer(written.parent):
        return None
    args = ("--literal-pathspecs", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    out = git_bytes(project, *args, "--", rel)
    if not out:
        return None
    return (
        f"{written}: git does not ignore it, and it holds this machine's path to rubi: "
        f"add `{rel}` to .gitignore so a teammate's clone does not get it"
    )
