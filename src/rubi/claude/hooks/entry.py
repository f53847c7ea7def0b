"""``rubi hook <event>``: read the hook JSON on stdin, answer on stdout, fail open.

Events (Claude Code names or kebab-case): SessionStart, UserPromptSubmit,
PreToolUse, PostToolUse, Stop, PreCompact, SessionEnd. Exit status is always 0; an
internal error is logged with its traceback and the hook prints nothing.
"""

from __future__ import annotations

import importlib
import sys
import time

from rubi.core.jsonline import dumps, loads

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any, TextIO

    from rubi.core.vaultwalk import VaultWalk

__all__ = ["HANDLERS", "main", "respond", "run"]

HANDLERS = {
    "sessionstart": "rubi.claude.hooks.start",
    "userpromptsubmit": "rubi.claude.hooks.recall",
    "pretooluse": "rubi.claude.hooks.tooluse",
    "posttooluse": "rubi.claude.hooks.meter",
    "stop": "rubi.claude.hooks.stop",
    "precompact": "rubi.claude.hooks.record",
    "sessionend": "rubi.claude.hooks.end",
}
"""Event (:func:`rubi.claude.hooks.event.event_key`) → handler module with
``handle(context) -> dict | None``."""


def run(
    event: str, payload: dict[str, Any], walk: VaultWalk | None = None
) -> dict[str, Any] | None:
    """Handle one event (no error handling: :func:`main` adds it): ``payload`` is parsed
    once into a :class:`~rubi.claude.hooks.event.HookEvent`, which the handler reads;
    ``walk``, a vault walk taken already (by the engine or its client), spares the
    handler its own when it started from the hook's folder
    (:func:`~rubi.claude.hooks.context.open_context`).

    Raises:
        KeyError: an unknown event.
    """
    from rubi.claude.hooks.context import open_context
    from rubi.claude.hooks.event import event_key

    module = importlib.import_module(HANDLERS[event_key(event)])
    result: dict[str, Any] | None = module.handle(open_context(payload, event, walk=walk))
    return result


def _log_failure(payload: dict[str, Any], event: str, reason: str | None = None) -> None:
    """Append to hooks.log the current exception's traceback, or ``reason`` alone (one
    line: bad input, not an internal error)."""
    try:
        import traceback
        from pathlib import Path

        from rubi.claude.hooks.context import log_file
        from rubi.claude.hooks.payload import working_dir
        from rubi.core.paths import find_vault

        try:
            vault = find_vault(cwd=Path(working_dir(payload.get("cwd")) or "."))
        except Exception:
            vault = None
        path = log_file(vault)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as fh:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
            detail = traceback.format_exc() if reason is None else reason + "\n"
            fh.write(f"{stamp} {event}: failed\n{detail}\n")
    except Exception:  # fail open, even when the log cannot be written
        pass


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the hook named by ``argv[0]`` (or by the payload's ``hook_event_name``).
    A payload that is not JSON (or not UTF-8) is bad input: one line on stderr and in
    hooks.log, no traceback, nothing on stdout.

    Returns:
        0, always: hooks fail open.
    """
    stdin = stdin or sys.stdin
    event = argv[0] if argv else ""
    try:
        raw = stdin.read()
        loaded = loads(raw) if raw.strip() else {}
    except ValueError as exc:  # json's error, or UnicodeDecodeError reading stdin
        reason = f"the payload on stdin is not JSON ({exc}); nothing done"
        sys.stderr.write(f"rubi hook {event}: {reason}\n")
        _log_failure({}, event, reason)
        return 0
    except BaseException as exc:
        if not isinstance(exc, KeyboardInterrupt):
            _log_failure({}, event)
        return 0
    return respond(event, loaded if isinstance(loaded, dict) else {}, stdout or sys.stdout)


def respond(
    event: str, payload: dict[str, Any], stdout: TextIO, *, walk: VaultWalk | None = None
) -> int:
    """Run the hook ``event`` (``""``: the payload's ``hook_event_name``) for a payload
    already decoded (the engine, or the console script, has parsed it to check it) and
    write its answer to ``stdout``, as :func:`main` does. ``walk``: the vault walk the
    caller took from the hook's folder, if any (:func:`run`).

    Returns:
        0, always: hooks fail open.
    """
    try:
        event = event or str(payload.get("hook_event_name") or "")
        result = run(event, payload, walk)
        if result:
            stdout.write(dumps(result, ensure_ascii=False))
            stdout.flush()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            return 0
        _log_failure(payload, event)
    return 0
