"""``rubi audit``: what a session carries before the first message, largest first.

It itemizes memory files (CLAUDE.md and friends, their imports), MCP servers (their
tool descriptions, measured when probing is asked for), hooks and the listings that
2.x transcripts record as attachments, and compares the sum with the startup context
measured in the project's recent transcripts. The rest of that measured context is
Claude Code's own system prompt and built-in tools (plus anything not measured).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from rubi.app import (
    MAIN_CHAIN,
    ApiCall,
    Attachment,
    Compaction,
    TranscriptReader,
    TranscriptsNotFoundError,
    UserText,
    discover_sessions,
    projects_dir,
)
from rubi.claude.claudeconfig import (
    approved_project_servers,
    configured_hooks,
    mcp_servers,
    memory_files,
)
from rubi.claude.mcp_probe import probe_server

__all__ = ["AuditItem", "AuditReport", "audit"]

RECENT_SESSIONS = 5
"""Startup context is the median over this many recent sessions: one odd session
(a resumed one, a different model) does not skew it."""

_ATTACHMENT_LABELS = {
    "hook_additional_context": "hook output",
    "hook_success": "hook output",
    "skill_listing": "skill listing",
    "agent_listing_delta": "agent listing",
}


@dataclass(frozen=True, slots=True)
class AuditItem:
    """One thing loaded before (or with) the first message.

    Attributes:
        kind: what it is (``project CLAUDE.md``, ``MCP server``, ``hook output``...).
        source: a path, server name or hook command.
        tokens: estimated tokens, or None when not measured.
        counted: True when it is part of the startup context (False for conditional
            rules, which load later).
        note: how it was measured or why not.
    """

    kind: str
    source: str
    tokens: int | None
    counted: bool = True
    note: str = ""


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The audit of one project folder.

    Attributes:
        directory: the project folder.
        items: measured startup items largest first, then conditional ones, then
            unmeasured ones.
        counted_tokens: sum of the measured items that load at startup.
        measured_startup: median startup context (tokens) of recent sessions, or None
            without transcripts.
        sessions: sessions the measurement used.
    """

    directory: Path
    items: tuple[AuditItem, ...]
    counted_tokens: int
    measured_startup: int | None
    sessions: int

    @property
    def unattributed(self) -> int | None:
        """Measured startup context not itemized: system prompt, built-in tools, and
        anything unmeasured (MCP tools without ``--probe-mcp``); None without data."""
        if self.measured_startup is None:
            return None
        return max(self.measured_startup - self.counted_tokens, 0)


def _startups(directory: Path) -> tuple[list[int], list[Attachment]]:
    """Startup contexts of recent sessions, and the attachments of the latest one."""
    try:
        found = discover_sessions(projects_dir(), project=directory)
    except TranscriptsNotFoundError:
        return [], []
    startups: list[int] = []
    latest: list[Attachment] = []
    for files in reversed([f for f in found if f.main is not None][-RECENT_SESSIONS:]):
        assert files.main is not None
        reader = TranscriptReader()
        text = 0
        attachments: list[Attachment] = []
        for event in reader.read_file(files.main):
            if isinstance(event, UserText) and event.chain == MAIN_CHAIN and not event.call_index:
                text += event.tokens
            elif isinstance(event, Attachment) and event.call_index == 0:
                attachments.append(event)
            elif isinstance(event, Compaction):
                break  # began from a compacted conversation: no startup to measure
            elif isinstance(event, ApiCall) and event.chain == MAIN_CHAIN:
                startups.append(max(event.usage.context - text, 0))
                if not latest:
                    latest = attachments
                break
    return startups, latest


def audit(directory: Path, *, probe_mcp: bool = False) -> AuditReport:
    """Itemize what Claude Code loads before the first message in ``directory``.

    Args:
        directory: the project folder (where ``claude`` is started).
        probe_mcp: start each configured stdio MCP server to measure its tool
            descriptions (runs the configured commands). A server from the
            project's ``.mcp.json`` is started only when the user approved it in
            Claude Code (:func:`approved_project_servers`): that file comes with the
            repository.

    Returns:
        The audit; sizes are estimates (characters / 4).
    """
    directory = directory.absolute()
    items: list[AuditItem] = []
    for memory in memory_files(directory):
        note = memory.note or (
            "" if memory.always else "conditional: loads when matching files are used"
        )
        items.append(AuditItem(memory.kind, str(memory.path), memory.tokens, memory.always, note))
    approved = approved_project_servers(directory) if probe_mcp else set()
    refused: list[tuple[Path, str]] = []
    for server in mcp_servers(directory, refused):
        label = f"{server.name} ({server.scope}, {server.transport})"
        if not probe_mcp:
            items.append(
                AuditItem("MCP server", label, None, note="tool descriptions: use --probe-mcp")
            )
            continue
        if server.scope == "project" and approved is not None and server.name not in approved:
            items.append(
                AuditItem(
                    "MCP server",
                    label,
                    None,
                    note="not probed: the repository's .mcp.json names it and Claude Code "
                    "has not approved it; approve it in Claude Code first",
                )
            )
            continue
        result = probe_server(server)
        if result.error is not None:
            items.append(AuditItem("MCP server", label, None, note=result.error))
        else:
            items.append(
                AuditItem("MCP server", label, result.tokens, note=f"{result.tools} tools")
            )
    startups, attachments = _startups(directory)
    seen_events: set[str] = set()
    for attachment in attachments:
        event = attachment.name.split(":")[0]
        seen_events.add(event)
        note = "with every prompt" if event == "UserPromptSubmit" else "last session"
        label = _ATTACHMENT_LABELS.get(attachment.kind, attachment.kind)
        items.append(
            AuditItem(label, attachment.name or attachment.kind, attachment.tokens, note=note)
        )
    for hook in configured_hooks(directory, refused):
        if hook.event not in seen_events:
            items.append(
                AuditItem(
                    f"{hook.event} hook",
                    hook.command,
                    None,
                    note=f"output not seen in transcripts ({hook.source})",
                )
            )
    for path, reason in dict(refused).items():  # a file read twice is said once
        items.append(AuditItem("unreadable file", str(path), None, note=reason))
    measured = sorted(
        (i for i in items if i.tokens is not None), key=lambda i: (not i.counted, -(i.tokens or 0))
    )
    unmeasured = [i for i in items if i.tokens is None]
    counted = sum(i.tokens or 0 for i in measured if i.counted)
    return AuditReport(
        directory=directory,
        items=tuple(measured + unmeasured),
        counted_tokens=counted,
        measured_startup=int(statistics.median(startups)) if startups else None,
        sessions=len(startups),
    )
