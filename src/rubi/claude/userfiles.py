"""Where the user's own Claude Code files are: ``settings.json`` and ``.claude.json``.

Claude Code keeps them in ``~/.claude/settings.json`` and ``~/.claude.json``. With
``CLAUDE_CONFIG_DIR`` set (not empty), both live in that folder:
``$CLAUDE_CONFIG_DIR/settings.json`` and ``$CLAUDE_CONFIG_DIR/.claude.json`` (where
``claude mcp add --scope user`` writes in Claude Code 2.1.197). ``rubi install --user``,
its check and ``rubi doctor`` read and write the files Claude Code reads.

Claude Code takes the variable as it is written: no ``~`` is expanded, and a relative
path is read from the folder Claude Code starts in (measured with Claude Code 2.1.197:
``CLAUDE_CONFIG_DIR='~/x' claude mcp add --scope user`` wrote ``./~/x/.claude.json``).
So does rubi; such a value names no one folder for every project, and
:func:`wide_config_problem` says so before ``rubi install`` writes a user-wide setting.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["user_config_dir", "user_json", "user_settings", "wide_config_problem"]


def user_config_dir() -> Path | None:
    """``$CLAUDE_CONFIG_DIR`` as Claude Code reads it (no ``~`` expanded; a relative
    path from the working folder) when it is set and not empty, else None."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(override) if override else None


def wide_config_problem() -> str | None:
    """Why the user's settings are in no one folder for every project (one line naming
    the variable and what to do), or None: ``$CLAUDE_CONFIG_DIR`` names a file, or is a
    relative path (``~/x`` is one: Claude Code expands no ``~``), which Claude Code
    reads from the folder each session starts in."""
    config = user_config_dir()
    if config is None:
        return None
    if config.exists() and not config.is_dir():
        return (
            f"CLAUDE_CONFIG_DIR={str(config)!r} is not a folder: Claude Code keeps your "
            "settings.json and .claude.json in it; point it at a folder (or unset it) and "
            "run the command again"
        )
    if config.is_absolute():
        return None
    return (
        f"CLAUDE_CONFIG_DIR={str(config)!r} is not an absolute path: Claude Code reads it "
        "from the folder each session starts in (no ~ expanded), so no one folder holds "
        'your settings; set it to an absolute path (export CLAUDE_CONFIG_DIR="$HOME/...") '
        "and run the command again"
    )


def user_settings() -> Path:
    """The user's ``settings.json``: ``$CLAUDE_CONFIG_DIR/settings.json``, else
    ``~/.claude/settings.json``."""
    config = user_config_dir()
    if config is not None:
        return config / "settings.json"
    return Path.home() / ".claude" / "settings.json"


def user_json() -> Path:
    """The user's ``.claude.json`` (user and local MCP servers, per-project state):
    ``$CLAUDE_CONFIG_DIR/.claude.json``, else ``~/.claude.json``."""
    config = user_config_dir()
    if config is not None:
        return config / ".claude.json"
    return Path.home() / ".claude.json"
