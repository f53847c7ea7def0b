"""Per-session X-ray: context curve, token totals, startup context, cache rewrites, tools.

Definitions (``docs/xray.md`` has the long form):

* *context* of a call = input + cache writes + cache reads (output excluded), the
  status-line formula of Claude Code.
* *startup context* = the first main-chain call's context minus the user text sent
  before it: system prompt, tools, CLAUDE.md, hook and listing attachments.
* a *cache rewrite* = a main-chain call that read less than half of the previous
  call's context from the cache; it is a cache *expiry* when it follows a pause longer
  than the cache lifetime (5 minutes, or 1 hour when the session writes 1-hour cache).
* a tool result's *carried cost* = its tokens written once to the cache and read
  back by every later call of its chain until the next compaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rubi.transcripts.events import (
    MAIN_CHAIN,
    ApiCall,
    Attachment,
    Compaction,
    Meta,
    ReadStats,
    ToolResult,
    ToolUse,
    Usage,
    UserText,
)
from rubi.transcripts.locate import SessionFiles
from rubi.transcripts.settings import (
    CACHE_TTL_1H_SECONDS,
    CACHE_TTL_5M_SECONDS,
    REWRITE_FRACTION,
    PriceRatios,
)
from rubi.transcripts.transcript import TranscriptReader

__all__ = ["CacheRewrite", "FileReads", "SessionStats", "ToolWeight", "analyze_session"]


@dataclass(frozen=True, slots=True)
class CacheRewrite:
    """A main-chain call that rewrote most of the cached prefix.

    Attributes:
        call_index: 0-based index of the call in the main chain.
        gap_seconds: pause since the previous call, or None without timestamps.
        tokens: tokens of the previous context that were not read from the cache.
        extra_cost: what rewriting them cost beyond a cache hit (input-token equivalents).
        expired: True when the pause was longer than the cache lifetime.
    """

    call_index: int
    gap_seconds: float | None
    tokens: int
    extra_cost: float
    expired: bool


@dataclass(frozen=True, slots=True)
class ToolWeight:
    """Weight of one tool's results: calls, tokens, and carried cost (input-token equiv.)."""

    calls: int = 0
    tokens: int = 0
    carried_cost: float = 0.0

    def plus(self, other: ToolWeight) -> ToolWeight:
        """Sum of two weights."""
        return ToolWeight(
            self.calls + other.calls,
            self.tokens + other.tokens,
            self.carried_cost + other.carried_cost,
        )


@dataclass(frozen=True, slots=True)
class FileReads:
    """Reads of one file with the Read tool.

    Attributes:
        reads: reads that returned the file (a denied or failed read is no read).
        tokens: their result tokens.
        repeats: reads of a part already read in the same conversation (the whole file
            again, or the same ``offset``/``limit`` again); reading other parts of a
            file is not a repeat.
        repeat_tokens: the result tokens of those repeats.
    """

    reads: int = 0
    tokens: int = 0
    repeats: int = 0
    repeat_tokens: int = 0


@dataclass(frozen=True, slots=True)
class SessionStats:
    """Everything the X-ray knows about one session.

    Attributes:
        session_id: the session id.
        project: the project folder name (slug).
        cwd: working folder recorded in the transcript, or None.
        title: session title (1.x ``summary`` records), or None.
        start: time of the first API call (POSIX seconds), or None.
        end: time of the last API call, or None.
        main_calls: usage of each main-chain API call, in order (the context curve).
        resumed_after: indices of main calls that follow a compaction.
        compactions: compaction boundaries, in order.
        side_usage: summed usage of subagent and sidechain calls.
        side_calls: number of those calls.
        startup_tokens: startup context (tokens), or None without a main call or when
            the session starts from old context (a resumed copy, a compaction).
        rewrites: cache rewrites of the main chain, in order.
        tools: weight by tool name (all chains).
        reads: Read-tool reads by file path (all chains; denied and failed reads
            left out).
        read_stats: what reading this session's files met.
        cost_main: cost of the main chain (input-token equivalents).
        cost_side: cost of subagents and sidechains.
    """

    session_id: str
    project: str
    cwd: str | None
    title: str | None
    start: float | None
    end: float | None
    main_calls: tuple[Usage, ...]
    resumed_after: frozenset[int]
    compactions: tuple[Compaction, ...]
    side_usage: Usage
    side_calls: int
    startup_tokens: int | None
    rewrites: tuple[CacheRewrite, ...]
    tools: Mapping[str, ToolWeight]
    reads: Mapping[str, FileReads]
    read_stats: ReadStats
    cost_main: float
    cost_side: float

    @property
    def folder(self) -> str:
        """The project the session worked in: the working folder its transcript
        records, else its transcript folder's name (the slug). The X-ray counts
        projects by it and its tables name it, so the two agree (transcript files
        given by hand share one folder whatever projects they come from)."""
        return self.cwd or self.project

    @property
    def cost(self) -> float:
        """Total cost of the session (input-token equivalents)."""
        return self.cost_main + self.cost_side

    @property
    def usage(self) -> Usage:
        """Summed usage of all its calls, main chain and subagents."""
        total = self.side_usage
        for call in self.main_calls:
            total = total.plus(call)
        return total

    @property
    def curve(self) -> tuple[int, ...]:
        """Context size (tokens) of each main-chain call, in order."""
        return tuple(call.context for call in self.main_calls)

    @property
    def peak_context(self) -> int:
        """Largest main-chain context (tokens); 0 without calls."""
        return max((call.context for call in self.main_calls), default=0)

    @property
    def current_context(self) -> int | None:
        """Context of the last main call, None when a compaction came after it
        (the algorithm of the integration reference, section 2.4)."""
        if not self.main_calls:
            return None
        last = len(self.main_calls)
        if any(c.chain == MAIN_CHAIN and c.call_index >= last for c in self.compactions):
            return None
        return self.main_calls[-1].context


@dataclass(slots=True)
class _Builder:
    """One session's analysis while its events are read."""

    prices: PriceRatios
    cwd: str | None = None
    title: str | None = None
    main: list[ApiCall] = field(default_factory=list)
    side_usage: Usage = field(default_factory=Usage)
    side_calls: int = 0
    chain_calls: dict[str, int] = field(default_factory=dict)
    compactions: list[Compaction] = field(default_factory=list)
    startup_text: int = 0
    fresh_start: bool = True
    tool_names: dict[str, ToolUse] = field(default_factory=dict)
    results: list[tuple[ToolResult, ToolUse | None]] = field(default_factory=list)

    def take(self, event: object, repeated: int = 0) -> None:
        if isinstance(event, ApiCall):
            self.chain_calls[event.chain] = self.chain_calls.get(event.chain, 0) + 1
            if event.chain == MAIN_CHAIN:
                if not self.main and (repeated or self.compactions):
                    self.fresh_start = False  # resumed: the first call carries old context
                self.main.append(event)
            else:
                self.side_usage = self.side_usage.plus(event.usage)
                self.side_calls += 1
        elif isinstance(event, ToolUse):
            self.tool_names[event.tool_use_id] = event
        elif isinstance(event, ToolResult):
            self.results.append((event, self.tool_names.get(event.tool_use_id)))
        elif isinstance(event, UserText):
            if event.chain == MAIN_CHAIN and event.call_index == 0:
                self.startup_text += event.tokens
        elif isinstance(event, Compaction):
            self.compactions.append(event)
        elif isinstance(event, Meta):
            self.cwd = self.cwd or event.cwd
            self.title = self.title or event.title
        elif isinstance(event, Attachment):
            pass  # part of the startup context; the audit itemizes them

    def segment_end(self, chain: str, index: int) -> int:
        """Calls of ``chain`` up to the first compaction after call ``index``."""
        for comp in self.compactions:
            if comp.chain == chain and comp.call_index > index:
                return comp.call_index
        return self.chain_calls.get(chain, 0)

    def tools(self) -> tuple[dict[str, ToolWeight], dict[str, FileReads]]:
        weights: dict[str, ToolWeight] = {}
        reads: dict[str, FileReads] = {}
        seen: set[tuple[str, str, str]] = set()  # (chain, path, part) read so far
        for result, use in self.results:
            name = use.name if use is not None else "unknown"
            carried = self.segment_end(result.chain, result.call_index) - result.call_index
            cost = 0.0
            if carried > 0:
                cost = result.tokens * (
                    self.prices.cache_write_5m + self.prices.cache_read * (carried - 1)
                )
            weights[name] = weights.get(name, ToolWeight()).plus(ToolWeight(1, result.tokens, cost))
            if use is None or name != "Read" or not use.file_path or result.error:
                continue
            key = (use.chain, use.file_path, use.part)
            repeat = key in seen
            seen.add(key)
            old = reads.get(use.file_path, FileReads())
            reads[use.file_path] = FileReads(
                old.reads + 1,
                old.tokens + result.tokens,
                old.repeats + repeat,
                old.repeat_tokens + (result.tokens if repeat else 0),
            )
        return weights, reads

    def rewrites(self) -> list[CacheRewrite]:
        uses_1h = any(call.usage.cache_write_1h for call in self.main)
        ttl = CACHE_TTL_1H_SECONDS if uses_1h else CACHE_TTL_5M_SECONDS
        resumed = {c.call_index for c in self.compactions if c.chain == MAIN_CHAIN}
        found: list[CacheRewrite] = []
        for i in range(1, len(self.main)):
            prev, call = self.main[i - 1], self.main[i]
            previous = prev.usage.context
            missed = previous - call.usage.cache_read
            if i in resumed or call.usage.cache_write == 0:
                continue
            if call.usage.cache_read >= (1 - REWRITE_FRACTION) * previous:
                continue
            gap = call.start - prev.end if call.start is not None and prev.end is not None else None
            share_1h = call.usage.cache_write_1h / call.usage.cache_write
            write_price = (
                share_1h * self.prices.cache_write_1h + (1 - share_1h) * self.prices.cache_write_5m
            )
            extra = missed * (write_price - self.prices.cache_read)
            expired = gap is not None and gap > ttl
            found.append(CacheRewrite(i, gap, missed, extra, expired))
        return found


def analyze_session(
    files: SessionFiles, reader: TranscriptReader, prices: PriceRatios
) -> SessionStats:
    """Read one session's files and measure it.

    Args:
        files: the session's main transcript and subagent files.
        reader: the scan's reader (keeps de-duplication across sessions); its
            ``stats`` are replaced by this session's and left there.
        prices: price ratios for costs.

    Returns:
        The session's statistics.
    """
    reader.stats = ReadStats()
    builder = _Builder(prices)
    if files.main is not None:
        for event in reader.read_file(files.main):
            builder.take(event, reader.stats.repeated_calls)
    for agent_id, path in files.agents:
        for event in reader.read_file(path, agent_id=agent_id):
            builder.take(event)
    tools, reads = builder.tools()
    main = builder.main
    startup = None
    if main and builder.fresh_start:
        startup = max(main[0].usage.context - builder.startup_text, 0)
    times = [c.start for c in main if c.start is not None]
    return SessionStats(
        session_id=files.session_id,
        project=files.project,
        cwd=builder.cwd,
        title=builder.title,
        start=min(times, default=None),
        end=max((c.end for c in main if c.end is not None), default=None),
        main_calls=tuple(c.usage for c in main),
        resumed_after=frozenset(c.call_index for c in builder.compactions if c.chain == MAIN_CHAIN),
        compactions=tuple(builder.compactions),
        side_usage=builder.side_usage,
        side_calls=builder.side_calls,
        startup_tokens=startup,
        rewrites=tuple(builder.rewrites()),
        tools=tools,
        reads=reads,
        read_stats=reader.stats,
        cost_main=sum(c.usage.cost(prices) for c in main),
        cost_side=builder.side_usage.cost(prices),
    )
