"""Build Claude Code transcript lines by hand, so tests know every total in advance.

The shapes follow the real samples in ``shared/data/transcripts`` (1.0.x and 2.1.x).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLES = Path(os.environ.get("RUBI_SHARED_DATA", REPO.parent / "shared" / "data")) / "transcripts"

SAMPLE_CONTEXT = {
    "1af7fc5e-8455-4414-9ccd-011d40f70b2a": 17437,
    "5c0375b4-57a5-4f26-b12d-d022ee4e51b7": 26080,
    "GENERATED-cc2.1.197-mockapi": 12012,
    "SYNTHETIC-v2-features": 5204,
}
"""Current context of each sample, from the samples README."""


SESSION = "aaaaaaaa-1111-4222-8333-444444444444"
T0 = datetime(2026, 1, 10, 9, 0, 0, tzinfo=UTC)


def ts(seconds: float) -> str:
    """ISO timestamp ``seconds`` after T0, in Claude Code's format."""
    moment = T0 + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def usage(inp: int = 0, w5: int = 0, w1: int = 0, read: int = 0, out: int = 0) -> dict[str, Any]:
    """A ``message.usage`` object."""
    return {
        "input_tokens": inp,
        "cache_creation_input_tokens": w5 + w1,
        "cache_read_input_tokens": read,
        "cache_creation": {"ephemeral_5m_input_tokens": w5, "ephemeral_1h_input_tokens": w1},
        "output_tokens": out,
        "service_tier": "standard",
    }


def _base(at: float, sidechain: bool, agent: str | None, session: str) -> dict[str, Any]:
    record: dict[str, Any] = {
        "parentUuid": None,
        "isSidechain": sidechain,
        "userType": "external",
        "cwd": "/home/dev/demo",
        "sessionId": session,
        "version": "2.1.100",
        "gitBranch": "main",
        "timestamp": ts(at),
    }
    if agent:
        record["agentId"] = agent
    return record


def assistant(
    msg_id: str,
    use: dict[str, Any],
    at: float,
    *,
    tools: Sequence[tuple[str, str, str | None]] = (),
    sidechain: bool = False,
    agent: str | None = None,
    model: str = "claude-sonnet-4-5-20250929",
    session: str = SESSION,
    error: bool = False,
) -> dict[str, Any]:
    """An assistant line; ``tools`` are (tool_use id, name, file_path or None)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": "ok"}]
    for tool_id, name, path in tools:
        tool_input = {"file_path": path} if path else {"command": "ls"}
        content.append({"type": "tool_use", "id": tool_id, "name": name, "input": tool_input})
    record = _base(at, sidechain, agent, session)
    record.update(
        type="assistant",
        requestId=f"req_{msg_id}",
        uuid=f"u-{msg_id}-{at}",
        message={
            "model": model,
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "content": content,
            "usage": use,
        },
    )
    if error:
        record["isApiErrorMessage"] = True
    return record


def user(
    text: str, at: float, *, meta: bool = False, sidechain: bool = False, summary: bool = False
) -> dict[str, Any]:
    """A user line with string content."""
    record = _base(at, sidechain, None, SESSION)
    record.update(type="user", uuid=f"user-{at}", message={"role": "user", "content": text})
    if meta:
        record["isMeta"] = True
    if summary:
        record["isCompactSummary"] = True
        record["isVisibleInTranscriptOnly"] = True
    return record


def tool_result(tool_id: str, content: str, at: float, *, sidechain: bool = False) -> Any:
    """A user line carrying one tool_result."""
    record = _base(at, sidechain, None, SESSION)
    record.update(
        type="user",
        uuid=f"res-{tool_id}",
        message={
            "role": "user",
            "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": content}],
        },
        toolUseResult={"stdout": content},
    )
    return record


def compact_boundary(at: float, pre_tokens: int, trigger: str = "auto") -> dict[str, Any]:
    """A ``system/compact_boundary`` line."""
    record = _base(at, False, None, SESSION)
    record.update(
        type="system",
        subtype="compact_boundary",
        content="Conversation compacted",
        compactMetadata={"trigger": trigger, "preTokens": pre_tokens},
        uuid=f"c-{at}",
    )
    return record


def write_jsonl(path: Path, records: Iterable[dict[str, Any] | str]) -> Path:
    """Write records (dicts as JSON, strings verbatim, e.g. broken lines) one per line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            line = record if isinstance(record, str) else json.dumps(record)
            handle.write(line + "\n")
    return path


def long_session(
    path: Path,
    *,
    calls: int = 200,
    step: int = 1_000,
    base: int = 15_000,
    pause_at: int | None = 120,
    session: str = SESSION,
) -> Path:
    """A long session: each call adds ``step`` tokens (a Read of 4*step characters);
    a 10-minute pause before call ``pause_at`` expires the cache."""
    records: list[dict[str, Any] | str] = [user("start", 0)]
    at = 1.0
    context = base
    for index in range(calls):
        expired = index == pause_at
        at += 600 if expired else 10
        write = context if expired else (base if index == 0 else step)
        read = 0 if expired or index == 0 else context - step
        tool_id = f"toolu_{session[:4]}_{index}"
        records.append(
            assistant(
                f"msg_{session[:4]}_{index}",
                usage(2, w5=write, read=read, out=200),
                at,
                tools=[(tool_id, "Read", f"/home/dev/demo/f{index % 7}.py")],
                session=session,
            )
        )
        records.append(tool_result(tool_id, "z" * (4 * step), at + 1))
        context += step
    return write_jsonl(path, records)
