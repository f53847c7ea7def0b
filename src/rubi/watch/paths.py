"""Which file events the watcher reacts to, and what a batch of them means: a path
relative to the vault (through its symlinks) or to the project, kept or ignored by the
indexer's own rules (:mod:`rubi.core.treerules`) plus editor temp files."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubi.core.paths import VaultPaths
from rubi.core.treerules import code_path_skipped, editor_noise, vault_path_skipped

__all__ = [
    "Batch",
    "Links",
    "classify",
    "event_filter",
    "ignored",
    "ignored_code",
    "linked_folders",
]


def ignored(path: str) -> bool:
    """True for a vault-relative path the watcher never reacts to: one the indexer
    skips (:func:`rubi.core.treerules.vault_path_skipped`: hidden files and folders,
    ``SKIP_DIRS``), or an editor's temp file (:func:`rubi.core.treerules.editor_noise`).
    Folders above the vault do not count: a vault under ``build/`` is watched."""
    name = path.replace("\\", "/").rstrip("/").rpartition("/")[2]
    return vault_path_skipped(path) or editor_noise(name)


def ignored_code(path: str) -> bool:
    """True for a project-relative path whose change cannot touch the code map: under a
    folder the code listing skips (:data:`rubi.core.treerules.CODE_SKIP_DIRS`), or an
    editor's temp file."""
    name = path.replace("\\", "/").rstrip("/").rpartition("/")[2]
    return code_path_skipped(path) or editor_noise(name)


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


Links = tuple[tuple[Path, str], ...]
"""Symlinks inside a vault, to folders or to note files: (resolved target,
vault-relative link path)."""


def linked_folders(root: Path, project: Path | None = None) -> Links:
    """The symlinks inside the vault at ``root`` that the scan follows (their targets
    are inside the project, or the vault), with their resolved targets: folders
    (``.rubi/notes`` → ``design/notes``) and note files (``.rubi/api.md`` →
    ``design/api.md``). An event on a target is a change of the vault at the link's
    path, as the scan lists it."""
    found: list[tuple[Path, str]] = []
    base = root.resolve()
    allowed = (project or root).resolve()
    for folder, dirs, files in os.walk(base):
        for name in list(dirs):
            path = Path(folder) / name
            if path.is_symlink():
                rel = path.relative_to(base).as_posix()
                target = path.resolve()
                if not ignored(rel + "/x") and _relative(target, allowed) is not None:
                    found.append((target, rel))
                dirs.remove(name)  # a link is not walked into (no loops)
            elif ignored(Path(folder, name).relative_to(base).as_posix() + "/x"):
                dirs.remove(name)
        for name in files:
            path = Path(folder) / name
            if path.is_symlink() and name.lower().endswith(".md"):
                rel = path.relative_to(base).as_posix()
                target = path.resolve()
                if not ignored(rel) and _relative(target, allowed) is not None:
                    found.append((target, rel))
    return tuple(found)


def _through_links(path: Path, links: Links) -> list[str]:
    """The vault paths at which the real ``path`` is seen through ``links``."""
    seen: list[str] = []
    for target, link in links:
        inner = _relative(path, target)
        if inner is not None:
            seen.append(link if inner == "." else f"{link}/{inner}")
    return seen


def _real_folder(raw: str) -> Path:
    """``raw`` with its folder resolved and its own name kept: an event on a symlink
    in the vault is the link's, not its target's."""
    path = Path(raw)
    return path.parent.resolve() / path.name


def is_link(path: Path) -> bool:
    """Whether ``path`` is a symlink; False when it cannot be read."""
    try:
        return path.is_symlink()
    except OSError:
        return False


def _place(raw: str, root: Path, project: Path | None, links: Links = ()) -> tuple[str, str] | None:
    """``("vault", rel)`` or ``("code", rel)`` for an event's absolute path, None when
    the watcher ignores it; each rule sees the path relative to its own root. A path
    under the target of a vault symlink (``links``) is the vault's."""
    path = _real_folder(raw)
    rel = _relative(path, root)
    if rel is None:
        linked = _through_links(path, links)
        rel = linked[0] if linked else None
    if rel is not None:
        return None if ignored(rel) else ("vault", rel)
    prel = _relative(path, project) if project is not None else None
    if prel is None or ignored_code(prel):
        return None
    return "code", prel


def event_filter(
    vault: VaultPaths, links: Links | Callable[[], Links] = ()
) -> Callable[[Any, str], bool]:
    """The ``watch_filter`` for :func:`watchfiles.watch`: keeps the events
    :func:`classify` would not ignore (paths made relative to the vault or project).
    ``links``: the vault's symlinks, or a function giving the current ones."""
    root = vault.root.resolve()
    project = vault.project_root.resolve() if vault.project_root else None
    current = links if callable(links) else lambda: links
    return lambda change, path: _place(path, root, project, current()) is not None


@dataclass
class Batch:
    """What one debounced batch of events means for the index.

    Attributes:
        vault_paths: changed paths inside the vault, vault-relative.
        code: something outside the vault changed (the code map must look).
        code_paths: those changes, project-relative.
        events: how many events the batch held.
    """

    vault_paths: set[str] = field(default_factory=set)
    code: bool = False
    code_paths: set[str] = field(default_factory=set)
    events: int = 0


def classify(
    changes: Iterable[tuple[Any, str]], vault: VaultPaths, links: Links = ()
) -> Batch | None:
    """Sort a batch of ``(change, absolute path)`` events; None when all are ignored.
    ``links``: the vault's symlinked folders (:func:`linked_folders`)."""
    batch = Batch()
    root = vault.root.resolve()
    project = vault.project_root.resolve() if vault.project_root else None
    for _, raw in changes:
        place = _place(raw, root, project, links)
        if place is None:
            continue
        if place[0] == "vault":
            batch.vault_paths.add(place[1])
            # the same file seen through a link elsewhere in the vault changed too
            batch.vault_paths.update(
                rel for rel in _through_links(Path(raw).resolve(), links) if not ignored(rel)
            )
        else:
            batch.code = True
            batch.code_paths.add(place[1])
        batch.events += 1
    return batch if batch.events else None
