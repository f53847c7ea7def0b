"""A short pointer to the memory in ``CLAUDE.md`` / ``AGENTS.md``, added once."""

from __future__ import annotations

from pathlib import Path

from rubi.atomic import atomic_write_text

__all__ = ["POINTER", "POINTER_END", "POINTER_START", "add_pointer"]

POINTER_START = "<!-- rubi:start -->"
POINTER_END = "<!-- rubi:end -->"
POINTER = f"""{POINTER_START}
## Project memory (rubi)
Decisions, bugs, gotchas and how-tos live in `.rubi/` (markdown, shared in git), with a
map of the code in `.rubi/map.md`. Search it before exploring (rubi MCP `search` with
related `terms`, or `rubi search "..."`), and register what you learn (`register`).
{POINTER_END}
"""


def add_pointer(project: Path) -> list[str]:
    """Add the pointer to ``CLAUDE.md`` (created if missing) and to ``AGENTS.md`` if it
    exists; a file that already has it is left alone.

    Returns:
        The file names changed.
    """
    changed: list[str] = []
    for name, create in (("CLAUDE.md", True), ("AGENTS.md", False)):
        path = project / name
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            if not create:
                continue
            text = ""
        if POINTER_START in text:
            continue
        new = (text.rstrip("\n") + "\n\n" if text.strip() else "") + POINTER
        atomic_write_text(path, new)
        changed.append(name)
    return changed
