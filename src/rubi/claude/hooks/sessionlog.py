"""The session record's file rules, owned by :mod:`rubi.app.sessionrecord`."""

from __future__ import annotations

from rubi.app.sessionrecord import SESSIONS_DIR, append, session_file

__all__ = ["SESSIONS_DIR", "append", "session_file"]
