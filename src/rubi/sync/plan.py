"""The plan of a sync run, decided before a note is read: what kind of run it is
(:class:`RunPlan`, one frozen value) and what changed on disk since the manifest
(:class:`Plan`). Pure: flags, a listing and the old manifest in, plans out."""

from __future__ import annotations

import os
import stat as st
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from rubi.core.safeio import has_control_chars, has_surrogates
from rubi.sync.manifest import FileEntry, VaultState, racy
from rubi.vault.scan import FileStat, VaultListing

__all__ = [
    "Plan",
    "RunKind",
    "RunPlan",
    "plan_changes",
    "plan_from_changes",
    "plan_run",
    "reread_marked",
]

RunKind = Literal["streamed", "full", "incremental", "watched"]
"""``streamed``: a full build of a plain vault, each note written as it is read;
``full``: a full build of a project vault (code mapped, map pages written first);
``incremental``: the vault listed and compared with the manifest; ``watched``: the
paths a watcher reported compared with it, the vault not listed."""


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What kind of run this is and which derived data it may change, decided once
    from the caller's flags and the vault's kind (:func:`plan_run`); what the run then
    finds (notes that relink, a code map that changed shape) decides the rest.

    Attributes:
        kind: see :data:`RunKind`.
        code: the code side of the run looks at the project's code files (asked, or a
            full build); without it the manifest's code entries are kept as they are.
        project: a project vault (``.rubi/`` beside code): code and map pages.
        verify: Whoosh is checked against the manifest, compaction advice reported.
    """

    kind: RunKind
    code: bool
    project: bool
    verify: bool

    @property
    def full(self) -> bool:
        """The derived data is built afresh from the files."""
        return self.kind in ("streamed", "full")

    @property
    def streamed(self) -> bool:
        """Notes go to Whoosh and the store as they are read (memory flat in the
        vault's size); only their graph records are kept."""
        return self.kind == "streamed"

    @property
    def moves_code_nodes(self) -> bool:
        """The graph's code nodes may move from the map before the run to its new one
        (an incremental run of a project that maps code)."""
        return self.code and not self.full and self.project

    @property
    def pages_first(self) -> bool:
        """A full build of a project writes the map pages before indexing and indexes
        them with the notes (:func:`rubi.sync.pages.pages_first`)."""
        return self.kind == "full"

    @property
    def pages_in_run(self) -> bool:
        """An incremental run of a project writes the map pages before indexing, when
        the code map changed shape or the notes changed the graph, and indexes them
        with its own notes (:func:`rubi.sync.pages.pages_in_run`)."""
        return self.project and not self.full


def plan_run(*, full: bool, code: bool, verify: bool, project: bool, watched: bool) -> RunPlan:
    """The :class:`RunPlan` of a run.

    Args:
        full: build afresh (asked, or the derived data is missing or inconsistent).
        code: look at the project's code files.
        verify: check Whoosh against the manifest.
        project: the vault is a project's ``.rubi/``.
        watched: a watcher's changed paths are given (used unless ``full``).
    """
    fresh: RunKind = "full" if project else "streamed"
    kind: RunKind = fresh if full else "watched" if watched else "incremental"
    return RunPlan(kind, code=code or full, project=project, verify=verify)


@dataclass
class Plan:
    """What a run must do.

    Attributes:
        to_read: note files whose size or mtime differ from the manifest (or new),
            or that were saved too close to the manifest's listing for a stat to show
            an edit (:func:`~rubi.sync.manifest.racy`).
        kept: manifest entries of the files that did not change, by path.
        removed_paths: note files in the manifest that are gone.
        attachments_added / attachments_removed: non-markdown files that came or went.
    """

    to_read: list[FileStat] = field(default_factory=list)
    kept: dict[str, FileEntry] = field(default_factory=dict)
    removed_paths: list[str] = field(default_factory=list)
    attachments_added: list[str] = field(default_factory=list)
    attachments_removed: list[str] = field(default_factory=list)
    scanned: bool = True
    """Made from a listing of the whole vault (not from a watcher's paths)."""
    reread: frozenset[str] = frozenset()
    """Paths in :attr:`to_read` to parse again though their bytes are as stored (an
    older rubi's parse the graph cannot hold: :mod:`rubi.sync.reparse`)."""
    listed_ns: int | None = None
    """When the listing began (``time.time_ns()``); None for a watcher's paths."""

    @property
    def empty(self) -> bool:
        """Nothing on disk differs from the manifest."""
        return not (
            self.to_read or self.removed_paths or self.attachments_added or self.attachments_removed
        )


def plan_changes(old: VaultState, listing: VaultListing, listed_ns: int | None = None) -> Plan:
    """Compare ``listing`` (begun at ``listed_ns``) with ``old`` by (mtime, size); see
    :class:`Plan`."""
    plan = Plan(listed_ns=listed_ns)
    for stat in listing.notes:
        prev = old.files.get(stat.path)
        if prev is not None and _same(prev, stat, old):
            plan.kept[stat.path] = prev
        else:
            plan.to_read.append(stat)
    listed = {s.path for s in listing.notes}
    plan.removed_paths = sorted(p for p in old.files if p not in listed)
    before, after = set(old.attachments), set(listing.attachments)
    plan.attachments_added = sorted(after - before)
    plan.attachments_removed = sorted(before - after)
    return plan


def plan_from_changes(
    root: Path, old: VaultState, changed: Collection[str]
) -> tuple[Plan, list[str]] | None:
    """The plan for the paths a watcher reported (vault-relative), and the vault's
    attachments after them, without listing the vault: the work is the changed
    paths', not the vault's. None when a full scan is needed (a folder came, went or
    moved; a name that is not UTF-8 or holds a control character, which the scan
    reports and skips)."""
    plan = Plan(kept=dict(old.files), scanned=False)
    attachments = set(old.attachments)
    seen: set[str] = set()
    for raw in changed:
        rel = raw.strip("/")
        if not rel or rel in seen or any(part.startswith(".") for part in rel.split("/")):
            continue
        seen.add(rel)
        if _scanned_name(rel):
            return None  # the scan reports a bad name, and keeps one note per id
        try:
            info: os.stat_result | None = os.stat(os.path.join(root, rel))
        except OSError:
            info = None
        if info is not None and st.S_ISDIR(info.st_mode):
            return None
        if info is None and _holds(old, rel + "/"):
            return None  # a folder went away
        if rel.lower().endswith(".md"):
            prev = plan.kept.pop(rel, None)
            if info is not None and st.S_ISREG(info.st_mode):
                stat = FileStat(rel, info.st_mtime_ns, info.st_size)
                if prev is not None and _same(prev, stat, old):
                    plan.kept[rel] = prev
                else:
                    plan.to_read.append(stat)
            elif prev is not None:
                plan.removed_paths.append(rel)
        elif info is not None:
            attachments.add(rel)
        else:
            attachments.discard(rel)
    before = set(old.attachments)
    plan.attachments_added = sorted(attachments - before)
    plan.attachments_removed = sorted(before - attachments)
    plan.to_read.sort(key=lambda s: s.path)
    plan.removed_paths.sort()
    return plan, sorted(attachments)


def _same(prev: FileEntry, stat: FileStat, old: VaultState) -> bool:
    """Whether a note file is as ``old`` recorded it by its stat: the same mtime and
    size, and not saved too near ``old``'s listing to tell (:func:`racy`)."""
    return (prev.mtime_ns, prev.size) == (stat.mtime_ns, stat.size) and not racy(
        prev.mtime_ns, old.listed_ns
    )


def _holds(old: VaultState, prefix: str) -> bool:
    """Some note or attachment of ``old`` lies under the folder ``prefix`` (ends in
    ``/``): a folder of images moved to Obsidian's ``.trash`` is one event."""
    return any(p.startswith(prefix) for p in old.files) or any(
        a.startswith(prefix) for a in old.attachments
    )


def _scanned_name(rel: str) -> bool:
    """True for a path only the full scan handles: a name that is not UTF-8 or holds a
    control character (it reports and skips it), or one not in NFC (it keeps one note
    per id)."""
    return has_surrogates(rel) or has_control_chars(rel) or unicodedata.normalize("NFC", rel) != rel


def reread_marked(plan: Plan, note_ids: frozenset[str], old: VaultState) -> None:
    """Name in ``plan``'s :attr:`~Plan.reread` the notes of ``old`` whose id is in
    ``note_ids``, so they are parsed again (:mod:`rubi.sync.reparse`): kept ones move
    to :attr:`~Plan.to_read`; those read anyway (saved near the last listing) stay."""
    if not note_ids:
        return
    again = [path for path, entry in plan.kept.items() if entry.note_id in note_ids]
    for path in again:
        entry = plan.kept.pop(path)
        plan.to_read.append(FileStat(path, entry.mtime_ns, entry.size))
    plan.to_read.sort(key=lambda s: s.path)
    reading = [
        s.path
        for s in plan.to_read
        if (was := old.files.get(s.path)) is not None and was.note_id in note_ids
    ]
    plan.reread = plan.reread | frozenset(reading)
