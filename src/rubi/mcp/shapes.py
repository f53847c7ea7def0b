"""The plain shapes of what a client sends that the front (:mod:`rubi.mcp.front`, the
HTTP front) answers itself, as the SDK's models would take them: client info and
capabilities (``initialize``, the 2026-07-28 envelope) and a handshake-era request's
``_meta``. A shape not listed here is the SDK's to judge (and to refuse).

Only the stdlib is imported here.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

__all__ = ["handshake_meta", "plain_capabilities", "plain_client_info"]

ENVELOPE_PREFIX = "io.modelcontextprotocol/"
"""The prefix the MCP reserves for its own ``_meta`` keys (the 2026-07-28 envelope's,
which the SDK routes to that era, a task's)."""


def handshake_meta(meta: Any) -> bool:
    """A handshake-era request's ``_meta`` the SDK reads no differently than none: an
    object; a ``progressToken``, when given, a string or an integer (the SDK's
    ``ProgressToken``; not a boolean, a null or a number with a fraction); no key of
    the MCP's own (:data:`ENVELOPE_PREFIX`); other keys anything (the SDK's model
    keeps them unread: Claude Code sends ``claudecode/toolUseId`` with every call).
    rubi's tools report no progress, so a token changes no answer."""
    if not isinstance(meta, dict):
        return False
    token = meta.get("progressToken", "")
    if isinstance(token, bool) or not isinstance(token, (str, int)):
        return False
    return not any(key.startswith(ENVELOPE_PREFIX) for key in meta)


_INFO_KEYS = frozenset({"name", "version", "title", "description", "websiteUrl"})
_CAPABILITY_KEYS = {"sampling": {"context", "tools"}, "elicitation": {"form", "url"}}
_TASK_REQUESTS = {"sampling": {"createMessage"}, "elicitation": {"create"}}
"""The task-augmented requests a client's ``tasks.requests`` names (Claude Code 2.1.197
sends ``{"elicitation": {"create": {}}}`` there when its tasks are on)."""


def plain_client_info(info: Any) -> bool:
    """``clientInfo`` of the plain shape every revision's model takes: a name and a
    version, and only text among its known fields (icons, a null, a misspelt or
    snake-case key: the SDK's models to judge, and to refuse)."""
    return (
        isinstance(info, dict)
        and {"name", "version"} <= set(info) <= _INFO_KEYS
        and all(isinstance(value, str) for value in info.values())
    )


def plain_capabilities(capabilities: Any) -> bool:
    """Client capabilities of the plain shape every revision's model takes: ``roots``
    with at most a boolean ``listChanged``; ``sampling`` and ``elicitation`` with
    objects under their known keys; ``tasks`` with objects under ``list``,
    ``cancel`` and ``requests`` (Claude Code's shape: :data:`_TASK_REQUESTS`);
    ``experimental`` and ``extensions`` objects of objects; nothing else (a
    ``{"roots": "x"}`` is the SDK's to refuse: answered here it would be a reply the
    SDK never gives)."""
    if not isinstance(capabilities, dict):
        return False
    for key, value in capabilities.items():
        if not isinstance(value, dict):
            return False
        if key == "roots":
            ok = set(value) <= {"listChanged"} and all(isinstance(v, bool) for v in value.values())
        elif key == "tasks":
            ok = _plain_tasks(value)
        elif key in _CAPABILITY_KEYS:
            ok = set(value) <= _CAPABILITY_KEYS[key]
            ok = ok and all(isinstance(v, dict) for v in value.values())
        else:
            ok = key in ("experimental", "extensions")
            ok = ok and all(isinstance(v, dict) for v in value.values())
        if not ok:
            return False
    return True


def _plain_tasks(tasks: dict[str, Any]) -> bool:
    """A client's ``tasks`` capability of the plain shape: ``list`` and ``cancel``
    objects, ``requests`` an object whose known kinds hold objects under their
    known methods (:data:`_TASK_REQUESTS`)."""
    if not set(tasks) <= {"list", "cancel", "requests"}:
        return False
    if not all(isinstance(v, dict) for v in tasks.values()):
        return False
    for kind, methods in tasks.get("requests", {}).items():
        if kind not in _TASK_REQUESTS or not isinstance(methods, dict):
            return False
        if not set(methods) <= _TASK_REQUESTS[kind]:
            return False
        if not all(isinstance(v, dict) for v in methods.values()):
            return False
    return True
