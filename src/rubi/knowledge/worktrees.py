"""One project, several git worktrees: what is each worktree's own, what is shared.

The decision (``docs/knowledge.md``, "Git worktrees"):

- **Notes are the branch's.** ``.rubi/notes/`` is committed; a note registered in one
  worktree reaches another when its branch is merged, like code. ``rubi doctor`` says
  when another worktree holds notes this one lacks (:func:`notes_elsewhere`).
- **The index is each worktree's own.** Derived data is keyed by the vault's resolved
  path (:func:`rubi.core.paths.index_dir_for`), so two worktrees never share one and
  each indexes its own checkout.
- **The personal vault and handoffs are the user's.** The personal vault lives outside
  every checkout; the last handoff is the newest of every worktree of the repository
  on this machine (:func:`other_vaults`, used by
  :func:`rubi.knowledge.handoff.last_handoff`), so a session in one worktree picks up
  where a session in another left off.

Other worktrees come from ``git worktree list`` (this machine's own repository data,
not the tree); a worktree's vault is read only when the walk would use it (the user's
own, not at the root, or listed in ``RUBI_SAFE_VAULTS``: :func:`rubi.core.paths.
trusted_vault`), and its files through :mod:`rubi.core.safeio` with that worktree as
the allowed root, as a project's own are.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rubi.core.model import note_id_for_path
from rubi.core.pagenames import MAP_PAGE, MODULES_DIR
from rubi.core.paths import VaultPaths
from rubi.knowledge.worktreeshape import may_have_worktrees

__all__ = ["MAX_LISTED", "OtherVault", "WorktreeNotes", "notes_elsewhere", "other_vaults"]

MAX_LISTED = 5
"""Notes named per worktree in ``rubi doctor`` (the rest are counted)."""
_NOT_KNOWLEDGE = (f"{MODULES_DIR}/", "sessions/", "handoffs/")
"""Generated pages, captured sessions and handoffs: not notes a branch must share."""


@dataclass(frozen=True, slots=True)
class OtherVault:
    """The same vault in another worktree: the worktree folder, its branch ("" when
    detached) and the vault folder there (it may not exist)."""

    worktree: Path
    branch: str
    vault: Path


@dataclass(frozen=True, slots=True)
class WorktreeNotes:
    """Notes another worktree holds that this one lacks (vault-relative paths, sorted)."""

    worktree: Path
    branch: str
    notes: list[str]


def other_vaults(paths: VaultPaths) -> list[OtherVault]:
    """This vault's counterpart in every other worktree of the project's repository
    (main worktree first); [] for a vault outside a project, or a repository with one
    worktree. A counterpart that exists and fails the walk's trust rule
    (:func:`rubi.core.paths.trusted_vault`: another user's, unless its worktree is in
    ``RUBI_SAFE_VAULTS``) is left out: its handoffs would reach the session's context."""
    project = paths.project_root
    if project is None or not may_have_worktrees(project):
        return []
    from rubi.core.gitrepo import worktrees
    from rubi.core.paths import trusted_vault

    here = os.path.realpath(project)
    rel = paths.root.relative_to(project)
    return [
        OtherVault(wt.path, wt.branch, wt.path / rel)
        for wt in worktrees(project)
        if os.path.realpath(wt.path) != here
        and (not os.path.lexists(wt.path / rel) or trusted_vault(wt.path / rel))
    ]


def _knowledge_ids(vault: Path, project: Path) -> dict[str, str]:
    from rubi.vault.scan import scan_vault

    out: dict[str, str] = {}
    for f in scan_vault(vault, project).notes:
        if f.path == MAP_PAGE or f.path.startswith(_NOT_KNOWLEDGE):
            continue
        out[note_id_for_path(f.path)] = f.path
    return out


def notes_elsewhere(paths: VaultPaths) -> list[WorktreeNotes]:
    """For each other worktree whose vault holds notes this one lacks (by note id;
    generated pages, sessions and handoffs left out), those notes."""
    others = [o for o in other_vaults(paths) if o.vault.is_dir()]
    if not others or paths.project_root is None:
        return []
    mine = _knowledge_ids(paths.root, paths.project_root)
    found: list[WorktreeNotes] = []
    for other in others:
        theirs = _knowledge_ids(other.vault, other.worktree)
        lacking = sorted(path for nid, path in theirs.items() if nid not in mine)
        if lacking:
            found.append(WorktreeNotes(other.worktree, other.branch, lacking))
    return found
