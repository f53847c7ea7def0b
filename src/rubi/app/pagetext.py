"""A vault page's text for an agent's context: read safely, frontmatter split off as
the note parser splits it, cut at a line."""

from __future__ import annotations

import re
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.core.paths import VaultPaths

__all__ = ["FM_BOUNDARY", "cut", "note_body", "page_text"]

log = get_logger(__name__)


FM_BOUNDARY = re.compile(r"^-{3,}\s*$", re.MULTILINE)
"""The frontmatter delimiter line of python-frontmatter's ``YAMLHandler``, which the
note parser (:func:`rubi.markdown.parse.split_frontmatter`) uses."""


def note_body(text: str) -> str:
    """``text`` without its frontmatter block, stripped: the body
    :func:`rubi.markdown.parse.split_frontmatter` returns for a note whose frontmatter
    parses (the test holds the two equal on real vaults), without importing the parser
    and YAML (about 80 ms a hook would pay) or parsing the block. Text that does not
    start with a ``---`` line has no frontmatter; a block that is never closed is
    text."""
    if not FM_BOUNDARY.match(text):
        return text.strip()
    parts = FM_BOUNDARY.split(text.strip(), 2)
    return parts[2].strip() if len(parts) == 3 else text.strip()


def cut(text: str, limit: int) -> str:
    """``text`` if at most ``limit`` characters, else cut at the last line break before
    ``limit`` and ended with ``…``."""
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0] + "\n…"


def page_text(paths: VaultPaths, path: Path, limit: int) -> str:
    """The text of a vault page without its frontmatter, stripped and :func:`cut` at
    ``limit`` characters; ``""`` when it is missing or refused (:mod:`rubi.core.safeio`:
    a symlink out of the project, a FIFO or device, more than ``MAX_NOTE_BYTES``).
    ``rubi index`` and ``rubi doctor`` report refused pages; a context stays quiet."""
    from rubi.core.safeio import MAX_NOTE_BYTES, UnsafeFileError, allowed_root, read_text

    allowed, where = allowed_root(paths.root, paths.project_root)
    try:
        text = read_text(allowed, path, limit=MAX_NOTE_BYTES, where=where)
    except (OSError, UnsafeFileError) as exc:
        log.debug("%s: not read for the context (%s)", path, exc)
        return ""
    return cut(note_body(text), limit)
