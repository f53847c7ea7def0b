"""What the transcript reader yields: token usage, API calls and the records around them.

All token counts are tokens; times are POSIX seconds (UTC). A *chain* names the
conversation a record belongs to: ``"main"`` for the session itself, ``"agent:<id>"``
for a subagent, ``"sidechain"`` for an old inline sidechain without an agent id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rubi.transcripts.settings import PriceRatios

__all__ = [
    "MAIN_CHAIN",
    "ApiCall",
    "Attachment",
    "Compaction",
    "Event",
    "Meta",
    "ReadStats",
    "ToolResult",
    "ToolUse",
    "Usage",
    "UserText",
]

MAIN_CHAIN = "main"


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one API call (or a sum of calls), by class."""

    input: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    cache_read: int = 0
    output: int = 0

    @property
    def cache_write(self) -> int:
        """Tokens written to the cache, both lifetimes."""
        return self.cache_write_5m + self.cache_write_1h

    @property
    def context(self) -> int:
        """Context size of the call: everything sent (input + cache writes + cache reads)."""
        return self.input + self.cache_write_5m + self.cache_write_1h + self.cache_read

    def plus(self, other: Usage) -> Usage:
        """Sum of two usages, class by class."""
        return Usage(
            self.input + other.input,
            self.cache_write_5m + other.cache_write_5m,
            self.cache_write_1h + other.cache_write_1h,
            self.cache_read + other.cache_read,
            self.output + other.output,
        )

    def merged(self, other: Usage) -> Usage:
        """Class-by-class maximum: the lines of one split API response repeat the same
        usage, except that output grows as the response streams."""
        return Usage(
            max(self.input, other.input),
            max(self.cache_write_5m, other.cache_write_5m),
            max(self.cache_write_1h, other.cache_write_1h),
            max(self.cache_read, other.cache_read),
            max(self.output, other.output),
        )

    def cost(self, prices: PriceRatios) -> float:
        """Cost in input-token equivalents under ``prices``."""
        return (
            self.input * prices.input
            + self.cache_write_5m * prices.cache_write_5m
            + self.cache_write_1h * prices.cache_write_1h
            + self.cache_read * prices.cache_read
            + self.output * prices.output
        )


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One de-duplicated API call.

    Attributes:
        chain: conversation the call belongs to (see the module docstring).
        key: ``message.id`` (else ``requestId``) that identified the call's lines.
        usage: merged usage of all its lines.
        model: ``message.model``.
        start: time of its first line (seconds), None when absent.
        end: time of its last line (seconds), None when absent.
        line: 1-based line number of its first line.
    """

    chain: str
    key: str
    usage: Usage
    model: str
    start: float | None
    end: float | None
    line: int


@dataclass(frozen=True, slots=True)
class ToolUse:
    """A ``tool_use`` block: its id, tool name and, for file tools, the file path.

    ``part`` is the part of the file a read asked for: "" for the whole file, else its
    range arguments as text (``offset=120 limit=40``, ``pages=1-3``), so two reads are
    the same read only when they asked for the same part.
    """

    chain: str
    tool_use_id: str
    name: str
    file_path: str | None
    part: str = ""


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A ``tool_result`` block and its estimated size.

    Attributes:
        chain: conversation it was added to.
        tool_use_id: the ``tool_use`` it answers.
        tokens: estimated tokens of its content (characters / 4, images counted flat).
        call_index: API calls the chain had started before it; the result is in the
            context of every later call of the chain until the next compaction.
        error: the block is marked ``is_error`` (the tool failed or a hook or the user
            denied it): nothing was read.
    """

    chain: str
    tool_use_id: str
    tokens: int
    call_index: int
    error: bool = False


@dataclass(frozen=True, slots=True)
class UserText:
    """Text a user line added (a prompt, a slash-command expansion, a compact summary)."""

    chain: str
    tokens: int
    call_index: int
    meta: bool


@dataclass(frozen=True, slots=True)
class Compaction:
    """A compaction boundary.

    Attributes:
        chain: conversation that was compacted (normally ``"main"``).
        trigger: ``"auto"``, ``"manual"`` or ``"unknown"``.
        pre_tokens: context before compaction as Claude Code recorded it, or None.
        time: when it happened (seconds), or None.
        call_index: calls of the chain before it.
    """

    chain: str
    trigger: str
    pre_tokens: int | None
    time: float | None
    call_index: int


@dataclass(frozen=True, slots=True)
class Attachment:
    """A 2.x ``attachment`` record that put text in the context (hook output, listings)."""

    kind: str
    name: str
    tokens: int
    call_index: int


@dataclass(frozen=True, slots=True)
class Meta:
    """Session facts found along the way: working folder, title, CLI version."""

    cwd: str | None
    title: str | None
    version: str | None


Event = ApiCall | ToolUse | ToolResult | UserText | Compaction | Attachment | Meta


@dataclass(slots=True)
class ReadStats:
    """What reading transcripts met, for the report. Counts are lines unless named.

    Attributes:
        files: files read.
        bytes: bytes read.
        lines: non-blank lines.
        bad_lines: lines that did not parse as a JSON object (truncated, corrupt).
        bad_examples: up to five ``"file:line"`` places of bad lines.
        synthetic_lines: API-error lines (``isApiErrorMessage`` / ``<synthetic>``) skipped.
        split_lines: extra lines of a split API response, merged into one call.
        repeated_calls: lines of an API call already counted earlier (copied on resume).
        unreadable_files: files that could not be opened.
    """

    files: int = 0
    bytes: int = 0
    lines: int = 0
    bad_lines: int = 0
    bad_examples: list[str] = field(default_factory=list)
    synthetic_lines: int = 0
    split_lines: int = 0
    repeated_calls: int = 0
    unreadable_files: int = 0

    def add(self, other: ReadStats) -> None:
        """Add ``other``'s counts into this one."""
        self.files += other.files
        self.bytes += other.bytes
        self.lines += other.lines
        self.bad_lines += other.bad_lines
        room = 5 - len(self.bad_examples)
        self.bad_examples.extend(other.bad_examples[:room])
        self.synthetic_lines += other.synthetic_lines
        self.split_lines += other.split_lines
        self.repeated_calls += other.repeated_calls
        self.unreadable_files += other.unreadable_files
