"""Errors of the transcripts package (transcripts, X-ray, audit)."""

from __future__ import annotations

from rubi.core.errors import RubiError

__all__ = ["ReportWriteError", "TranscriptsNotFoundError"]


class TranscriptsNotFoundError(RubiError):
    """No Claude Code transcripts where they were looked for; the message names the folder
    and what to do (run Claude Code there once, set ``CLAUDE_CONFIG_DIR``, fix ``--project``)."""


class ReportWriteError(RubiError):
    """A report file (``--html``) could not be written; the message names the file."""
