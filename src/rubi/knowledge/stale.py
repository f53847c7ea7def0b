"""Stale notes: the files a note is about changed in git after the note's commit, or
no longer exist.

One ``git log`` per HEAD (see :func:`rubi.core.gitrepo.changes_since`), cached in
``.index/stale.pickle`` keyed by HEAD and the commits asked about, so a search pays
a file read, not a git call, until HEAD moves.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rubi.core.gitrepo import changes_since, head
from rubi.core.safepaths import UnsafePathError, is_commit_id, project_relative
from rubi.core.storage import load_pickle, save_pickle

__all__ = ["NoteFiles", "stale_files"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class NoteFiles:
    """What staleness needs from a note: its id, ``files:`` and ``commit``."""

    id: str
    files: tuple[str, ...]
    commit: str | None


def _changed(path: str, changed: set[str]) -> bool:
    folder = path.rstrip("/") + "/"
    return path in changed or any(c.startswith(folder) for c in changed)


def stale_files(
    project_root: Path, notes: Iterable[NoteFiles], cache_file: Path | None = None
) -> dict[str, tuple[str, ...]]:
    """The stale notes among ``notes``, with the files that made each stale.

    Args:
        project_root: the git work tree the notes' ``files:`` are relative to.
        notes: the notes to check (notes without ``files`` are never stale).
        cache_file: where to cache git's answer per HEAD (None: no cache).

    Returns:
        ``{note id: (files changed since its commit, or missing)}``, only for stale
        notes. Outside a repository, or for a commit git does not know (shallow
        clone), only missing files count.
    """
    wanted = [n for n in notes if n.files]
    if not wanted:
        return {}
    commits = sorted({n.commit for n in wanted if is_commit_id(n.commit)})
    changes: dict[str, set[str]] = {}
    if commits:
        changes = _cached_changes(project_root, commits, cache_file)
    out: dict[str, tuple[str, ...]] = {}
    for note in wanted:
        changed = changes.get(note.commit or "", set())
        bad = []
        for f in note.files:
            try:
                rel = project_relative(project_root, f, what="files:")
            except UnsafePathError:
                continue  # a path leaving the project is never looked at (doctor names it)
            if rel == ".":
                continue
            if f.strip().endswith("/"):
                rel += "/"  # a folder, shown as the note wrote it
            if not (project_root / rel).exists() or _changed(rel, changed):
                bad.append(rel)
        if bad:
            out[note.id] = tuple(bad)
    return out


def _cached_changes(root: Path, commits: list[str], cache_file: Path | None) -> dict[str, set[str]]:
    sha = head(root)
    if sha is None:
        return {}
    key = (sha, tuple(commits))
    if cache_file is not None:
        try:
            cached = load_pickle(cache_file)
            if isinstance(cached, tuple) and len(cached) == 2 and cached[0] == key:
                return dict(cached[1])
        except FileNotFoundError:
            pass
        except Exception as exc:  # a damaged cache is recomputed
            log.debug("%s: %s", cache_file, exc)
    changes = changes_since(root, commits) or {}
    if cache_file is not None:
        try:
            save_pickle(cache_file, (key, changes))
        except OSError as exc:
            log.debug("cannot cache stale flags: %s", exc)
    return changes
