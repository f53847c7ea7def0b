"""A conversation turn's text as rubi may store it: redacted, then cut.

Its own module, apart from the session record's (:mod:`rubi.app.sessionrecord`), because
every recall hook cleans its prompt before it keeps it in the session's state file
(:mod:`rubi.claude.hooks.recall`) and writes no record: that hook imported the record's
writer for these few lines.
"""

from __future__ import annotations

__all__ = ["MAX_TURN_CHARS", "clean_turn"]

MAX_TURN_CHARS = 20_000
"""Each side of a turn is cut here: the record is for finding, not for replaying."""


def clean_turn(text: str) -> str:
    """``text`` as it may be stored: stripped, redacted
    (:func:`rubi.transcripts.privacy.redact_cut`, which redacts before it cuts, so a cut
    never leaves part of a secret), then cut to :data:`MAX_TURN_CHARS` characters."""
    from rubi.transcripts.privacy import redact_cut

    return redact_cut(text.strip(), MAX_TURN_CHARS)
