"""Pick the passage of a document that best shows why it matched."""

from __future__ import annotations

import re

__all__ = ["SNIPPET_CHARS", "best_snippet"]

MAX_LINES = 5000
"""Lines looked at for a snippet: the head of a huge file is enough to show a match."""
CANDIDATE_MATCHES = 300
"""Code: match positions turned into candidate lines, rarest stems first. A line that
holds several query words nearly always holds a rare one, so a big file is never
scanned line by line (10 snippets of 4,000-line files took 6 ms that way)."""
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
        body: the markdown body (no frontmatter), or source code when ``code``.
        query_terms: analysed query terms (as :func:`rubi.index.analysis.analyze` gives).
        chars: maximum length; a longer line is cut around its first match with ``…``.
        code: the text is source code: lines are kept as written (no markdown
            cleaning, comments and fences count as text).

    Returns:
        The snippet, or the first prose line when nothing matches, or ``""``.
    """
    if code:
        return _cut(*_best_code_line(body, query_terms), query_terms, chars)
    best, best_score, first = "", 0, ""
    # Stems match words that begin with them ("configur" in "configuration"); a
    # substring test per stem is enough to pick a line and far cheaper than analysing
    # every line of a big file.
    stems = [t for t in query_terms if len(t) >= 2]
    in_fence = False
    for raw in body.splitlines()[:MAX_LINES]:
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
    return _cut(best or first, bool(best), query_terms, chars)


def _best_code_line(text: str, query_terms: set[str]) -> tuple[str, bool]:
    """The line of source code holding the most query stems (ties: the line found
    first from the rarest stem), whitespace collapsed; else the first non-blank line.
    Returns the line and whether it matched."""
    head = text.split("\n", MAX_LINES)
    if len(head) > MAX_LINES:
        text = "\n".join(head[:MAX_LINES])
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters lower-case to two; keep offsets true
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    counts = {t: lowered.count(t) for t in query_terms if len(t) >= 2}
    present = sorted((t for t, n in counts.items() if n), key=lambda t: (counts[t], t))
    starts: dict[int, None] = {}
    budget = CANDIDATE_MATCHES
    for stem in present:
        pos = lowered.find(stem)
        while pos >= 0 and budget > 0:
            start = lowered.rfind("\n", 0, pos) + 1
            starts.setdefault(start, None)
            budget -= 1
            end = lowered.find("\n", pos)
            if end < 0:
                break
            pos = lowered.find(stem, end)
        if budget <= 0:
            break
    best, best_start, best_score = "", -1, 0
    for start in starts:
        end = lowered.find("\n", start)
        line = lowered[start : end if end >= 0 else len(lowered)]
        score = sum(1 for t in present if t in line)
        if score > best_score:
            best_start, best_score = start, score
    if best_start >= 0:
        end = text.find("\n", best_start)
        best = " ".join(text[best_start : end if end >= 0 else len(text)].split())
        return best, True
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if line:
            return line, False
    return "", False


def _cut(text: str, matched: bool, query_terms: set[str], chars: int) -> str:
    """``text`` cut to ``chars``, around its first match when it matched."""
    if len(text) <= chars:
        return text
    start = 0
    if matched:
        lowered = text.lower()
        positions = [lowered.find(t[:4]) for t in query_terms if t[:4] and t[:4] in lowered]
        if positions:
            start = max(0, min(positions) - chars // 4)
    cut = text[start : start + chars - 1].rstrip()
    return ("…" if start else "") + cut + "…"
