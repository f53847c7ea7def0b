"""Render search results within a token budget: compact index first, then passages.

Each hit is one header line ``N. [type] Title — path · YYYY-MM-DD`` (its day), one
``why`` line, its best passage's id (``§ note#Heading``) and one snippet line; hits are
added best-first until the next would overflow the budget. What budget is left then
fills with passages: each shown hit's best passage replaces its snippet line (up to
:data:`PASSAGE_CHARS` characters of it, best line first), then the hits' other
passages follow, until the budget is spent. A footer says how many hits were left
out and how to open one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rubi.core.searchdefaults import MAX_TOP_K, MORE_HINT_CLI, RANKED_HINT_CLI
from rubi.core.tokens import CHARS_PER_TOKEN, estimate_tokens
from rubi.search.hits import Hit, Passage, SearchResult
from rubi.search.whyline import TITLE_CHARS, WHY_FORMATS, why_line
from rubi.search.whyline import capped as _capped

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "MIN_PASSAGE_TOKENS",
    "NOTHING_RELEVANT",
    "NO_SEARCHABLE_WORD",
    "PASSAGE_CHARS",
    "TITLE_CHARS",
    "WHY_FORMATS",
    "Rendered",
    "no_match_line",
    "render_compact",
    "render_hit",
    "result_json",
    "why_line",
]

PASSAGE_CHARS = 1_000
"""Characters of one passage's text shown at most (about 250 tokens): a section, a
function or a turn; ``read`` opens the rest."""
MIN_PASSAGE_TOKENS = 40
"""Budget left under which no more passage text is added (a line or two of it would
say less than the snippet already does)."""

NOTHING_RELEVANT = (
    "Nothing relevant: no note or file matches most of the query's distinctive words "
    "or several of its rare ones together; the closest matches follow."
)
"""The line a text result starts with when no hit clears the relevance floor."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """Rendered text, the hits it shows, its estimated tokens and hits left out."""

    text: str
    shown: list[Hit]
    tokens: int
    omitted: int


def _passage_line(p: Passage) -> str:
    """``§ id``, with a code part's symbol: ``§ src/app.py#L108-167 (Flask)``."""
    return f"   § {p.id}" + (f" ({p.heading})" if p.kind == "symbol" and p.heading else "")


_DAY_FROM = {"file time": " (file time)"}
"""What a hit's header adds to a day that is not the note's own: a file's time is the
day it was copied or cloned, not the day it was written. A code file's last commit is
left unmarked: it is what most hits of a project show, and the mark would cost every
one of them about three tokens for the rarer uncommitted edit (the JSON's
``date_source`` says ``commit``)."""


def _vault_prefix(hit: Hit) -> str:
    """What a note's id carries before its vault-relative path (``personal:`` for
    ``personal:notes/x``), or "": the id less its path's stem, so a colon in a note's
    own name (``notes/why: retries?``) is not taken for a vault's (it was shown as
    ``notes/why:notes/why: retries?.md``)."""
    stem = hit.path[:-3] if hit.path.endswith(".md") else hit.path
    if stem and hit.id != stem and hit.id.endswith(stem):
        return hit.id[: -len(stem)]
    return ""


def render_hit(
    rank: int, hit: Hit, *, snippet: bool = True, texts: Mapping[int, str] | None = None
) -> str:
    """The lines for one hit (no trailing newline): header, why, its best passage's id
    and its snippet; ``texts`` (passage index → text to show) puts passage text in
    place of the snippet (index 0) and adds the other passages it names."""
    if hit.kind == "file":
        head = f"{rank}. [{hit.type} file] {hit.path}"
    else:
        title = _capped(hit.title)
        head = f"{rank}. [{hit.type}] {title} — {_vault_prefix(hit)}{hit.path}"
    if hit.date:
        head += f" · {hit.date}{_DAY_FROM.get(hit.date_source, '')}"
    if hit.status == "superseded":
        succ = f" by {hit.superseded_by}" if hit.superseded_by else ""
        head += f"  (superseded{succ})"
    if hit.stale:
        head += f"  ⚠ stale: {', '.join(hit.stale[:3])} changed"
    lines = [head]
    if hit.why:
        lines.append("   why: " + "; ".join(hit.why))
    if not snippet:
        return "\n".join(lines)
    texts = texts or {}
    passages = hit.passages
    for i, p in enumerate(passages):
        if i and i not in texts:
            continue
        lines.append(_passage_line(p))
        if i in texts:
            lines += ["   > " + line for line in texts[i].split("\n") if line.strip()]
        elif hit.snippet:
            lines.append("   > " + hit.snippet)
    if not passages and hit.snippet:
        lines.append("   > " + hit.snippet)
    return "\n".join(lines)


def _one_line(rank: int, hit: Hit) -> str:
    """The least a hit can be shown as: its rank, kind and id (to open it)."""
    kind = f"{hit.type} file" if hit.kind == "file" else hit.type
    return f"{rank}. [{kind}] {hit.id}"


@dataclass(slots=True)
class _Shown:
    """A hit as the budget lets it be shown: its block, and the passage texts in it."""

    rank: int
    hit: Hit
    block: str
    full: bool = True
    texts: dict[int, str] = field(default_factory=dict)


def _fit(
    result: SearchResult, budget_tokens: int, extra: Callable[[Hit], int] | None = None
) -> tuple[list[_Shown], int]:
    """The hits' blocks that fit ``budget_tokens``, best first, and the tokens used;
    the best hit is always there (without its snippet, or as one line of its id, when
    even that does not fit). A hit whose lines without a passage overflow already ends
    the list before its passages are read (found in the file: 0.35 ms a hit on
    obsidian-hub; the block with them is longer, so it would not fit either). Then
    passages fill what is left (:func:`_fill`).
    ``extra``: what each shown hit costs beyond its block (tokens)."""
    shown: list[_Shown] = []
    used = 0
    for rank, hit in enumerate(result.hits, start=1):
        more = 1 + (extra(hit) if extra else 0)
        if shown and used + estimate_tokens(render_hit(rank, hit, snippet=False)) + more > (
            budget_tokens
        ):  # its lines without a passage overflow already: its passages are not read
            break
        block = render_hit(rank, hit)
        cost = estimate_tokens(block) + more
        if used + cost > budget_tokens:
            if not shown:  # however small the budget, the best hit is shown
                short = render_hit(rank, hit, snippet=False)
                if estimate_tokens(short) > budget_tokens:
                    short = _one_line(rank, hit)
                shown.append(_Shown(rank, hit, short, full=False))
                used += estimate_tokens(short) + 1
            break
        shown.append(_Shown(rank, hit, block))
        used += cost
    return shown, _fill(shown, used, budget_tokens)


def _fill(shown: list[_Shown], used: int, budget_tokens: int) -> int:
    """Add passage text to ``shown`` while the budget lasts: each hit's best passage
    in rank order, then the others; returns the tokens used."""
    from rubi.search.passages import excerpt  # the passage cutter: a shown passage only

    for first in (True, False):
        for s in shown:
            if not s.full:
                continue
            count = len(s.hit.passages)
            for i in [0] if first else range(1, count):
                if i >= count:
                    continue
                left = budget_tokens - used
                if left < MIN_PASSAGE_TOKENS:
                    return used
                before = estimate_tokens(s.block) + 1
                chars = min(PASSAGE_CHARS, left * CHARS_PER_TOKEN)
                for _ in range(3):  # shrink to what fits: the id line costs too
                    texts = {**s.texts, i: excerpt(s.hit.passages[i], chars)}
                    block = render_hit(s.rank, s.hit, texts=texts)
                    cost = estimate_tokens(block) + 1 - before
                    if cost <= left:
                        s.block, s.texts = block, texts
                        used += cost
                        break
                    chars -= (cost - left) * CHARS_PER_TOKEN + 8
                    if chars < MIN_PASSAGE_TOKENS * CHARS_PER_TOKEN // 2:
                        break
    return used


NO_SEARCHABLE_WORD = (
    "no word of it is searched (single characters, stop words and punctuation are left "
    "out): ask in a few words, or give a name"
)
"""Why a query found nothing when the index keeps none of its words: a new user's
``rubi search "a"`` (or ``"?"``) read only ``No match for "a".`` and searched on."""


def no_match_line(query: str, terms: tuple[str, ...] | list[str] = ()) -> str:
    """The text of a search with no hit: ``No match for "QUERY".``, and, when neither
    the query nor a term keeps a word in the English or the code analysis chain
    (:func:`rubi.index.analysis.analyze`), :data:`NO_SEARCHABLE_WORD` after it. Paid
    only when nothing matched."""
    from rubi.index.analysis import analyze

    searched = any(analyze(text, chain) for text in (query, *terms) for chain in ("en", "code"))
    if searched:
        return f'No match for "{query}".'
    return f'No match for "{query}": {NO_SEARCHABLE_WORD}.'


def render_compact(
    result: SearchResult,
    budget_tokens: int,
    *,
    open_hint: str = "rubi read <id>",
    more_hint: str = MORE_HINT_CLI,
    ranked_hint: str | None = RANKED_HINT_CLI,
    extra: Callable[[Hit], int] | None = None,
) -> Rendered:
    """Render ``result`` as text within ``budget_tokens`` (characters / 4).

    Args:
        result: the search result.
        budget_tokens: the most tokens the text may take (the footer included).
        open_hint: how the reader opens a hit in full.
        more_hint: how the reader sees the ranked hits the budget left out, in the
            surface's own option names (:data:`rubi.core.searchdefaults.MORE_HINT_CLI`,
            :data:`~rubi.core.searchdefaults.MORE_HINT_MCP`).
        ranked_hint: how the reader ranks more candidates
            (:data:`~rubi.core.searchdefaults.RANKED_HINT_CLI`; None: the surface
            cannot). The last line names only what would show more
            (:func:`_see_more`).
        extra: what each shown hit costs beyond its text, in tokens, for a caller
            that sends more than the text within the same budget (None: nothing).

    Returns:
        A :class:`Rendered`; ``text`` says so when there is no hit, and begins with
        :data:`NOTHING_RELEVANT` when no hit clears the relevance floor
        (:attr:`SearchResult.relevant`: the hits are still listed, as weak matches).
    """
    if not result.hits:
        return Rendered(no_match_line(result.query, result.terms), [], 0, 0)
    weak = not result.relevant
    reserve = 24 + (estimate_tokens(NOTHING_RELEVANT) + 1 if weak else 0)
    shown, _ = _fit(result, max(budget_tokens - reserve, 1), extra)
    omitted = result.candidates - len(shown)

    def compose() -> str:
        text = "\n".join(s.block for s in shown)
        if weak:
            text = f"{NOTHING_RELEVANT}\n{text}"
        if omitted > 0:
            see = _see_more(result, len(shown), more_hint, ranked_hint)
            text += (
                f"\n({omitted} more not shown; {see}open one with `{open_hint}`, "
                "a § id opens its part)"
            )
        return text

    text = compose()
    if estimate_tokens(text) > budget_tokens and len(shown) == 1 and not shown[0].full:
        # the footer outgrew its reserve: the best hit as one line, as _fit shows one
        shown[0].block = _one_line(shown[0].rank, shown[0].hit)
        text = compose()
    return Rendered(text, [s.hit for s in shown], estimate_tokens(text), max(omitted, 0))


def _see_more(result: SearchResult, shown: int, more_hint: str, ranked_hint: str | None) -> str:
    """The last line's "see more with" clause: ``more_hint`` when the budget left out
    some of the ranked hits, ``ranked_hint`` when candidates were left unranked and
    the caller may rank more (fewer hits than :data:`MAX_TOP_K`); "" when neither
    would show more. Why: ``rubi search --top-k 200 --budget 50`` suggested
    ``--top-k N`` with every ranked hit already returned."""
    hints = []
    if shown < len(result.hits):
        hints.append(more_hint)
    if ranked_hint and result.candidates > len(result.hits) and len(result.hits) < MAX_TOP_K:
        hints.append(ranked_hint)
    return f"see more with {' or '.join(hints)}; " if hints else ""


def _passage_json(p: Passage, shown: str | None) -> dict[str, Any]:
    return {
        "id": p.id,
        "parent": p.parent,
        "anchor": p.anchor,
        "heading": p.heading,
        "kind": p.kind,
        "lines": [p.start, p.end],
        "score": p.score,
        "text": shown or "",
        "cut": shown is not None and len(shown) < len(p.text),
    }


def result_json(result: SearchResult, budget_tokens: int) -> dict[str, Any]:
    """The ``--json`` shape: ``{"query", "relevant", "coverage", "hits": [{"id", "path",
    "title", "type", "score", "why", "snippet", "date", "passages", ...}], "tokens",
    "omitted"}``, hits within the budget (``relevant``: false when no hit clears the
    relevance floor, :attr:`SearchResult.relevant`, the hits then weak matches;
    ``coverage``: the best text hit's share of the query's IDF mass; ``date``: the
    hit's day, "" when unknown; ``date_source``: where it comes from,
    :attr:`Hit.date_source`). Each passage is
    ``{"id", "parent", "anchor", "heading", "kind", "lines": [start, end], "score",
    "text", "cut"}``: ``text`` is what the budget let in ("" when none; ``cut`` when
    less than the whole passage). ``also`` (only when there are some): the ids of the
    stubs and near-duplicates collapsed into the hit's place
    (:mod:`rubi.search.duplicates`)."""
    shown, used = _fit(result, budget_tokens)
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
            "date_source": h.date_source,
            "passages": [_passage_json(p, s.texts.get(i)) for i, p in enumerate(h.passages)],
            **({"superseded_by": h.superseded_by} if h.superseded_by else {}),
            **({"stale": list(h.stale)} if h.stale else {}),
            **({"also": list(h.also)} if h.also else {}),
        }
        for s in shown
        for h in [s.hit]
    ]
    return {
        "query": result.query,
        "terms": list(result.terms),
        "relevant": result.relevant,
        "coverage": round(result.coverage, 3),
        "hits": hits,
        "tokens": used,
        "omitted": max(result.candidates - len(hits), 0),
    }
