"""Named settings of the Token X-ray: price ratios, thresholds and detection limits.

Every number the X-ray uses to judge a transcript lives here with its reason, so a
reader can check (or change) the model in one place. Token counts are in tokens,
times in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BIG_SESSION_TOKENS",
    "CACHE_TTL_1H_SECONDS",
    "CACHE_TTL_5M_SECONDS",
    "DEFAULT_BASE_TOKENS",
    "DEFAULT_DAYS",
    "DEFAULT_HANDOFF_TOKENS",
    "DEFAULT_THRESHOLDS",
    "FALLBACK_BASE_TOKENS",
    "IMAGE_TOKENS",
    "NEAR_1M_TOKENS",
    "REWRITE_FRACTION",
    "PriceRatios",
    "ReplayPolicy",
]

CACHE_READ_RATIO = 0.1
"""Anthropic bills a cache hit at 0.1x the base input price."""

CACHE_WRITE_5M_RATIO = 1.25
"""A write to the 5-minute cache costs 1.25x the base input price."""

CACHE_WRITE_1H_RATIO = 2.0
"""A write to the 1-hour cache costs 2x the base input price."""

OUTPUT_RATIO = 5.0
"""Output tokens cost 5x input tokens on every current Claude model (e.g. $3 vs $15)."""


@dataclass(frozen=True, slots=True)
class PriceRatios:
    """Price of each token class in input-token equivalents (1.0 = one uncached input token).

    Costs in the X-ray are in these units, so they hold for every model whose price
    list keeps these ratios (all Claude 4.x models do).
    """

    input: float = 1.0
    cache_write_5m: float = CACHE_WRITE_5M_RATIO
    cache_write_1h: float = CACHE_WRITE_1H_RATIO
    cache_read: float = CACHE_READ_RATIO
    output: float = OUTPUT_RATIO


DEFAULT_THRESHOLDS: tuple[int, ...] = (100_000, 150_000, 250_000)
"""Compaction thresholds the replay tries: 100k and 150k fit a 200k window with room
to work; 250k is the first useful stop on a 1M-window model."""

DEFAULT_HANDOFF_TOKENS = 8_000
"""Size of the handoff a session resumes from after an early compaction: about what a
careful summary of goals, decisions, open files and next steps takes."""

DEFAULT_BASE_TOKENS: int | None = None
"""Fixed base a replayed session resumes from; None means "this session's own startup
context" (system prompt, tools, CLAUDE.md), measured from its first API call."""

FALLBACK_BASE_TOKENS = 20_000
"""Base for a session whose startup context is unknown (it began from a resume or a
compaction): about what Claude Code 2.x sends before the first message with a modest
CLAUDE.md and a few MCP tools."""

DEFAULT_DAYS = 30
"""Window of the cross-session scan: a month shows habits without old noise."""

BIG_SESSION_TOKENS = 150_000
"""A session whose context grew past this is "big": on a 200k window it is close to
auto-compaction and every call re-reads most of the window."""

NEAR_1M_TOKENS = 800_000
"""A session whose context passed this is "near 1M": only 1M-window models get there,
and each call then costs as much as dozens of small ones."""

CACHE_TTL_5M_SECONDS = 300
"""Lifetime of a 5-minute cache entry (refreshed on every hit)."""

CACHE_TTL_1H_SECONDS = 3_600
"""Lifetime of a 1-hour cache entry (refreshed on every hit)."""

REWRITE_FRACTION = 0.5
"""A call rewrites the prefix when it writes at least this share of the previous
call's context to the cache: normal turns write only the few new messages."""

IMAGE_TOKENS = 1_600
"""Estimated tokens of one image block in a tool result: a picture at the API's
default maximum size (about 1.15 megapixels / 750 pixels per token)."""


@dataclass(frozen=True, slots=True)
class ReplayPolicy:
    """An early-compaction policy to replay against a session's real context curve.

    Attributes:
        thresholds: contexts (tokens) at which to compact, one replay per threshold.
        handoff_tokens: size (tokens) of the handoff written at each compaction and
            re-read after it.
        base_tokens: fixed context (tokens) a session resumes from after compaction;
            None uses each session's measured startup context.
    """

    thresholds: tuple[int, ...] = DEFAULT_THRESHOLDS
    handoff_tokens: int = DEFAULT_HANDOFF_TOKENS
    base_tokens: int | None = DEFAULT_BASE_TOKENS


CLASS_LABELS: dict[str, str] = {
    "input": "uncached input",
    "cache_write_5m": "cache write 5m",
    "cache_write_1h": "cache write 1h",
    "cache_read": "cache read",
    "output": "output",
}
"""How each token class is named in the summary and the HTML report."""
