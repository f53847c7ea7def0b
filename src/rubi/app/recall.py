"""Recall: the notes that bear on a prompt, as a short block for the agent's context.

The UserPromptSubmit hook calls :func:`recall` on every prompt. It is the search
``rubi search`` runs (:func:`rubi.app.search`: BM25F, names, the graph walk and the
dense channel, fused), over the project vault's notes, without a re-scan of the vault
(the session-start hook, ``register``, the MCP server and the watcher keep the index
current): one ranking everywhere. Of its first :data:`CANDIDATES` hits, only what
clears a relevance bar is returned: a note must match at least
:data:`MIN_MATCHED_TERMS` of the prompt's content words and :data:`MIN_COVERAGE` of
them (at most :data:`MAX_NEEDED_TERMS`), so a note the graph or the dense channel
alone brought in is not injected on its own; and nothing is when the search as a
whole falls below the relevance floor (:attr:`rubi.search.hits.SearchResult.relevant`,
:func:`rubi.search.reweighting.relevant`: no note holds enough of the prompt's
distinctive words), unless the prompt is long (:data:`LONG_PROMPT_TERMS`). Snippets
are read only for the notes shown, through :mod:`rubi.core.safeio`, their frontmatter
split off as the note parser splits it (:func:`rubi.app.pagetext.note_body`).

In a process that keeps the index open (the resident engine, ``rubi serve``) a
recall costs a warm search; a cold hook process loads the search stack and the graph
first.
"""

from __future__ import annotations

import math

from rubi.core.paths import VaultPaths

__all__ = [
    "CANDIDATES",
    "LONG_PROMPT_TERMS",
    "MAX_NEEDED_TERMS",
    "MAX_NOTES",
    "MIN_COVERAGE",
    "MIN_MATCHED_TERMS",
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
LONG_PROMPT_TERMS = math.ceil(MAX_NEEDED_TERMS / MIN_COVERAGE)
"""Content words from which a prompt is long: :func:`needed_terms` stops growing with
it. A long prompt (a pasted traceback, an issue) is held to the three-word bar alone,
not to the relevance floor: its many words no note holds would keep recall silent
whatever the vault has on its topic."""
MAX_NOTES = 5
CANDIDATES = 20
"""Hits of the search looked at for the bar, best first."""
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
        RubiError, OSError, whoosh errors: the index cannot be read (the hook fails
        open).
    """
    from rubi.app.pagetext import note_body
    from rubi.app.searching import indexed, search
    from rubi.core.config import MAX_NOTE_BYTES
    from rubi.core.safeio import UnsafeFileError, allowed_root, read_text
    from rubi.core.tokens import estimate_tokens
    from rubi.index.analysis import analyze
    from rubi.index.warm import index_at
    from rubi.search.limits import fit_query
    from rubi.search.longquery import reduce_query
    from rubi.search.snippet import best_snippet

    if not indexed(paths):
        return None  # never indexed: a hook does not index a whole vault
    # A long prompt (a pasted issue) is searched for its discriminative words, and a
    # note must match enough of those, not of every word of the prompt.
    query = reduce_query(fit_query(prompt), index_at(paths.whoosh_dir))
    terms = set(analyze(query))
    if len(terms) < MIN_MATCHED_TERMS:
        return None
    result = search(paths, query, scope="notes", top_k=CANDIDATES, refresh=False, personal=False)
    if not result.relevant and len(terms) <= LONG_PROMPT_TERMS:
        return None  # below the relevance floor: the vault has nothing on this prompt
    hits = result.hits
    needed = needed_terms(len(terms))
    allowed, _ = allowed_root(paths.root, paths.project_root)
    lines: list[str] = []
    budget = max_tokens - HEADER_TOKENS
    for hit in hits:
        if hit.id == "map" or hit.id.startswith(SKIPPED_FOLDERS):
            continue
        if len(terms.intersection(hit.matched)) < needed:
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
