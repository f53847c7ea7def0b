"""Stream a Claude Code transcript (``<session>.jsonl``) into typed events.

The format has no official schema (see ``docs/xray.md``), so the reader is
defensive: a line that does not parse is counted and skipped, every key is optional,
and unknown record types are ignored. One API response written over several lines
(same ``message.id`` / ``requestId``) becomes one :class:`ApiCall` with the merged
usage; a call seen before (a resumed session copies its history) is not counted
again. API-error lines (``isApiErrorMessage``, model ``<synthetic>``) are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.transcripts.events import (
    MAIN_CHAIN,
    ApiCall,
    Compaction,
    Event,
    Meta,
    ReadStats,
    ToolResult,
    ToolUse,
    Usage,
    UserText,
)
from rubi.transcripts.records import attachment_event, parse_time, text_chars, tokens_of, usage_from

TYPE_CHECKING = False  # typing costs a hook ~2 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any, BinaryIO

__all__ = ["MAX_LINE_BYTES", "TranscriptReader"]

log = get_logger(__name__)  # logging imported on the first message (rubi.core.lazylog)

_SKIP_PREFIXES = (b'{"type":"file-history-snapshot"', b'{"type":"queue-operation"')
"""Bookkeeping records (large file backups, prompt queue) that carry no tokens: skipped
before parsing, which saves time on big files."""


MAX_LINE_BYTES = 50_000_000
"""A transcript line longer than this is skipped and counted as broken, read in pieces
of this size: memory stays bounded whatever a file holds (a file named on the command
line can be anything)."""


def _lines(handle: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """``(size in bytes, line)`` for each line of ``handle`` (newline kept); the line is
    None when it is longer than :data:`MAX_LINE_BYTES` (read past, never held whole)."""
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        if len(raw) <= MAX_LINE_BYTES:
            yield len(raw), raw
            continue
        size = len(raw)
        while not raw.endswith(b"\n"):
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            size += len(raw)
        yield size, None


@dataclass(slots=True)
class _OpenCall:
    """An API call whose streamed records are still being read."""

    key: str
    usage: Usage
    model: str
    start: float | None
    end: float | None
    line: int


class TranscriptReader:
    """Reads transcript files into events, keeping de-duplication state across files.

    Use one reader for all the files of a scan, oldest first, so that a call copied
    into a later (resumed) session is counted once, where it first happened.

    Attributes:
        stats: counts of what was read, bad lines included.
    """

    def __init__(self) -> None:
        self.stats = ReadStats()
        self._seen_calls: set[str] = set()
        self._seen_tools: set[str] = set()

    def read_file(self, path: Path, *, agent_id: str | None = None) -> Iterator[Event]:
        """Yield the events of one transcript file, in file order.

        Args:
            path: a ``.jsonl`` transcript.
            agent_id: set for a subagent file; all its records then belong to the
                chain ``"agent:<agent_id>"``.

        Returns:
            An iterator of events; an :class:`ApiCall` is yielded once its last line
            has been read (when the chain's next call starts, at a compaction or at
            the end of the file). A file that cannot be opened yields nothing and is
            counted in ``stats.unreadable_files``.
        """
        try:
            handle = path.open("rb")  # bytes: json.loads decodes UTF-8 itself
        except OSError as err:
            log.warning("cannot read %s: %s", path, err)
            self.stats.unreadable_files += 1
            return
        self.stats.files += 1
        state = _FileState(path, agent_id)
        with handle:
            for number, (size, raw) in enumerate(_lines(handle), start=1):
                self.stats.bytes += size
                if raw is not None and not raw.strip():
                    continue
                self.stats.lines += 1
                if raw is not None and raw.startswith(_SKIP_PREFIXES):
                    continue
                record = None
                if raw is not None:
                    try:
                        record = json.loads(raw)
                    except ValueError:  # JSONDecodeError and UnicodeDecodeError
                        record = None
                if not isinstance(record, dict):
                    self.stats.bad_lines += 1
                    if len(self.stats.bad_examples) < 5:
                        self.stats.bad_examples.append(f"{path}:{number}")
                    continue
                yield from self._record(record, number, state)
        yield from state.close_all()

    def _record(self, record: dict[str, Any], number: int, state: _FileState) -> Iterator[Event]:
        kind = record.get("type")
        chain = state.chain_of(record)
        if not state.meta_done and isinstance(record.get("cwd"), str):
            state.meta_done = True
            version = record.get("version")
            yield Meta(record["cwd"], None, version if isinstance(version, str) else None)
        if kind == "assistant":
            yield from self._assistant(record, number, chain, state)
        elif kind == "user":
            yield from self._user(record, chain, state)
        elif kind == "system" and record.get("subtype") == "compact_boundary":
            yield from state.close(chain)
            meta = record.get("compactMetadata")
            meta = meta if isinstance(meta, dict) else {}
            trigger = meta.get("trigger")
            pre = meta.get("preTokens")
            state.boundary_pending = True
            yield Compaction(
                chain,
                trigger if isinstance(trigger, str) else "unknown",
                pre if isinstance(pre, int) else None,
                parse_time(record.get("timestamp")),
                state.started.get(chain, 0),
            )
        elif kind == "attachment":
            attachment = record.get("attachment")
            if isinstance(attachment, dict):
                found = attachment_event(attachment, state.started.get(chain, 0))
                if found is not None:
                    yield found
        elif kind == "summary" and isinstance(record.get("summary"), str):
            yield Meta(None, record["summary"], None)

    def _assistant(
        self, record: dict[str, Any], number: int, chain: str, state: _FileState
    ) -> Iterator[Event]:
        message = record.get("message")
        if not isinstance(message, dict):
            return
        model = message.get("model")
        if record.get("isApiErrorMessage") or model == "<synthetic>":
            self.stats.synthetic_lines += 1
            return
        key = message.get("id") or record.get("requestId") or f"{state.path}:{number}"
        key = str(key)
        when = parse_time(record.get("timestamp"))
        usage = usage_from(message.get("usage"))
        current = state.open.get(chain)
        if current is not None and current.key == key:
            self.stats.split_lines += 1
            current.usage = current.usage.merged(usage)
            current.end = when if when is not None else current.end
        elif key in self._seen_calls:
            self.stats.repeated_calls += 1
        else:
            yield from state.close(chain)
            self._seen_calls.add(key)
            state.open[chain] = _OpenCall(key, usage, str(model or ""), when, when, number)
            state.started[chain] = state.started.get(chain, 0) + 1
            state.boundary_pending = False
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    tool_id = block.get("id")
                    if not isinstance(tool_id, str) or tool_id in self._seen_tools:
                        continue
                    self._seen_tools.add(tool_id)
                    tool_input = block.get("input")
                    tool_input = tool_input if isinstance(tool_input, dict) else {}
                    file_path = tool_input.get("file_path") or tool_input.get("notebook_path")
                    yield ToolUse(
                        chain,
                        tool_id,
                        str(block.get("name") or "unknown"),
                        file_path if isinstance(file_path, str) else None,
                        _part(tool_input),
                    )

    def _user(self, record: dict[str, Any], chain: str, state: _FileState) -> Iterator[Event]:
        message = record.get("message")
        if not isinstance(message, dict):
            return
        index = state.started.get(chain, 0)
        if record.get("isCompactSummary") and not state.boundary_pending:
            # An older compaction with no boundary line: the summary marks it.
            yield from state.close(chain)
            yield Compaction(chain, "unknown", None, parse_time(record.get("timestamp")), index)
        state.boundary_pending = False
        content = message.get("content")
        meta = bool(record.get("isMeta"))
        if isinstance(content, str):
            yield UserText(chain, tokens_of(len(content)), index, meta)
            return
        if not isinstance(content, list):
            return
        chars = 0
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                tool_id = block.get("tool_use_id")
                if not isinstance(tool_id, str) or f"r:{tool_id}" in self._seen_tools:
                    continue
                self._seen_tools.add(f"r:{tool_id}")
                yield ToolResult(
                    chain,
                    tool_id,
                    tokens_of(text_chars([block])),
                    index,
                    block.get("is_error") is True,
                )
            else:
                chars += text_chars([block])
        if chars:
            yield UserText(chain, tokens_of(chars), index, meta)


_PART_KEYS = ("offset", "limit", "pages")
"""Read-tool arguments that ask for part of a file (lines from ``offset``, ``limit``
lines, PDF ``pages``)."""


def _part(tool_input: dict[str, Any]) -> str:
    """The part of a file a tool call asked for, as text ("" for the whole file)."""
    found = []
    for key in _PART_KEYS:
        value = tool_input.get(key)
        if value is not None and not isinstance(value, bool | dict | list):
            found.append(f"{key}={str(value)[:40]}")
    return " ".join(found)


class _FileState:
    """Per-file reading state: open calls and call counts per chain."""

    def __init__(self, path: Path, agent_id: str | None) -> None:
        self.path = path
        self.agent_chain = f"agent:{agent_id}" if agent_id else None
        self.open: dict[str, _OpenCall] = {}
        self.started: dict[str, int] = {}
        self.boundary_pending = False
        self.meta_done = False

    def chain_of(self, record: dict[str, Any]) -> str:
        if self.agent_chain is not None:
            return self.agent_chain
        if not record.get("isSidechain"):
            return MAIN_CHAIN
        agent = record.get("agentId")
        return f"agent:{agent}" if isinstance(agent, str) and agent else "sidechain"

    def close(self, chain: str) -> Iterator[ApiCall]:
        call = self.open.pop(chain, None)
        if call is not None:
            yield ApiCall(chain, call.key, call.usage, call.model, call.start, call.end, call.line)

    def close_all(self) -> Iterator[ApiCall]:
        for chain in list(self.open):
            yield from self.close(chain)
