"""Render search results within a token budget: compact index first.

Each hit is one header line ``N. [type] Title — path · YYYY-MM-DD`` (its day), one
``why`` line and one snippet line; hits are added best-first until the next would
overflow the budget, then a footer says how many were left out and how to open one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rubi.core.tokens import estimate_tokens
from rubi.search.hits import Hit, SearchResult, Why

__all__ = ["WHY_FORMATS", "Rendered", "render_compact", "render_hit", "result_json", "why_line"]

WHY_FORMATS = {
    "named": 'named: "{}"',
    "text": "text match: {}",
    "linked": 'linked to "{}"',
    "semantic": 'close in meaning: "{}"',
    "variant_of": "variant of {}",
    "imported_by": "imported by {}",
}
"""How each kind of :class:`~rubi.search.hits.Why` reads (``{}`` is its text)."""


def why_line(why: Why) -> str:
    """One reason as shown: ``named: "Router"``, ``text match: router (title)``,
    ``linked to "Embed files"``, ``variant of gin/binding.go``, ``imported by 12``.

    Raises:
        KeyError: a kind not in :data:`WHY_FORMATS`.
    """
    return WHY_FORMATS[why.kind].format(why.text)


@dataclass(frozen=True, slots=True)
class Rendered:
    """Rendered text, the hits it shows, its estimated tokens and hits left out."""

    text: str
    shown: list[Hit]
    tokens: int
    omitted: int


def render_hit(rank: int, hit: Hit, *, snippet: bool = True) -> str:
    """The lines for one hit (no trailing newline)."""
    if hit.kind == "file":
        head = f"{rank}. [{hit.type} file] {hit.path}"
    else:
        vault, _, _ = hit.id.rpartition(":")  # personal:notes/x → shown as personal:<path>
        head = f"{rank}. [{hit.type}] {hit.title} — {vault + ':' if vault else ''}{hit.path}"
    if hit.date:
        head += f" · {hit.date}"
    if hit.status == "superseded":
        succ = f" by {hit.superseded_by}" if hit.superseded_by else ""
        head += f"  (superseded{succ})"
    if hit.stale:
        head += f"  ⚠ stale: {', '.join(hit.stale[:3])} changed"
    lines = [head]
    if hit.why:
        lines.append("   why: " + "; ".join(hit.why))
    if snippet and hit.snippet:
        lines.append("   > " + hit.snippet)
    return "\n".join(lines)


def _one_line(rank: int, hit: Hit) -> str:
    """The least a hit can be shown as: its rank, kind and id (to open it)."""
    kind = f"{hit.type} file" if hit.kind == "file" else hit.type
    return f"{rank}. [{kind}] {hit.id}"


def _fit(result: SearchResult, budget_tokens: int) -> tuple[list[tuple[Hit, str]], int]:
    """The hits' blocks that fit ``budget_tokens``, best first, and the tokens used;
    the best hit is always there (without its snippet, or as one line of its id, when
    even that does not fit)."""
    blocks: list[tuple[Hit, str]] = []
    used = 0
    for rank, hit in enumerate(result.hits, start=1):
        block = render_hit(rank, hit)
        cost = estimate_tokens(block) + 1
        if used + cost > budget_tokens:
            if not blocks:  # however small the budget, the best hit is shown
                short = render_hit(rank, hit, snippet=False)
                if estimate_tokens(short) > budget_tokens:
                    short = _one_line(rank, hit)
                blocks.append((hit, short))
                used += estimate_tokens(short) + 1
            break
        blocks.append((hit, block))
        used += cost
    return blocks, used


def render_compact(
    result: SearchResult, budget_tokens: int, *, open_hint: str = "rubi read <id>"
) -> Rendered:
    """Render ``result`` as text within ``budget_tokens`` (characters / 4).

    Args:
        result: the search result.
        budget_tokens: the most tokens the text may take (the footer included).
        open_hint: how the reader opens a hit in full.

    Returns:
        A :class:`Rendered`; ``text`` says so when there is no hit.
    """
    if not result.hits:
        return Rendered(f'No match for "{result.query}".', [], 0, 0)
    blocks, _ = _fit(result, max(budget_tokens - 20, 1))
    omitted = result.candidates - len(blocks)
    text = "\n".join(b for _, b in blocks)
    if omitted > 0:
        text += f"\n({omitted} more not shown; open one with `{open_hint}`)"
    return Rendered(text, [h for h, _ in blocks], estimate_tokens(text), max(omitted, 0))


def result_json(result: SearchResult, budget_tokens: int) -> dict[str, Any]:
    """The ``--json`` shape: ``{"query", "hits": [{"id", "path", "title", "type",
    "score", "why", "snippet", "date", ...}], "tokens", "omitted"}``, hits within the
    budget (``date``: the hit's day, "" when unknown)."""
    blocks, used = _fit(result, budget_tokens)
    hits = [
        {
            "id": h.id,
            "path": h.path,
            "title": h.title,
            "type": h.type,
            "kind": h.kind,
            "status": h.status,
            "score": h.score,
            "why": list(h.why),
            "snippet": h.snippet,
            "date": h.date,
            **({"superseded_by": h.superseded_by} if h.superseded_by else {}),
            **({"stale": list(h.stale)} if h.stale else {}),
        }
        for h, _ in blocks
    ]
    return {
        "query": result.query,
        "terms": list(result.terms),
        "hits": hits,
        "tokens": used,
        "omitted": max(result.candidates - len(hits), 0),
    }
