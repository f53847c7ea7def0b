"""Whether a project can have other git worktrees, told by two looks at its ``.git``
without running git: a SessionStart hook asks it before it looks for another
worktree's handoff (:func:`rubi.app.sessionstart.session_start_context`), and a
project with one worktree never imports :mod:`rubi.knowledge.worktrees` (its
dataclasses, and the note model's: 5-6 M instructions of a cold SessionStart)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's names only for mypy: a hook imports this
if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["may_have_worktrees"]


def may_have_worktrees(project: Path) -> bool:
    """Whether ``project`` can have other worktrees, without running git (nor
    importing the module that runs it): it is a linked worktree (``.git`` is a file),
    or the main one with linked ones."""
    dot_git = project / ".git"
    return dot_git.is_file() or (dot_git / "worktrees").is_dir()
