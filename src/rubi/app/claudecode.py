"""What the Claude Code integration needs from below the facade besides the hooks' use
cases: the personal vault the installer creates, and Claude Code's folders and
transcripts, which the settings reader and the startup audit read.

Import it as a submodule (``from rubi.app.claudecode import ...``): the transcript
readers load only when a settings or audit command runs, never on a hook's path.
"""

from __future__ import annotations

from rubi.transcripts.errors import TranscriptsNotFoundError
from rubi.transcripts.events import MAIN_CHAIN, ApiCall, Attachment, Compaction, UserText
from rubi.transcripts.locate import claude_config_dir, discover_sessions, project_slug, projects_dir
from rubi.transcripts.transcript import TranscriptReader

__all__ = [
    "MAIN_CHAIN",
    "ApiCall",
    "Attachment",
    "Compaction",
    "TranscriptReader",
    "TranscriptsNotFoundError",
    "UserText",
    "claude_config_dir",
    "discover_sessions",
    "ensure_personal_vault",
    "project_slug",
    "projects_dir",
]


def ensure_personal_vault() -> bool:
    """Create the personal vault unless it exists.

    Returns:
        Whether it was created.

    Raises:
        OSError: it cannot be created.
    """
    from rubi.knowledge.personal import personal_paths

    if personal_paths(None) is not None:
        return False
    personal_paths(None, create=True)
    return True
