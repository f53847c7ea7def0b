"""Stale notes: what a note is about changed after the note did, or a file it names no
longer exists.

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

A committed note's file that changed (in a later commit or in the work tree) counts
only when the change touches what the note says (:mod:`rubi.knowledge.staleverdict`:
a definition the note names was edited, removed or renamed; for a note naming nothing
of the file, a large part of it is new). A folder entry, and a note not committed
yet, keep the plain rule.

Git's history is read once per HEAD and the folders holding the notes, and cached in
``stale.pickle`` in the cache folder with the verdicts on what changed (one ``git
cat-file`` for the changed files of a search's notes not judged before; kept per note,
file and content, across HEADs, each file's blob id kept with its stamp), so a search
pays a ``stat`` per file until HEAD moves (and one ``git status`` for files saved after
their note). A long-lived process keeps what it read of ``stale.pickle`` while the
file's stamp (:func:`rubi.core.filestamp.quiet_stamp`) stays the same: the file holds
the history of every folder checked, 1.5 MB in a project with 6,800 notes, and
reading it cost 12 ms a search whose hits name files.
"""

from __future__ import annotations

import logging
import os
import posixpath
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rubi.core.filestamp import Stamp, quiet_stamp
from rubi.core.gitrepo import head
from rubi.core.picklefiles import load_pickle, save_pickle
from rubi.core.safeio import MAX_NOTE_BYTES, UnsafeFileError, read_bytes
from rubi.core.safepaths import UnsafePathError, project_relative
from rubi.knowledge.githistory import History, blob_id, changed_in_worktree, history, repo_path
from rubi.knowledge.staleverdict import Memory, Suspect, changed_for_note

__all__ = ["NoteFiles", "stale_files"]

log = logging.getLogger(__name__)

_CACHE_FORMAT = 3
"""Bumped when what ``stale.pickle`` holds changes (1: changed files per ``commit:``;
2: no commit ids, no verdicts on what changed)."""


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


def _mtime(path: Path) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def _note_step(
    project_root: Path, hist: History, note: NoteFiles, repo_path: str
) -> tuple[int, bytes] | None:
    """The step of the commit that last changed the note and the note's text, when the
    work tree holds that very text; None when the note is not committed or edited since."""
    blob = hist.blobs.get(repo_path)
    if blob is None:
        return None
    try:
        got = read_bytes(project_root, note.path, limit=MAX_NOTE_BYTES, label=note.id)
    except (OSError, UnsafeFileError):  # then it is not the committed note
        return None
    if got.truncated or blob_id(got.data, blob) != blob:
        return None
    step = hist.last_change.get(repo_path)
    return None if step is None else (step, got.data)


def _committed(
    project_root: Path, hist: History | None, note: NoteFiles, texts: dict[str, str]
) -> tuple[int | None, str, str]:
    """The step and commit id that last changed ``note`` and its repository path, when
    it is committed and unchanged (its text then put in ``texts``); ``(None, "", "")``
    otherwise."""
    note_repo = repo_path(hist.top, note.path) if hist is not None else None
    if hist is None or note_repo is None:
        return None, "", ""
    noted = _note_step(project_root, hist, note, note_repo)
    if noted is None:
        return None, "", ""
    texts[note.id] = noted[1].decode("utf-8", errors="replace")
    return noted[0], hist.commits[noted[0]], note_repo


_KEPT: dict[Path, tuple[Stamp, tuple[frozenset[str], History, Memory]]] = {}
"""What :func:`_load` read of each cache file, with the file's stamp when it was read."""
_CHECKING = threading.RLock()
"""Held by :func:`stale_files`: the kept :class:`Memory` is one object for every thread
of the process (the server's tool calls and the hooks its engine answers), filled by
one check at a time and pickled by it."""


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
    with _CHECKING:
        return _stale_files(project_root, wanted, cache_file)


def _stale_files(
    project_root: Path, wanted: list[NoteFiles], cache_file: Path | None
) -> dict[str, tuple[str, ...]]:
    """:func:`stale_files` of the notes with ``files``, under :data:`_CHECKING`."""
    cached = _history(project_root, [n.path for n in wanted], cache_file)
    hist = cached.hist if cached is not None else None
    root_repo = repo_path(hist.top, project_root) if hist is not None else None
    found: dict[str, dict[int, str]] = {}
    checks: list[Suspect] = []
    suspects: list[Suspect] = []
    texts: dict[str, str] = {}
    for note in wanted:
        step, commit, note_repo = _committed(project_root, hist, note, texts)
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
                if folder:
                    found.setdefault(note.id, {})[index] = shown
                else:
                    suspects.append(Suspect(note.id, note_repo, commit, index, rel, repo))
                continue
            saved = _mtime(target)
            if folder or note_mtime is None or saved is None or saved <= note_mtime:
                continue
            if step is None:  # the note is newer than every commit; the file newer still
                found.setdefault(note.id, {})[index] = shown
            else:
                checks.append(Suspect(note.id, note_repo, commit, index, rel, repo))
    if cached is not None:
        for sus in _judged(project_root, cached, checks, suspects, texts, cache_file):
            found.setdefault(sus.note, {})[sus.index] = sus.rel
    return {nid: tuple(bad[i] for i in sorted(bad)) for nid, bad in found.items()}


def _judged(
    project_root: Path,
    cached: _Cached,
    checks: list[Suspect],
    suspects: list[Suspect],
    texts: dict[str, str],
    cache_file: Path | None,
) -> list[Suspect]:
    """The files of ``suspects``, and of ``checks`` that differ from HEAD in the work
    tree, whose change touches what their note says (verdicts cached)."""
    if checks:
        dirty = changed_in_worktree(cached.hist.top, {c.repo_path for c in checks}) or set()
        suspects = suspects + [c for c in checks if c.repo_path in dirty]
    if not suspects:
        return []
    kept = changed_for_note(project_root, cached.hist.top, suspects, texts, cached.memory)
    if cache_file is not None and cached.memory.changed:
        _save(cache_file, cached)
    return kept


@dataclass(slots=True)
class _Cached:
    """What ``stale.pickle`` holds: the history of some folders at one HEAD, and the
    verdicts given (:func:`changed_for_note`), kept when HEAD moves."""

    folders: frozenset[str]
    hist: History
    memory: Memory


def _save(cache_file: Path, cached: _Cached) -> None:
    try:
        cached.memory.changed = False
        save_pickle(cache_file, (_CACHE_FORMAT, cached.folders, cached.hist, cached.memory))
    except OSError as exc:
        log.debug("cannot cache stale flags: %s", exc)


def _load(
    cache_file: Path,
) -> tuple[frozenset[str], History, Memory] | None:
    """What ``cache_file`` holds, None when it is missing, damaged or of another
    format. Read again only when its stamp changed since the last read (or it was
    written within :data:`~rubi.core.filestamp.QUIET_AFTER_S`, when a stamp cannot
    vouch for it): its objects are then the ones the last call had, verdicts it added
    since included (a verdict depends only on what it is keyed by, so an answer is the
    same either way)."""
    stamp = quiet_stamp([cache_file])  # taken before the read: a later write reads again
    kept = _KEPT.get(cache_file)
    if stamp is not None and kept is not None and kept[0] == stamp:
        return kept[1]
    _KEPT.pop(cache_file, None)
    loaded = _read(cache_file)
    if loaded is not None and stamp is not None and stamp[0] is not None:
        _KEPT[cache_file] = (stamp, loaded)
    return loaded


def _read(
    cache_file: Path,
) -> tuple[frozenset[str], History, Memory] | None:
    try:
        value = load_pickle(cache_file)
    except FileNotFoundError:
        return None
    except Exception as exc:  # a damaged cache is recomputed
        log.debug("%s: %s", cache_file, exc)
        return None
    if (
        isinstance(value, tuple)
        and len(value) == 4
        and value[0] == _CACHE_FORMAT
        and isinstance(value[1], frozenset)
        and isinstance(value[2], History)
        and isinstance(value[3], Memory)
    ):
        return value[1], value[2], value[3]
    return None


def _history(project_root: Path, note_paths: list[Path], cache_file: Path | None) -> _Cached | None:
    """The history of the folders holding ``note_paths``: from the cache when HEAD has
    not moved and it covers them, else from git (and cached, for these folders and
    the ones cached before at the same HEAD, with the verdicts cached before)."""
    sha = head(project_root)
    if sha is None:
        return None
    folders = frozenset(os.path.realpath(p.parent) for p in note_paths)
    memory = Memory()
    loaded = _load(cache_file) if cache_file is not None else None
    if loaded is not None:
        memory = loaded[2]
        if loaded[1].head == sha:
            if folders <= loaded[0]:
                return _Cached(loaded[0], loaded[1], memory)
            folders |= loaded[0]
    hist = history(project_root, [Path(f) for f in sorted(folders)])
    if hist is None:
        return None
    cached = _Cached(folders, hist, memory)
    if cache_file is not None:
        _save(cache_file, cached)
    return cached
