"""The plan of a sync run: what changed on disk since the manifest, decided without
reading a note. Pure: a listing and the old manifest in, a :class:`Plan` out."""

from __future__ import annotations

from dataclasses import dataclass, field

from rubi.sync.manifest import FileEntry, VaultState
from rubi.vault.scan import FileStat, VaultListing

__all__ = ["Plan", "plan_changes"]


@dataclass
class Plan:
    """What a run must do.

    Attributes:
        to_read: note files whose size or mtime differ from the manifest (or new).
        kept: manifest entries of the files that did not change, by path.
        removed_paths: note files in the manifest that are gone.
        attachments_added / attachments_removed: non-markdown files that came or went.
    """

    to_read: list[FileStat] = field(default_factory=list)
    kept: dict[str, FileEntry] = field(default_factory=dict)
    removed_paths: list[str] = field(default_factory=list)
    attachments_added: list[str] = field(default_factory=list)
    attachments_removed: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """Nothing on disk differs from the manifest."""
        return not (
            self.to_read or self.removed_paths or self.attachments_added or self.attachments_removed
        )


def plan_changes(old: VaultState, listing: VaultListing) -> Plan:
    """Compare ``listing`` with ``old`` by (mtime, size); see :class:`Plan`."""
    plan = Plan()
    for stat in listing.notes:
        prev = old.files.get(stat.path)
        if prev is not None and (prev.mtime_ns, prev.size) == (stat.mtime_ns, stat.size):
            plan.kept[stat.path] = prev
        else:
            plan.to_read.append(stat)
    listed = {s.path for s in listing.notes}
    plan.removed_paths = sorted(p for p in old.files if p not in listed)
    before, after = set(old.attachments), set(listing.attachments)
    plan.attachments_added = sorted(after - before)
    plan.attachments_removed = sorted(before - after)
    return plan
