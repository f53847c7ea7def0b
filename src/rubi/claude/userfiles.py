"""Where the user's own Claude Code files are: ``settings.json`` and ``.claude.json``.

Claude Code keeps them in ``~/.claude/settings.json`` and ``~/.claude.json``. With
``CLAUDE_CONFIG_DIR`` set (not empty), both live in that folder:
``$CLAUDE_CONFIG_DIR/settings.json`` and ``$CLAUDE_CONFIG_DIR/.claude.json`` (where
``claude mcp add --scope user`` writes in Claude Code 2.1.197). ``rubi install --user``,
its check and ``rubi doctor`` read and write the files Claude Code reads.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["user_config_dir", "user_json", "user_settings"]


def user_config_dir() -> Path | None:
    """``$CLAUDE_CONFIG_DIR`` (``~`` expanded) when it is set and not empty, else None."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(override).expanduser() if override else None


def user_settings(home: Path | None = None) -> Path:
    """The user's ``settings.json``: ``$CLAUDE_CONFIG_DIR/settings.json``, else
    ``<home>/.claude/settings.json`` (``home`` defaults to :meth:`Path.home`)."""
    config = user_config_dir()
    if config is not None:
        return config / "settings.json"
    return (home or Path.home()) / ".claude" / "settings.json"


def user_json(home: Path | None = None) -> Path:
    """The user's ``.claude.json`` (user and local MCP servers, per-project state):
    ``$CLAUDE_CONFIG_DIR/.claude.json``, else ``<home>/.claude.json``."""
    config = user_config_dir()
    if config is not None:
        return config / ".claude.json"
    return (home or Path.home()) / ".claude.json"
