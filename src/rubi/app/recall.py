"""Recall: the notes that bear on a prompt, as a short block for the agent's context.

The UserPromptSubmit hook calls :func:`recall` on every prompt, so it stays cheap: text
match only, over the search index's BM25F note list (the same
:meth:`rubi.index.store.SearchIndex.bm25` list ``rubi search`` fuses, restricted to
notes' own fields), no graph, no re-scan of the vault (the session-start hook,
``register``, the MCP server and the watcher keep the index current). Only what clears
a relevance bar is returned: a note must match at least :data:`MIN_MATCHED_TERMS` of
the prompt's content words and :data:`MIN_COVERAGE` of them (at most
:data:`MAX_NEEDED_TERMS`). Snippets are read only for the notes shown, through
:mod:`rubi.core.safeio`, their frontmatter split off as the note parser splits it
(:func:`rubi.app.pages.note_body`).
"""

from __future__ import annotations

import math

from rubi.core.paths import VaultPaths

__all__ = [
    "MAX_NEEDED_TERMS",
    "MAX_NOTES",
    "MIN_COVERAGE",
    "MIN_MATCHED_TERMS",
    "RECALL_FIELDS",
    "SKIPPED_FOLDERS",
    "needed_terms",
    "recall",
]

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
HEADER = (
    "rubi project memory has notes related to this request (full text: the rubi read "
    "tool with these ids):\n"
)
HEADER_TOKENS = 40
SNIPPET_CHARS = 160


def needed_terms(count: int) -> int:
    """How many of a prompt's ``count`` content words a note must match."""
    return max(MIN_MATCHED_TERMS, min(MAX_NEEDED_TERMS, math.ceil(MIN_COVERAGE * count)))


def recall(paths: VaultPaths, prompt: str, *, max_tokens: int) -> str | None:
    """The recall block for ``prompt``: one line per note that clears the bar
    (``- [type] title (id ID): snippet``), at most :data:`MAX_NOTES` notes and about
    ``max_tokens`` tokens (chars/4) with the header; None when nothing clears it.

    Raises:
        OSError, whoosh errors: the index cannot be opened (the hook fails open).
    """
    from rubi.app.pages import note_body
    from rubi.core.config import MAX_NOTE_BYTES
    from rubi.core.safeio import UnsafeFileError, allowed_root, read_text
    from rubi.core.tokens import estimate_tokens
    from rubi.index.analysis import analyze
    from rubi.index.store import SearchIndex
    from rubi.search.snippet import best_snippet

    terms = set(analyze(prompt))
    if len(terms) < MIN_MATCHED_TERMS:
        return None
    index = SearchIndex(paths.whoosh_dir)
    try:
        hits = index.bm25(
            prompt, limit=20, kind="note", exclude_status=("superseded",), fields=RECALL_FIELDS
        )
    finally:
        index.close()
    needed = needed_terms(len(terms))
    allowed, _ = allowed_root(paths.root, paths.project_root)
    lines: list[str] = []
    budget = max_tokens - HEADER_TOKENS
    for hit in hits:
        if hit.id == "map" or hit.id.startswith(SKIPPED_FOLDERS):
            continue
        if len({t for ts in hit.matched.values() for t in ts} & terms) < needed:
            continue
        try:
            text = read_text(allowed, paths.root / hit.path, limit=MAX_NOTE_BYTES)
        except (OSError, UnsafeFileError):
            continue  # gone, or refused (a symlink out of the project, a FIFO): never shown
        snippet = best_snippet(note_body(text), terms, chars=SNIPPET_CHARS)
        line = f"- [{hit.type}] {hit.title} (id {hit.id}): {snippet}"
        cost = estimate_tokens(line)
        if cost > budget:
            break
        lines.append(line)
        budget -= cost
        if len(lines) >= MAX_NOTES:
            break
    return HEADER + "\n".join(lines) if lines else None
