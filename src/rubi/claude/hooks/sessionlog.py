"""The session record in ``.rubi/sessions/<date>-<session>.md``: captured turns
(redacted) and pre-compaction records. Git-ignored, searchable with
``scope="sessions"``."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import overload

from rubi.core.paths import VaultPaths
from rubi.core.safepaths import require_inside

__all__ = ["SESSIONS_DIR", "append", "session_file"]

SESSIONS_DIR = "sessions"


@overload
def session_file(vault: VaultPaths, session_id: str, now: float | None = None) -> Path: ...
@overload
def session_file(
    vault: VaultPaths, session_id: str, now: float | None = None, *, create: bool
) -> Path | None: ...


def session_file(
    vault: VaultPaths, session_id: str, now: float | None = None, *, create: bool = True
) -> Path | None:
    """The record file of ``session_id``, created with its frontmatter if missing
    (None when missing and ``create`` is False).

    Raises:
        UnsafePathError: ``sessions/`` or the record is a symlink that leads out of the
            project (a cloned tree would otherwise receive the conversation).
    """
    root = vault.project_root or vault.root
    folder = require_inside(root, vault.root / SESSIONS_DIR, what=SESSIONS_DIR + "/")
    short = re.sub(r"[^A-Za-z0-9-]", "", session_id)[:36] or "unknown"
    existing = sorted(folder.glob(f"????-??-??-{short}.md")) if folder.is_dir() else []
    if existing:
        return require_inside(root, existing[0], what=existing[0].name)
    if not create:
        return None
    when = time.gmtime(now if now is not None else time.time())
    day = time.strftime("%Y-%m-%d", when)
    path = folder / f"{day}-{short}.md"
    folder.mkdir(parents=True, exist_ok=True)
    header = (
        "---\ntype: note\ntags: [session]\n"
        f"session_id: {session_id or 'unknown'}\n"
        f"created: '{time.strftime('%Y-%m-%dT%H:%M:%SZ', when)}'\n---\n"
        f"# Session {day} {short}\n"
    )
    try:
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(header)
    except FileExistsError:
        pass
    return path


def append(path: Path, text: str) -> None:
    """Append a block (appends of a few kilobytes land whole on local file systems)."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("\n" + text.rstrip("\n") + "\n")
