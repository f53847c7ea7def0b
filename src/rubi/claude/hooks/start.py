"""SessionStart: bring the index up to date (nothing changed: nothing done), then give
Claude the level-0 map; after ``/compact`` or ``/clear``, the last handoff and the
latest session record instead."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

from rubi.claude.hooks.context import HookContext
from rubi.claude.hooks.sessionlog import SESSIONS_DIR, session_file
from rubi.core.config import MAP_PAGE, MAX_NOTE_BYTES
from rubi.core.paths import VaultPaths
from rubi.core.safeio import UnsafeFileError, allowed_root, read_text

__all__ = ["MAX_CONTEXT_CHARS", "handle"]

log = logging.getLogger(__name__)

MAX_CONTEXT_CHARS = 9_000
"""Claude Code replaces hook output over 10,000 characters by a file path."""
HOOK_LOCK_WAIT_S = 1.0
"""A hook never waits long for another index run."""
HANDOFF_CHARS = 4_000
RECORD_CHARS = 3_000


def _read(vault: VaultPaths, path: Path, limit: int) -> str:
    """The text of a vault page for the context, without its frontmatter, cut at
    ``limit`` characters; "" when it is missing or refused (:mod:`rubi.core.safeio`: a
    symlink out of the project, a FIFO or device, more than ``MAX_NOTE_BYTES``).
    ``rubi index`` and ``rubi doctor`` report refused pages; a hook stays quiet."""
    allowed, where = allowed_root(vault.root, vault.project_root)
    try:
        text = read_text(allowed, path, limit=MAX_NOTE_BYTES, where=where)
    except (OSError, UnsafeFileError) as exc:
        log.debug("%s: not read for the context (%s)", path, exc)
        return ""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end > 0:
            text = text[end + 5 :]
    text = text.strip()
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0] + "\n…"


def _newest(folder: Path) -> Path | None:
    """The most recently modified page in ``folder`` (a broken link is passed over)."""
    pages: list[tuple[int, str, Path]] = []
    for page in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        try:
            pages.append((page.stat().st_mtime_ns, page.name, page))
        except OSError:
            continue
    return max(pages)[2] if pages else None


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """``additionalContext`` with the map (or the handoff after compact/clear)."""
    if ctx.vault is None:
        return None
    from filelock import Timeout

    from rubi.sync import index_vault

    with contextlib.suppress(Timeout):  # another run is indexing: answer from what is there
        index_vault(ctx.vault, verify=False, code=True, lock_timeout_s=HOOK_LOCK_WAIT_S)
    root = ctx.vault.root
    source = str(ctx.payload.get("source") or "startup")
    parts: list[str] = []
    handoff = _newest(root / "handoffs")
    if source in ("compact", "clear"):
        if handoff is not None:
            parts.append(
                f"Last handoff (.rubi/handoffs/{handoff.name}):\n"
                + _read(ctx.vault, handoff, HANDOFF_CHARS)
            )
        record = session_file(ctx.vault, ctx.session_id, create=False)
        if record is not None:
            text = _read(ctx.vault, record, 100_000)
            tail = text[text.rfind("## Record") :] if "## Record" in text else ""
            if tail:
                parts.append(
                    f"Latest session record (.rubi/{SESSIONS_DIR}/{record.name}):\n"
                    + tail[-RECORD_CHARS:]
                )
    if not parts:
        body = _read(ctx.vault, root / MAP_PAGE, MAX_CONTEXT_CHARS)
        if body:
            parts.append("Project memory (rubi, .rubi/map.md):\n" + body)
        if handoff is not None:
            parts.append(
                f"A handoff from an earlier session is in .rubi/handoffs/{handoff.name} "
                "(the rubi handoff tool with action=last shows it)."
            )
    if not parts:
        return None
    return {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "\n\n".join(parts)[:MAX_CONTEXT_CHARS],
        }
    }
