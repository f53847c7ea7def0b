"""Pick the passage of a document that best shows why it matched."""

from __future__ import annotations

import re

__all__ = ["SNIPPET_CHARS", "best_snippet"]

MAX_LINES = 5000
"""Lines looked at for a snippet: the head of a huge file is enough to show a match."""
SNIPPET_CHARS = 180
"""Snippet length: about 45 tokens, one line in a terminal or a tool result."""

_NOISE_RE = re.compile(r"^\s*(?:#{1,6}\s|>\s*\[!|---|```|\|)")
_MD_RE = re.compile(r"!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]|\*\*|`+|^\s*>+")


def _clean(line: str) -> str:
    def repl(m: re.Match[str]) -> str:
        if m.group(0).startswith(("[[", "![[")):
            return m.group(2) or m.group(1) or ""
        return ""

    return " ".join(_MD_RE.sub(repl, line).split())


def best_snippet(
    body: str, query_terms: set[str], *, chars: int = SNIPPET_CHARS, code: bool = False
) -> str:
    """The body line holding the most query terms, cleaned of markdown and cut to ``chars``.

    Args:
        body: the markdown body (no frontmatter).
        query_terms: analysed query terms (as :func:`rubi.index.analysis.analyze` gives).
        chars: maximum length; a longer line is cut around its first match with ``…``.
        code: the text is source code: lines are kept as written (no markdown
            cleaning, comments and fences count as text).

    Returns:
        The snippet, or the first prose line when nothing matches, or ``""``.
    """
    best, best_score, first = "", 0, ""
    # Stems match words that begin with them ("configur" in "configuration"); a
    # substring test per stem is enough to pick a line and far cheaper than analysing
    # every line of a big file.
    stems = [t for t in query_terms if len(t) >= 2]
    in_fence = False
    for raw in body.splitlines()[:MAX_LINES]:
        if code:
            line = " ".join(raw.split())
            if not line:
                continue
        else:
            if raw.lstrip().startswith(("```", "~~~")):
                in_fence = not in_fence
                continue
            if in_fence or not raw.strip() or _NOISE_RE.match(raw):
                continue
            line = _clean(raw)
        if not line:
            continue
        if not first:
            first = line
        lowered = line.lower()
        score = sum(1 for t in stems if t in lowered)
        if score > best_score:
            best, best_score = line, score
    text = best or first
    if len(text) <= chars:
        return text
    start = 0
    if best:
        lowered = text.lower()
        positions = [lowered.find(t[:4]) for t in query_terms if t[:4] and t[:4] in lowered]
        if positions:
            start = max(0, min(positions) - chars // 4)
    cut = text[start : start + chars - 1].rstrip()
    return ("…" if start else "") + cut + "…"
