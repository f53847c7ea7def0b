"""UserPromptSubmit: recall notes that bear on the prompt, before Claude explores.

Text match only (BM25F over notes' own fields; no graph, and no re-scan of the vault:
the session-start hook, ``register``, the MCP server and the watcher keep the index
current), so the hook stays within its budget on every prompt. Only what clears a
relevance bar is injected: a note must match at least :data:`MIN_MATCHED_TERMS` of the
prompt's content words and :data:`MIN_COVERAGE` of them. Nothing is injected for
slash commands, small talk or prompts that match nothing. At most
``recall_max_tokens`` (default 700) are injected.
"""

from __future__ import annotations

import math
import re
from typing import Any

from rubi.claude.hooks.context import HookContext

__all__ = ["MIN_COVERAGE", "MIN_MATCHED_TERMS", "handle", "recall_text"]

MIN_MATCHED_TERMS = 2
"""One shared word ("config") is chance; two are a topic."""
MIN_COVERAGE = 0.3
"""Share of the prompt's content words a note must match (a long prompt may wander)."""
MAX_NEEDED_TERMS = 3
"""A long prompt (a pasted traceback) need not be 30% covered: three shared words do."""
MAX_NOTES = 5
RECALL_FIELDS = ("title", "aliases", "tags", "headings", "body", "body_pt")
"""Notes' own fields: no path or symbol fields (code is not recalled per prompt)."""
SKIPPED_FOLDERS = ("sessions/", "modules/", "handoffs/")
"""Recall is for knowledge notes: not captured chats, generated pages or handoffs."""

_SMALL_TALK = re.compile(
    r"^\s*(?:thanks?(?: you)?|thx|ok(?:ay)?|yes|no|yep|nope|sure|great|cool|nice|done|"
    r"continue|go on|go ahead|proceed|lgtm|perfect|good|looks good)\W*\s*$",
    re.I,
)


def recall_text(ctx: HookContext, prompt: str) -> str | None:
    """The recall block for ``prompt``, or None when nothing clears the bar."""
    assert ctx.vault is not None
    from rubi.core.config import MAX_NOTE_BYTES
    from rubi.core.safeio import UnsafeFileError, allowed_root, read_text
    from rubi.core.tokens import estimate_tokens
    from rubi.index.analysis import analyze
    from rubi.index.store import SearchIndex
    from rubi.search.snippet import best_snippet

    allowed, _ = allowed_root(ctx.vault.root, ctx.vault.project_root)
    terms = set(analyze(prompt))
    if len(terms) < MIN_MATCHED_TERMS:
        return None
    index = SearchIndex(ctx.vault.whoosh_dir)
    try:
        hits = index.bm25(
            prompt, limit=20, kind="note", exclude_status=("superseded",), fields=RECALL_FIELDS
        )
    finally:
        index.close()
    needed = max(MIN_MATCHED_TERMS, min(MAX_NEEDED_TERMS, math.ceil(MIN_COVERAGE * len(terms))))
    lines: list[str] = []
    budget = ctx.settings.recall_max_tokens - 40
    for hit in hits:
        if hit.id == "map" or hit.id.startswith(SKIPPED_FOLDERS):
            continue
        matched = {t for ts in hit.matched.values() for t in ts} & terms
        if len(matched) < needed:
            continue
        try:
            body = read_text(allowed, ctx.vault.root / hit.path, limit=MAX_NOTE_BYTES)
        except (OSError, UnsafeFileError):
            continue  # gone, or refused (a symlink out of the project, a FIFO): never shown
        snippet = best_snippet(body.split("\n---\n", 1)[-1], terms, chars=160)
        line = f"- [{hit.type}] {hit.title} (id {hit.id}): {snippet}"
        cost = estimate_tokens(line)
        if cost > budget:
            break
        lines.append(line)
        budget -= cost
        if len(lines) >= MAX_NOTES:
            break
    if not lines:
        return None
    return (
        "rubi project memory has notes related to this request (full text: the rubi read "
        "tool with these ids):\n" + "\n".join(lines)
    )


def handle(ctx: HookContext) -> dict[str, Any] | None:
    """Remember the prompt for capture; inject recalled notes when relevant."""
    prompt = str(ctx.payload.get("prompt") or "")
    if ctx.vault is None:
        return None
    from rubi.claude.hooks.capture import clean_turn

    state = ctx.load_state()
    state.prompt = clean_turn(prompt)  # never a secret on disk, even in a state file
    ctx.save_state(state)
    stripped = prompt.strip()
    if not stripped or stripped.startswith(("/", "!", "#")) or _SMALL_TALK.match(stripped):
        return None
    text = recall_text(ctx, stripped[:4000])
    if text is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}}
