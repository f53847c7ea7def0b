"""Stale notes: a file a note is about changed after the note did, or no longer exists.

"After the note" is measured against the note file itself, not against the
``commit:`` it records (the HEAD it was written on), so the usual agent workflow
(edit ``src/x.py``, register a note about the fix, commit both) leaves the note fresh:

- a note committed and unchanged in the work tree: stale when one of its files
  changed in a first-parent commit newer than the one that last changed the note
  (:mod:`rubi.knowledge.githistory`; a merge counts with everything it brought in), or
  differs from HEAD in the work tree and was saved after the note;
- a note not committed yet, or edited since: newer than every commit; stale when one
  of its files was saved after it (modification times);
- outside git: only missing files count.

Git's history is read once per HEAD and the folders holding the notes, and cached in
``stale.pickle`` in the cache folder, so a search pays a file read and a ``stat`` per
file until HEAD moves (and one ``git status`` for files saved after their note).
"""

from __future__ import annotations

import logging
import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rubi.core.gitrepo import head
from rubi.core.picklefiles import load_pickle, save_pickle
from rubi.core.safeio import MAX_NOTE_BYTES, read_bytes
from rubi.core.safepaths import UnsafePathError, project_relative
from rubi.knowledge.githistory import History, blob_id, changed_in_worktree, history, repo_path

__all__ = ["NoteFiles", "stale_files"]

log = logging.getLogger(__name__)

_CACHE_FORMAT = 2
"""Bumped when what ``stale.pickle`` holds changes (1: changed files per ``commit:``)."""


@dataclass(frozen=True, slots=True)
class NoteFiles:
    """What staleness needs from a note.

    Attributes:
        id: the note's id (the key of the answer).
        files: its ``files:`` as written (project-relative; ``dir/`` for a folder).
        path: the note's file (absolute), inside the project.
    """

    id: str
    files: tuple[str, ...]
    path: Path


@dataclass(frozen=True, slots=True)
class _Check:
    """One file of one note to look at in the work tree."""

    note: str
    index: int
    shown: str
    repo_path: str


def _mtime(path: Path) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def _note_step(project_root: Path, hist: History, note: NoteFiles, repo_path: str) -> int | None:
    """The step of the commit that last changed the note, when the work tree holds
    that very text; None when the note is not committed or edited since."""
    blob = hist.blobs.get(repo_path)
    if blob is None:
        return None
    try:
        got = read_bytes(project_root, note.path, limit=MAX_NOTE_BYTES, label=note.id)
    except OSError:  # UnsafeFileError included: then it is not the committed note
        return None
    if got.truncated or blob_id(got.data, blob) != blob:
        return None
    return hist.last_change.get(repo_path)


def stale_files(
    project_root: Path, notes: Iterable[NoteFiles], cache_file: Path | None = None
) -> dict[str, tuple[str, ...]]:
    """The stale notes among ``notes``, with the files that made each stale.

    Args:
        project_root: the work tree the notes' ``files:`` are relative to.
        notes: the notes to check (notes without ``files`` are never stale).
        cache_file: where to cache git's answer per HEAD (None: no cache).

    Returns:
        ``{note id: (files, as the note names them, that changed after it or are
        missing)}``, only for stale notes, in the note's order. Outside a repository
        only missing files count.
    """
    wanted = [n for n in notes if n.files]
    if not wanted:
        return {}
    hist = _history(project_root, [n.path for n in wanted], cache_file)
    root_repo = repo_path(hist.top, project_root) if hist is not None else None
    found: dict[str, dict[int, str]] = {}
    checks: list[_Check] = []
    for note in wanted:
        note_repo = repo_path(hist.top, note.path) if hist is not None else None
        step = (
            _note_step(project_root, hist, note, note_repo)
            if hist is not None and note_repo is not None
            else None
        )
        note_mtime = _mtime(note.path)
        for index, f in enumerate(note.files):
            try:
                rel = project_relative(project_root, f, what="files:")
            except UnsafePathError:
                continue  # a path leaving the project is never looked at (doctor names it)
            if rel == ".":
                continue
            folder = f.strip().endswith("/")
            shown = rel + "/" if folder else rel
            target = project_root / rel
            if not target.exists():
                found.setdefault(note.id, {})[index] = shown
                continue
            if hist is None or root_repo is None:
                continue  # outside git: missing files only
            repo = posixpath.normpath(posixpath.join(root_repo, rel))
            repo = repo.removeprefix("./") + ("/" if folder else "")
            if step is not None and hist.changed_since(repo, step):
                found.setdefault(note.id, {})[index] = shown
                continue
            saved = _mtime(target)
            if folder or note_mtime is None or saved is None or saved <= note_mtime:
                continue
            if step is None:  # the note is newer than every commit; the file newer still
                found.setdefault(note.id, {})[index] = shown
            else:
                checks.append(_Check(note.id, index, shown, repo))
    if checks and hist is not None:
        dirty = changed_in_worktree(hist.top, {c.repo_path for c in checks}) or set()
        for c in checks:
            if c.repo_path in dirty:
                found.setdefault(c.note, {})[c.index] = c.shown
    return {nid: tuple(bad[i] for i in sorted(bad)) for nid, bad in found.items()}


def _history(project_root: Path, note_paths: list[Path], cache_file: Path | None) -> History | None:
    """The history of the folders holding ``note_paths``: from the cache when HEAD has
    not moved and it covers them, else from git (and cached, for these folders and
    the ones cached before at the same HEAD)."""
    sha = head(project_root)
    if sha is None:
        return None
    folders = frozenset(os.path.realpath(p.parent) for p in note_paths)
    if cache_file is not None:
        try:
            value = load_pickle(cache_file)
        except FileNotFoundError:
            value = None
        except Exception as exc:  # a damaged cache is recomputed
            log.debug("%s: %s", cache_file, exc)
            value = None
        if (
            isinstance(value, tuple)
            and len(value) == 3
            and value[0] == _CACHE_FORMAT
            and isinstance(value[1], frozenset)
            and isinstance(value[2], History)
            and value[2].head == sha
        ):
            if folders <= value[1]:
                return value[2]
            folders |= value[1]
    hist = history(project_root, [Path(f) for f in sorted(folders)])
    if hist is not None and cache_file is not None:
        try:
            save_pickle(cache_file, (_CACHE_FORMAT, folders, hist))
        except OSError as exc:
            log.debug("cannot cache stale flags: %s", exc)
    return hist
