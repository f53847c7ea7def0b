"""UserPromptSubmit: recall notes and code files that bear on the prompt, before Claude
explores.

The prompt is kept (redacted) for capture; then :func:`rubi.app.recall` gives the notes
that clear its relevance bar and, in a project with a code map, the files that do (an
issue or a traceback pasted as the prompt names its files), at most
``recall_max_tokens`` (default 700). Nothing is injected for slash commands, small talk
or prompts that match nothing, nor when the search falls below the relevance floor
(the vault has nothing on the prompt); a short question in plain words names no file.
"""

from __future__ import annotations

import re

from rubi import app
from rubi.claude.hooks.context import HookContext

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_PROMPT_CHARS", "handle", "is_chatter"]

MAX_PROMPT_CHARS = 4_000
"""Recall reads this much of a prompt (a pasted traceback need not be searched whole)."""

_SMALL_TALK = re.compile(
    r"^\s*(?:thanks?(?: you)?|thx|ok(?:ay)?|yes|no|yep|nope|sure|great|cool|nice|done|"
    r"continue|go on|go ahead|proceed|lgtm|perfect|good|looks good)\W*\s*$",
    re.I,
)


def is_chatter(prompt: str) -> bool:
    """An empty prompt, a command (``/``, ``!``, ``#``) or small talk: nothing to recall."""
    stripped = prompt.strip()
    return not stripped or stripped.startswith(("/", "!", "#")) or bool(_SMALL_TALK.match(stripped))


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Remember the prompt for capture; inject recalled notes when relevant."""
    if ctx.vault is None:
        return None
    prompt = ctx.event.prompt
    with ctx.session_state() as state:
        state.prompt = app.clean_turn(prompt)  # never a secret on disk, even in a state file
    if is_chatter(prompt):
        return None
    text = app.recall(
        ctx.vault, prompt.strip()[:MAX_PROMPT_CHARS], max_tokens=ctx.settings.recall_max_tokens
    )
    if text is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}}
