"""When each file last changed, by first-parent history, for stale notes.

A note is stale when a file it is about changed after the note did. "After" is
measured on HEAD's first-parent line: each first-parent commit is one step, a merge
counting with everything it brought in (``git log --first-parent -m``), so a note and
the fix it describes, committed together or merged together, changed at the same
step and the note is not stale; a branch older than the note, merged after it, makes
it stale.

Nothing from a note reaches git as an option: paths are given after ``--`` with
``--literal-pathspecs``, and git runs with :data:`rubi.core.githardening.GIT_HARDENING`.
A file name git prints that is not UTF-8 is left out (the vault scan reports it).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rubi.core.gitrepo import filter_overrides, git_bytes, git_lines, git_output
from rubi.core.safeio import escaped_name, has_surrogates
from rubi.core.safepaths import is_commit_id

__all__ = [
    "MAX_OLD_BYTES",
    "History",
    "blob_id",
    "changed_in_worktree",
    "file_at",
    "history",
    "repo_path",
]

log = logging.getLogger(__name__)

MAX_OLD_BYTES = 4_000_000
"""A file's text at a commit is read only up to this size (:func:`file_at`), as the code
map reads a file."""


@dataclass(frozen=True, slots=True)
class History:
    """What HEAD's first-parent history says about the files under some folders.

    Attributes:
        head: HEAD's commit id.
        top: the repository's top folder (absolute, as git prints it).
        blobs: repository path (POSIX, from ``top``) → blob id at HEAD, for every file
            under the folders asked about.
        last_change: repository path → the step of the newest first-parent commit
            that changed it (0: HEAD's own commit, 1: its first parent…). Complete for
            every ``.md`` path of ``blobs``, and for any other path as far back as the
            oldest of them.
        commits: the commit id of each step read (``commits[0]`` is HEAD's).
    """

    head: str
    top: Path
    blobs: dict[str, str] = field(default_factory=dict)
    last_change: dict[str, int] = field(default_factory=dict)
    commits: tuple[str, ...] = ()

    def changed_since(self, path: str, step: int) -> bool:
        """True when ``path`` (a repository path; ending in ``/``: any file under that
        folder) changed in a first-parent commit newer than ``step``."""
        if not path.endswith("/"):
            return self.last_change.get(path, step) < step
        return any(s < step for p, s in self.last_change.items() if p.startswith(path))


def _log_steps(root: Path) -> Iterator[tuple[str, list[str]]]:
    """The commit id and files of each first-parent commit from HEAD back, one per
    step, read as git writes them (the caller stops when it knows enough; git is then
    ended)."""
    commit: str | None = None
    files: list[str] = []
    for line in git_lines(
        root,
        "log",
        "--first-parent",
        "-m",
        "--no-renames",
        "--format=%x00%H",
        "--name-only",
        "HEAD",
        "--",
    ):
        if line.startswith("\x00"):
            if commit is not None:
                yield commit, files
            commit, files = line[1:].strip(), []
        elif line and commit is not None and not has_surrogates(line):
            files.append(line)  # a name that is not UTF-8 is no note's nor file's
    if commit is not None:
        yield commit, files


def repo_path(top: Path, path: Path) -> str | None:
    """``path`` (absolute; symlinks resolved) as a repository path: POSIX, from the
    top folder ``top`` (``.`` for the top itself); None when it lies outside."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(top))
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return None
    return Path(rel).as_posix()


def history(root: Path, folders: Collection[Path]) -> History | None:
    """First-parent history read back from HEAD until each markdown file under
    ``folders`` has been seen changing (a shallow clone's oldest commit adds all).

    Args:
        root: a folder of the work tree.
        folders: the folders holding the notes (absolute); their ``.md`` files are
            complete in :attr:`History.last_change`. Folders outside the repository
            are left out.

    Returns:
        The :class:`History`; None outside a repository, without commits or git, or
        when git fails or times out (:data:`GIT_TIMEOUT_S`).
    """
    top_out = git_output(root, "rev-parse", "--show-toplevel", "HEAD")
    if top_out is None:
        return None
    lines = top_out.splitlines()
    if len(lines) != 2:
        return None
    top, head = Path(lines[0]), lines[1].strip()
    inside = {repo_path(top, f) for f in folders}
    specs = sorted(r for r in inside if r is not None)
    blobs: dict[str, str] = {}
    if specs:
        tree = git_output(
            top, "--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", "HEAD", "--", *specs
        )
        if tree is None:
            return None
        blobs = _blobs(tree)
    pending = {p for p in blobs if p.endswith(".md")}
    last_change: dict[str, int] = {}
    commits: list[str] = []
    step = -1
    for step, (commit, files) in enumerate(_log_steps(top)):
        commits.append(commit)
        for f in files:
            if f not in last_change:
                last_change[f] = step
                pending.discard(f)
        if not pending:
            break
    if pending:
        if step < 0:
            return None  # git log failed
        log.debug("history ended before %d files were seen changing", len(pending))
        for f in pending:  # a shallow clone lists every file at its oldest commit
            last_change.setdefault(f, step)
    return History(head, top, blobs, last_change, tuple(commits))


def _blobs(tree: str) -> dict[str, str]:
    """``{path: blob id}`` from ``git ls-tree -r -z`` output; a name that is not UTF-8
    is left out."""
    blobs: dict[str, str] = {}
    for entry in tree.split("\x00"):
        meta, _, path = entry.partition("\t")
        parts = meta.split()
        if has_surrogates(path):
            log.debug("%s: file name is not UTF-8; left out", escaped_name(path))
        elif path and len(parts) == 3 and parts[1] == "blob":
            blobs[path] = parts[2]
    return blobs


def blob_id(data: bytes, like: str) -> str:
    """The git blob id of ``data``, in the hash of ``like`` (40 hex digits: SHA-1,
    64: SHA-256): equal to the id at HEAD when the file is unchanged."""
    header = f"blob {len(data)}\x00".encode()
    digest = hashlib.sha256() if len(like) == 64 else hashlib.sha1(usedforsecurity=False)
    digest.update(header + data)
    return digest.hexdigest()


def changed_in_worktree(top: Path, paths: Collection[str]) -> set[str] | None:
    """The ``paths`` (repository paths) whose file differs from HEAD in the work tree:
    modified, staged, added or untracked. One ``git status`` for all of them.

    The repository's filter programs are turned off
    (:func:`rubi.core.gitrepo.filter_overrides`): a file a filter would change counts
    as changed. Submodules are not looked into (``--ignore-submodules=all``): git
    would run ``status`` in each with the nested repository's own ``.git/config``,
    whose filters the overrides never saw (a nested repository arrives with an archive
    as easily as a note does).

    Returns:
        The changed ones; None when git fails or a filter cannot be turned off.
    """
    if not paths:
        return set()
    filters = filter_overrides(top)  # status hashes changed files through filters
    if filters is None:
        return None
    out = git_output(
        top,
        *filters,
        "--literal-pathspecs",
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--ignore-submodules=all",
        "--",
        *sorted(paths),
    )
    if out is None:
        return None
    changed = {
        e[3:] for e in out.split("\x00") if len(e) > 3 and e[2] == " " and not has_surrogates(e)
    }
    return changed & set(paths)


def file_at(top: Path, wanted: Collection[tuple[str, str]]) -> dict[tuple[str, str], bytes] | None:
    """The content of each ``(commit, repository path)`` of ``wanted``, read with one
    ``git cat-file --batch`` (raw blobs: no filter runs).

    A commit that is not a hex object id, a path holding a newline, a NUL or a byte
    that is not UTF-8, a path absent at that commit, a tree, or a blob larger than
    :data:`MAX_OLD_BYTES` is left out of the answer; None when git fails.
    """
    asked = [
        (c, p)
        for c, p in dict.fromkeys(wanted)
        if is_commit_id(c) and p and not has_surrogates(p) and "\n" not in p and "\x00" not in p
    ]
    if not asked:
        return {}
    out = git_bytes(
        top, "cat-file", "--batch", stdin="".join(f"{c}:{p}\n" for c, p in asked).encode()
    )
    if out is None:
        return None
    found: dict[tuple[str, str], bytes] = {}
    at = 0
    for key in asked:
        eol = out.find(b"\n", at)
        if eol < 0:
            break
        header = out[at:eol].split()
        at = eol + 1
        if len(header) != 3 or not header[2].isdigit():
            continue  # "<name> missing", "<name> ambiguous"
        size = int(header[2])
        if header[1] == b"blob" and size <= MAX_OLD_BYTES:
            found[key] = out[at : at + size]
        at += size + 1  # the content, then a newline
    return found
