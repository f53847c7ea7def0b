"""A short pointer to the memory in ``CLAUDE.md`` / ``AGENTS.md``, added once."""

from __future__ import annotations

from pathlib import Path

from rubi.core.atomic import atomic_write_text
from rubi.core.errors import RubiError
from rubi.core.safeio import read_bytes

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

    Raises:
        RubiError: a file is refused by :mod:`rubi.core.safeio` (a symlink that leads out of
            the project, a FIFO or device), is over 1 MB or is not UTF-8: it is left as
            it is, since rewriting it could lose text or copy a file from elsewhere.
    """
    changed: list[str] = []
    for name, create in (("CLAUDE.md", True), ("AGENTS.md", False)):
        path = project / name
        try:
            text = _read(project, name)
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


MAX_AGENT_DOC_BYTES = 1_000_000
"""A ``CLAUDE.md`` larger than this is not rewritten (it would be cut)."""


def _read(project: Path, name: str) -> str:
    """The text of ``project/name`` through :mod:`rubi.core.safeio`.

    Raises:
        FileNotFoundError: it does not exist.
        RubiError: refused, too large, not UTF-8, or unreadable.
    """
    try:
        got = read_bytes(project, name, limit=MAX_AGENT_DOC_BYTES)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise RubiError(f"{name}: cannot be read ({exc.strerror}); check its permissions") from exc
    if got.truncated:
        raise RubiError(f"{name}: larger than 1 MB; add the rubi pointer by hand")
    try:
        return got.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RubiError(
            f"{name}: not valid UTF-8 (byte {exc.start}); fix it, rubi will not rewrite it"
        ) from exc
