"""Whether a file that changed after a note changed what the note is about.

The history (:mod:`rubi.knowledge.githistory`) says a note's file changed after it;
this module looks at *what* changed, between the file at the commit that last changed
the note and the file in the work tree
(:func:`rubi.knowledge.filechange.changes_what_it_names`): when the note names
definitions of that file (:func:`rubi.knowledge.mentions.mentioned_names`), only an
edit, removal or rename of one of them counts; when it names none, only a large
rewrite (:data:`rubi.knowledge.filechange.LARGE_CHANGE`).

A file that cannot be compared (no longer readable, larger than
:data:`rubi.knowledge.githistory.MAX_OLD_BYTES`, not a regular file any more, absent at
the note's commit, too costly to align
(:data:`rubi.knowledge.filechange.MAX_ALIGNED_PAIRS`), or git failed) counts as changed,
as every changed file did before.

Each answer is kept (the caller caches the :class:`Memory`) under what it depends on:
the note (its repository path and the commit that last changed it fix its text), the
file and the blob id of its work-tree content, itself kept with the file's stamp. A
search then pays a ``stat`` of each such file, a read and a hash of one written since,
and the comparison only once per content.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rubi.core.filestamp import Stamp, quiet_stamp
from rubi.core.safeio import UnsafeFileError, read_bytes
from rubi.knowledge.githistory import MAX_OLD_BYTES, blob_id, file_at

__all__ = ["MAX_CACHED_VERDICTS", "Memory", "Suspect", "VerdictKey", "changed_for_note"]

MAX_CACHED_VERDICTS = 4096
"""Answers kept in the cache; past that the cache starts again (a long-lived clone
gathers one per note file and work-tree state)."""

VerdictKey = tuple[str, str, str, str]
"""``(the note's repository path, the commit that last changed it, the file's
repository path, blob id of the work-tree file)``: what a verdict depends on (valid at
any HEAD)."""


@dataclass(frozen=True, slots=True)
class Suspect:
    """A file of a note that changed after it, to judge.

    Attributes:
        note: the note's id.
        note_repo: the note's repository path.
        commit: the commit that last changed the note.
        index: the file's place in the note's ``files:``.
        rel: the file, project-relative.
        repo_path: the file, from the repository's top folder.
    """

    note: str
    note_repo: str
    commit: str
    index: int
    rel: str
    repo_path: str


@dataclass(slots=True)
class Memory:
    """What the stale cache keeps of the verdicts, across searches and HEADs.

    Attributes:
        verdicts: each answer by what it depends on (:data:`VerdictKey`).
        blobs: a file's blob id by repository path, with the stamp it was read at
            (:func:`rubi.core.filestamp.quiet_stamp`): an unchanged stamp vouches for
            it, so a search reads and hashes only the files written since.
        changed: something was added since the cache was read (then it is written).
    """

    verdicts: dict[VerdictKey, bool] = field(default_factory=dict)
    blobs: dict[str, tuple[Stamp, str]] = field(default_factory=dict)
    changed: bool = False


def changed_for_note(
    project_root: Path,
    top: Path,
    suspects: Sequence[Suspect],
    note_texts: Mapping[str, str],
    memory: Memory,
) -> list[Suspect]:
    """The ``suspects`` whose change touches what their note says.

    Args:
        project_root: the work tree the files are read from.
        top: the repository's top folder (git runs there).
        suspects: the files to judge.
        note_texts: each note's markdown by id (a note missing here names nothing).
        memory: what earlier calls found, filled with what this one finds (the caller
            caches it when :attr:`Memory.changed`).

    Returns:
        The suspects that still count as changed, in their order.
    """
    if len(memory.verdicts) + len(memory.blobs) > MAX_CACHED_VERDICTS:
        memory.verdicts.clear()
        memory.blobs.clear()
    keyed: list[tuple[Suspect, VerdictKey | None]] = []
    new_texts: dict[VerdictKey, bytes] = {}
    for s in suspects:
        stamp = quiet_stamp([project_root / s.rel])
        known = memory.blobs.get(s.repo_path)
        data: bytes | None = None
        if stamp is not None and known is not None and known[0] == stamp:
            blob = known[1]
        else:
            data = _read(project_root, s.rel)
            if data is None:
                keyed.append((s, None))
                continue
            blob = blob_id(data, s.commit)
            if stamp is not None:
                memory.blobs[s.repo_path] = (stamp, blob)
                memory.changed = True
        key = (s.note_repo, s.commit, s.repo_path, blob)
        if key not in memory.verdicts and key not in new_texts:
            data = _read(project_root, s.rel) if data is None else data
            if data is None:
                keyed.append((s, None))
                continue
            new_texts[key] = data
        keyed.append((s, key))
    if new_texts:
        _judge(top, suspects, note_texts, new_texts, memory)
    return [s for s, key in keyed if key is None or memory.verdicts.get(key, True)]


def _read(project_root: Path, rel: str) -> bytes | None:
    """The file ``rel`` of the project, or None when it cannot be read (outside the
    project, not a regular file, larger than :data:`MAX_OLD_BYTES`)."""
    try:
        got = read_bytes(project_root, rel, limit=MAX_OLD_BYTES, label=rel)
    except (OSError, UnsafeFileError):  # UnsafeFileError is no OSError
        return None
    return None if got.truncated else got.data


def _judge(
    top: Path,
    suspects: Sequence[Suspect],
    note_texts: Mapping[str, str],
    new_texts: Mapping[VerdictKey, bytes],
    memory: Memory,
) -> None:
    """Compare the files of ``new_texts`` with their text at their note's commit (one
    git call) and put the answers in ``memory``; none when git fails."""
    from rubi.knowledge.filechange import changes_what_it_names
    from rubi.knowledge.mentions import mentioned_names

    old = file_at(top, [(commit, path) for _, commit, path, _ in new_texts])
    if old is None:
        return
    note_of = {(s.note_repo, s.commit): s.note for s in suspects}
    names: dict[str, frozenset[str]] = {}
    for key, data in new_texts.items():
        note = note_of[key[:2]]
        if note not in names:
            names[note] = mentioned_names(note_texts.get(note, ""))
        before = old.get(key[1:3])
        answer = None if before is None else changes_what_it_names(names[note], before, data)
        memory.verdicts[key] = True if answer is None else answer
        memory.changed = True
