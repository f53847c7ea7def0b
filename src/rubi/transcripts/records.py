"""Read the fields of transcript records: timestamps, usage, text sizes, attachments.

Every key is optional in the transcript format; these helpers return zeros or None
instead of failing.
"""

from __future__ import annotations

from rubi.core.tokens import CHARS_PER_TOKEN, tokens_for_chars
from rubi.transcripts.events import Attachment, Usage
from rubi.transcripts.settings import IMAGE_TOKENS

TYPE_CHECKING = False  # typing costs a hook ~2 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["attachment_event", "parse_time", "text_chars", "tokens_of", "usage_from"]

_INJECTING_HOOK_EVENTS = frozenset({"SessionStart", "UserPromptSubmit"})
"""Hook events whose plain-text stdout Claude Code adds to the context."""


def parse_time(value: object) -> float | None:
    """POSIX seconds of an ISO-8601 timestamp such as ``2025-09-03T00:47:19.293Z``.

    Args:
        value: the ``timestamp`` field of a line (any type).

    Returns:
        Seconds since the epoch, or None when the value is missing or malformed.
    """
    if not isinstance(value, str):
        return None
    # Imported here: the cost line of a session rubi was not active in (SessionStart,
    # :mod:`rubi.claude.hooks.costline`) reads no timestamp, and ``datetime``'s import
    # runs the pure-Python module before ``_datetime`` replaces it.
    from datetime import datetime

    try:
        return datetime.fromisoformat(value).timestamp()
    except ValueError:
        return None


def _int(value: object) -> int:
    return value if isinstance(value, int) and value > 0 else 0


def usage_from(raw: object) -> Usage:
    """Build a :class:`Usage` from a ``message.usage`` object.

    Args:
        raw: the parsed ``usage`` value; every key is optional. When the
            ``cache_creation`` split is absent (older files), all cache writes count
            as 5-minute writes.

    Returns:
        The usage; all zeros when ``raw`` is not an object.
    """
    if not isinstance(raw, dict):
        return Usage()
    write_total = _int(raw.get("cache_creation_input_tokens"))
    split = raw.get("cache_creation")
    write_1h = _int(split.get("ephemeral_1h_input_tokens")) if isinstance(split, dict) else 0
    write_1h = min(write_1h, write_total)
    return Usage(
        input=_int(raw.get("input_tokens")),
        cache_write_5m=write_total - write_1h,
        cache_write_1h=write_1h,
        cache_read=_int(raw.get("cache_read_input_tokens")),
        output=_int(raw.get("output_tokens")),
    )


def text_chars(value: object) -> int:
    """Characters of text in a content value.

    Args:
        value: a string, or a list of strings and content blocks (``text``,
            ``tool_result`` with nested content, ``image`` counted as
            ``IMAGE_TOKENS`` tokens); anything else counts 0.

    Returns:
        The number of characters (images as their token estimate x 4).
    """
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        total = 0
        for item in value:
            if isinstance(item, str):
                total += len(item)
            elif isinstance(item, dict):
                kind = item.get("type")
                if kind == "image":
                    total += IMAGE_TOKENS * CHARS_PER_TOKEN
                elif kind == "text":
                    total += text_chars(item.get("text"))
                elif kind == "tool_result":
                    total += text_chars(item.get("content"))
        return total
    return 0


def tokens_of(chars: int) -> int:
    """Estimated tokens of ``chars`` characters (see :func:`rubi.core.tokens.tokens_for_chars`)."""
    return tokens_for_chars(chars)


def attachment_event(attachment: dict[str, Any], index: int) -> Attachment | None:
    """The context an ``attachment`` record added, or None when it added none.

    Args:
        attachment: the record's ``attachment`` object.
        index: API calls of the chain before it.

    Returns:
        An :class:`Attachment` sized in tokens; hook runs whose output was JSON (its
        ``additionalContext`` has its own record) or went only to the debug log
        give None.
    """
    kind = str(attachment.get("type") or "unknown")
    name = str(attachment.get("hookName") or attachment.get("hookEvent") or "")
    if kind == "hook_success":
        stdout = attachment.get("stdout")
        injected = attachment.get("hookEvent") in _INJECTING_HOOK_EVENTS
        if not (injected and isinstance(stdout, str) and stdout.strip()):
            return None
        if stdout.lstrip().startswith("{"):
            return None  # JSON output: its additionalContext has its own record
        chars = len(stdout)
    else:
        chars = text_chars(attachment.get("content")) + text_chars(attachment.get("addedLines"))
    if chars == 0:
        return None
    return Attachment(kind, name, tokens_of(chars), index)
