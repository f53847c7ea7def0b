"""The hook JSON's path-like values, checked before any handler uses them.

Claude Code sends ``session_id``, ``transcript_path`` and ``cwd`` with every hook
event. rubi names files after the first (a state file, a session record whose
frontmatter holds it), reads the second and looks for a vault above the third, so
each is checked once, here, and a value that fails is dropped (hooks fail open: the
handler then does what it does without it):

- ``session_id``: a short run of letters, digits, ``-`` and ``_`` (Claude Code's are
  UUIDs), so it can neither leave the state folder nor add lines to a record;
- ``transcript_path``: an absolute path to an existing regular ``.jsonl`` file (never
  a FIFO or a device, which would block or never end);
- ``cwd``: an absolute path to an existing folder.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any

    SESSION_ID_RE: Pattern[str]  # module ``__getattr__``: compiled when first asked for

__all__ = ["SESSION_ID_RE", "clean_payload", "session_id", "transcript_path", "working_dir"]

_SESSION_ID = r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}"
"""What a session id may look like: it becomes part of file names and a frontmatter
value, so no separators, dots, spaces or line breaks (:data:`SESSION_ID_RE`)."""

_session_id_re: Pattern[str] | None = None

_CONTROL = dict.fromkeys([*range(0x20), 0x7F])
"""Control characters (U+0000-U+001F, U+007F), as a ``str.translate`` table that
deletes them (lone surrogates: :func:`_has_surrogate`). Not a pattern: a hook that
the engine answers checks its ``cwd`` here and imports no ``re`` (``enum``,
``functools``, ``collections``: 6 ms of CPU; :mod:`rubi.core.jsonline`)."""


def _session_pattern() -> Pattern[str]:
    global _session_id_re
    if _session_id_re is None:
        import re

        _session_id_re = re.compile(_SESSION_ID)
    return _session_id_re


def __getattr__(name: str) -> Any:
    """:data:`SESSION_ID_RE` (the compiled session id pattern), compiled when first
    asked for."""
    if name == "SESSION_ID_RE":
        return _session_pattern()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _has_surrogate(value: str) -> bool:
    """Whether ``value`` holds a lone surrogate (no UTF-8 encoding)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def session_id(value: Any) -> str:
    """``value`` when it is a usable session id (:data:`SESSION_ID_RE`), else ``""``."""
    return value if isinstance(value, str) and _session_pattern().fullmatch(value) else ""


def _absolute(value: Any) -> str | None:
    if (
        not isinstance(value, str)
        or not value
        or len(value.translate(_CONTROL)) != len(value)
        or _has_surrogate(value)
    ):
        return None
    return value if os.path.isabs(value) else None


def transcript_path(value: Any) -> str | None:
    """``value`` when it names an existing regular ``.jsonl`` file by an absolute path."""
    path = _absolute(value)
    if path is None or not path.endswith(".jsonl"):
        return None
    try:
        return path if stat.S_ISREG(os.stat(path).st_mode) else None
    except (OSError, ValueError):
        return None


def transcript_name(value: Any) -> str | None:
    """``value`` when it names a ``.jsonl`` file by an absolute path, written yet or not
    (a ``claude -p`` session's transcript is written after its servers are stopped)."""
    path = _absolute(value)
    return path if path is not None and path.endswith(".jsonl") else None


def working_dir(value: Any) -> str | None:
    """``value`` when it names an existing folder by an absolute path."""
    path = _absolute(value)
    return path if path is not None and os.path.isdir(path) else None


def clean_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``payload`` whose ``session_id``, ``transcript_path`` and ``cwd`` are
    usable or absent (``session_id`` ``""``)."""
    out = dict(payload)
    out["session_id"] = session_id(payload.get("session_id"))
    for key, check in (("transcript_path", transcript_path), ("cwd", working_dir)):
        value = check(payload.get(key))
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out
