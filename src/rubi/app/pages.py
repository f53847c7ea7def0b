"""A vault page's text for an agent's context: read safely, frontmatter split off by the
note parser, cut at a line."""

from __future__ import annotations

import logging
from pathlib import Path

from rubi.core.paths import VaultPaths

__all__ = ["cut", "page_text"]

log = logging.getLogger(__name__)


def cut(text: str, limit: int) -> str:
    """``text`` if at most ``limit`` characters, else cut at the last line break before
    ``limit`` and ended with ``…``."""
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0] + "\n…"


def page_text(paths: VaultPaths, path: Path, limit: int) -> str:
    """The text of a vault page without its frontmatter, stripped and :func:`cut` at
    ``limit`` characters; ``""`` when it is missing or refused (:mod:`rubi.core.safeio`:
    a symlink out of the project, a FIFO or device, more than ``MAX_NOTE_BYTES``).
    ``rubi index`` and ``rubi doctor`` report refused pages; a context stays quiet."""
    from rubi.app.recall import note_body
    from rubi.core.config import MAX_NOTE_BYTES
    from rubi.core.safeio import UnsafeFileError, allowed_root, read_text

    allowed, where = allowed_root(paths.root, paths.project_root)
    try:
        text = read_text(allowed, path, limit=MAX_NOTE_BYTES, where=where)
    except (OSError, UnsafeFileError) as exc:
        log.debug("%s: not read for the context (%s)", path, exc)
        return ""
    return cut(note_body(text, path.name).strip(), limit)
