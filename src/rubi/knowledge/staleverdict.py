"""Whether a file that changed after a note changed what the note is about.

The history (:mod:`rubi.knowledge.githistory`) says a note's file changed after it;
this module looks at *what* changed, between the file at the commit that last changed
the note and the file in the work tree (:mod:`rubi.knowledge.filechange`):

- when the note names definitions of that file (:func:`rubi.knowledge.mentions.mentioned_names`
  met with the file's definitions at the note's commit), the file counts as changed
  only when one of those definitions was edited, removed or renamed;
- when it names none of them, only when at least :data:`LARGE_CHANGE` of the file is
  new or gone.

A file that cannot be compared (no longer readable, larger than
:data:`rubi.knowledge.githistory.MAX_OLD_BYTES`, absent at the note's commit, or git
failed) counts as changed, as every changed file did before.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.core.safeio import read_bytes
from rubi.knowledge.filechange import FileChange, file_change
from rubi.knowledge.githistory import MAX_OLD_BYTES, blob_id, file_at
from rubi.knowledge.mentions import mentioned_names

__all__ = ["LARGE_CHANGE", "MAX_CACHED_CHANGES", "ChangeKey", "Suspect", "changed_for_note"]

LARGE_CHANGE = 0.5
"""Dice distance of a file's lines (:class:`~rubi.knowledge.filechange.FileChange`) from
which a note naming nothing of the file counts it as changed: half of the file
rewritten, or the file grown to three times its size. Such a note describes the file
as a whole (what it is for, how it is laid out); edits below that leave most of what it
describes in place, and an edit that rewrote a named definition is caught by name."""

MAX_CACHED_CHANGES = 4096
"""Comparisons kept in the cache; past that the cache starts again (a long-lived clone
gathers one per note file and work-tree state)."""

ChangeKey = tuple[str, str, str]
"""``(the note's commit, repository path, blob id of the work-tree file)``: what a
comparison depends on (content-addressed, so valid at any HEAD)."""


@dataclass(frozen=True, slots=True)
class Suspect:
    """A file of a note that changed after it, to judge.

    Attributes:
        note: the note's id.
        index: the file's place in the note's ``files:``.
        rel: the file, project-relative.
        repo_path: the file, from the repository's top folder.
        commit: the commit that last changed the note.
    """

    note: str
    index: int
    rel: str
    repo_path: str
    commit: str


def changed_for_note(
    project_root: Path,
    top: Path,
    suspects: Sequence[Suspect],
    note_texts: Mapping[str, str],
    changes: MutableMapping[ChangeKey, FileChange | None],
) -> list[Suspect]:
    """The ``suspects`` whose change touches what their note says.

    Args:
        project_root: the work tree the files are read from.
        top: the repository's top folder (git runs there).
        suspects: the files to judge.
        note_texts: each note's markdown by id (a note missing here names nothing).
        changes: comparisons already made, filled with the new ones (the caller caches
            it; None stands for "could not compare").

    Returns:
        The suspects that still count as changed, in their order.
    """
    if len(changes) > MAX_CACHED_CHANGES:
        changes.clear()
    keyed: list[tuple[Suspect, ChangeKey | None]] = []
    new_texts: dict[ChangeKey, bytes] = {}
    for s in suspects:
        try:
            got = read_bytes(project_root, s.rel, limit=MAX_OLD_BYTES, label=s.rel)
        except OSError:
            keyed.append((s, None))
            continue
        if got.truncated:
            keyed.append((s, None))
            continue
        key = (s.commit, s.repo_path, blob_id(got.data, s.commit))
        if key not in changes:
            new_texts[key] = got.data
        keyed.append((s, key))
    if new_texts:
        old = file_at(top, [(c, p) for c, p, _ in new_texts])
        for key, data in new_texts.items() if old is not None else ():
            before = old.get(key[:2]) if old is not None else None
            changes[key] = None if before is None else file_change(key[1], before, data)
    names: dict[str, frozenset[str]] = {}
    kept = []
    for s, maybe in keyed:
        change = changes.get(maybe) if maybe is not None else None
        if change is None:
            kept.append(s)
            continue
        if s.note not in names:
            names[s.note] = mentioned_names(note_texts.get(s.note, ""))
        named = names[s.note] & change.defined
        if named & change.touched if named else change.distance >= LARGE_CHANGE:
            kept.append(s)
    return kept
