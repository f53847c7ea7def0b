"""The current context size of a live Claude Code session, read from the end of its
transcript (never the whole file: transcripts grow to hundreds of megabytes).

Algorithm (shared/docs, "Current context size"): the ``usage`` of the last main-chain
assistant line that is not an API error, ``input + cache_creation + cache_read``;
unknown after a compaction boundary until the next such line.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "MAX_TAIL_BYTES",
    "TAIL_CHUNK_BYTES",
    "current_context",
    "current_reading",
    "last_answer_id",
]

TAIL_CHUNK_BYTES = 64 * 1024
MAX_TAIL_BYTES = 8 * 1024 * 1024
"""Read at most this much from the end: a main-chain answer is always much closer."""


def _usage_total(line: dict[str, object]) -> int | None:
    message = line.get("message")
    if not isinstance(message, dict):
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict) or message.get("model") == "<synthetic>":
        return None

    def n(key: str) -> int:
        value = usage.get(key)
        return int(value) if isinstance(value, (int, float)) else 0

    return n("input_tokens") + n("cache_creation_input_tokens") + n("cache_read_input_tokens")


def _verdict(raw: bytes) -> tuple[int, str] | bool | None:
    """The context size this line settles and the model that answered, None if it
    settles "unknown", False if the line says nothing."""
    try:
        line = json.loads(raw)
    except ValueError:
        return False
    if not isinstance(line, dict):
        return False
    if line.get("type") == "system" and line.get("subtype") == "compact_boundary":
        return None
    if line.get("type") != "assistant" or line.get("isSidechain") or line.get("isApiErrorMessage"):
        return False
    total = _usage_total(line)
    if total is None:
        return False
    message = line.get("message")
    model = message.get("model") if isinstance(message, dict) else None
    return total, model if isinstance(model, str) else ""


def current_context(path: Path) -> int | None:
    """Tokens in the session's context now, or None when unknown (no answer yet, just
    compacted, unreadable file).
    """
    return current_reading(path)[0]


def current_reading(path: Path) -> tuple[int | None, str]:
    """Tokens in the session's context now (None when unknown: no answer yet, just
    compacted, unreadable file) and the model id of the answer that says so (``""``
    when unknown)."""
    for raw in _backwards(path):
        verdict = _verdict(raw)
        if verdict is False:
            continue
        return verdict if isinstance(verdict, tuple) else (None, "")
    return None, ""


def last_answer_id(path: Path) -> str:
    """The ``uuid`` of the transcript's last main-chain assistant line (the answer a
    Stop hook reports), ``""`` when none is found within :data:`MAX_TAIL_BYTES` of the
    end or the file cannot be read."""
    for raw in _backwards(path):
        if b'"assistant"' not in raw:
            continue
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(line, dict) or line.get("type") != "assistant":
            continue
        if line.get("isSidechain"):
            continue
        uuid = line.get("uuid")
        return uuid if isinstance(uuid, str) else ""
    return ""


def _backwards(path: Path) -> Iterator[bytes]:
    """The file's non-blank lines, last first, within :data:`MAX_TAIL_BYTES` of its end
    (nothing for a file that is not a regular file or cannot be read)."""
    try:  # a FIFO's open must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        end = fh.seek(0, os.SEEK_END)
        pos, carry, read = end, b"", 0
        while pos > 0 and read < MAX_TAIL_BYTES:
            step = min(TAIL_CHUNK_BYTES, pos)
            pos -= step
            fh.seek(pos)
            chunk = fh.read(step) + carry
            read += step
            lines = chunk.split(b"\n")
            carry = lines[0] if pos > 0 else b""
            for raw in reversed(lines[1:] if pos > 0 else lines):
                if raw.strip():
                    yield raw
