"""Which notes git shares: the committed map pages list only those.

A note git ignores (a handoff under ``handoffs/``, whose ``.gitignore`` keeps each
person's own; a captured session under ``sessions/``) is personal: a page that linked
it would differ between two clones of one commit, and the first command in a
teammate's clone would rewrite it (a dirty work tree). The rules are the vault's own
``.gitignore`` files, from the vault folder down to the note's folder, matched the way
git matches them (:mod:`rubi.codemap.gitignore`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PurePosixPath

from rubi.codemap.gitignore import IgnoreRules, parse_gitignore
from rubi.core.safeio import UnsafeFileError, read_text

__all__ = ["GITIGNORE_LIMIT", "shared_note"]

GITIGNORE_LIMIT = 256 * 1024
"""Bytes of a ``.gitignore`` read (the rest of a bigger one is left out)."""


def shared_note(vault: Path) -> Callable[[str], bool]:
    """A test of note ids: True when git would share the note's file.

    Args:
        vault: the vault folder.

    Returns:
        ``shared(note_id)``: False when the vault's ``.gitignore`` files ignore
        ``<note_id>.md`` or a folder above it. A ``.gitignore`` that cannot be read
        (missing, a link out of the vault) adds no rules.
    """
    cache: dict[str, IgnoreRules] = {}

    def rules_for(folder: str) -> IgnoreRules:
        if folder in cache:
            return cache[folder]
        rules = IgnoreRules()
        parts = PurePosixPath(folder).parts if folder else ()
        for depth in range(len(parts) + 1):
            base = "/".join(parts[:depth])
            text = _gitignore(vault, base)
            if text:
                rules.add(parse_gitignore(text, base))
        cache[folder] = rules
        return rules

    def shared(note_id: str) -> bool:
        path = PurePosixPath(note_id + ".md")
        folder = "" if str(path.parent) == "." else str(path.parent)
        rules = rules_for(folder)
        parents = [p for p in reversed(path.parents) if str(p) != "."]
        if any(rules.ignored(str(p), is_dir=True) for p in parents):
            return False
        return not rules.ignored(str(path), is_dir=False)

    return shared


def _gitignore(vault: Path, base: str) -> str:
    path = vault / base / ".gitignore" if base else vault / ".gitignore"
    try:
        return read_text(vault, path, limit=GITIGNORE_LIMIT, label=f"{base}/.gitignore")
    except (OSError, UnsafeFileError):
        return ""
