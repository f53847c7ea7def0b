"""PreToolUse on Read: deny a whole-file read of a huge file once, with the file's
outline (symbols with their lines, from the code map) so a ranged read is one step
away. A read with a small ``limit`` always passes, and so does the same read asked
again in the session: the agent saw the outline and still wants the whole file."""

from __future__ import annotations

import os
import stat

from rubi.claude.hooks.context import HookContext
from rubi.core.tokens import tokens_for_chars

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["COUNT_BYTES", "OUTLINE_CHARS", "REMEMBERED_DENIALS", "handle", "measure"]

OUTLINE_CHARS = 2_500
"""The outline in a denial's reason takes at most this many characters (~600 tokens:
far less than the file)."""
REMEMBERED_DENIALS = 50
"""Denied reads a session remembers (the oldest are forgotten first)."""

READ_DEFAULT_LINES = 2000
"""Claude Code's Read returns this many lines when no limit is given."""
PASS_THROUGH = frozenset(
    [
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".webp",
        ".bmp",
        ".ico",
        ".tif",
        ".tiff",
        ".pdf",
        ".ipynb",
        ".heic",
        ".avif",
    ]
)
"""Images, PDFs and notebooks: Read renders them (pages, not lines); never guarded."""
COUNT_BYTES = 4 * 1024 * 1024
"""A file over the byte limit is denied whatever its lines; its lines are still counted
for the denial's text and outline, but only within this many bytes (a 16 GB log, a
1 GB file without a newline, is never read whole)."""
_CHUNK = 64 * 1024
_BINARY_PROBE = 8192
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""A FIFO's open never waits for a writer; a terminal never becomes ours."""


def measure(path: str, max_lines: int, max_bytes: int) -> tuple[int, int] | None:
    """What the guard needs to know of the file at ``path``, reading as little as that
    takes: its size in bytes and its newlines, counted only as far as they matter.

    - A file of at most ``max_lines`` bytes cannot have more lines: nothing is read.
    - A file of at most ``max_bytes`` bytes is read until ``max_lines + 1`` newlines
      are seen (then it is over the limit) or to its end.
    - A larger file is over the limit whatever its lines: they are counted within
      :data:`COUNT_BYTES` only; 0 when that did not reach its end (unknown).

    Returns:
        ``(size, lines)``; None when the guard has nothing to say: the file cannot be
        opened, is not a regular file (a FIFO, a device), or is binary (a NUL in its
        first 8 KiB).
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        size = st.st_size
        if size <= max_lines:
            return size, 0
        head = os.read(fd, _BINARY_PROBE)
        if b"\x00" in head:
            return None  # binary: Read shows what it can; lines mean nothing
        if size <= max_bytes:
            return size, _newlines(fd, head, stop_after=max_lines + 1, budget=max_bytes)
        lines = _newlines(fd, head, stop_after=None, budget=COUNT_BYTES)
        return size, max(lines, 0)
    except OSError:
        return None
    finally:
        os.close(fd)


def _newlines(fd: int, head: bytes, *, stop_after: int | None, budget: int) -> int:
    """Newlines in ``head`` and what follows it on ``fd``, reading at most ``budget``
    bytes in all; stops once ``stop_after`` are counted. -1 when the budget ran out
    before the end of the file (the count is unknown)."""
    count = head.count(b"\n")
    spent = len(head)
    while stop_after is None or count < stop_after:
        if spent >= budget:
            return count if stop_after is not None else -1
        chunk = os.read(fd, min(_CHUNK, budget - spent))
        if not chunk:
            break
        spent += len(chunk)
        count += chunk.count(b"\n")
    return count


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Deny, with a reason Claude reads, or say nothing (the read goes ahead).

    A read is guarded when it would return more than ``guard_max_lines`` lines (no
    ``limit`` means Claude Code's default of 2,000) of a file over the line or byte
    limit. Images, PDFs (``pages``), notebooks and binary files pass.
    """
    if ctx.event.tool_name != "Read":
        return None
    args = ctx.event.tool_input
    path = str(args.get("file_path") or "")
    if not path or os.path.splitext(path)[1].lower() in PASS_THROUGH or args.get("pages"):
        return None
    limits = ctx.settings
    limit = args.get("limit")
    span = limit if isinstance(limit, int) and limit > 0 else READ_DEFAULT_LINES
    if span <= limits.guard_max_lines:
        return None  # a ranged read of a reasonable size
    if not os.path.isabs(path):
        path = os.path.join(str(ctx.cwd), path)
    measured = measure(path, limits.guard_max_lines, limits.guard_max_bytes)
    if measured is None:
        return None
    size, lines = measured
    if size <= limits.guard_max_bytes and lines <= limits.guard_max_lines:
        return None
    key = f"{os.path.realpath(path)}|{args.get('offset')}|{limit}"
    with ctx.session_state() as state:
        if key in state.guard_denied:
            state.guard_denied.remove(key)  # asked again: let it through, once
            return None
        state.guard_denied = [*state.guard_denied, key][-REMEMBERED_DENIALS:]
    # Under the byte limit the count stops at the first line past the line limit: a
    # lower bound, said as one.
    counted = lines > limits.guard_max_lines and size <= limits.guard_max_bytes
    return _deny(ctx, path, size, lines, limits.guard_max_lines if counted else None)


def _outline(ctx: HookContext, path: str, lines: int) -> str:
    """The file's symbols with their lines, as a few lines of text ("" when unmapped)."""
    if ctx.vault is None:
        return ""
    from rubi.app.fileoutline import outline_lines, symbol_ranges

    ranges = symbol_ranges(ctx.vault, path, lines)
    if not ranges:
        return ""
    return "\nIts symbols (from rubi's code map):\n" + "\n".join(
        outline_lines(ranges, OUTLINE_CHARS)
    )


def _deny(
    ctx: HookContext, path: str, size: int, lines: int, over: int | None = None
) -> dict[str, Any]:
    """The denial; ``over``: the line limit the count stopped past (its lines are then
    "more than" it), else ``lines`` is the whole count (0: unknown)."""
    if over is not None:
        shape = f"more than {over:,} lines, "
    else:
        shape = f"{lines:,} lines, " if lines else ""
    reason = (
        f"{os.path.basename(path)} is large ({shape}{size / 1000:,.0f} KB); reading it whole "
        f"costs about {tokens_for_chars(size):,} tokens of context. Read the part you need "
        "with offset and limit (e.g. offset=1, limit=200), or find it first with Grep. "
        "Asking for the whole file again reads it."
    ) + _outline(ctx, path, lines)
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
