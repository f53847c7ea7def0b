"""The cost line without the X-ray's analysis (:func:`measure_transcript`, for a session
that called none of rubi's MCP tools, as SessionStart runs it) gives the figures the
X-ray's analysis gives (:func:`measure_rubi`), API calls counted by the same rules:
split and repeated records, records without an id, API error and synthetic records,
sidechains, a compaction; and hands over to the analysis when rubi's tools were
called, in the main chain or a sidechain."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rubi.app.sessioncost import schema_tokens, transcript_cost
from rubi.claude.install import hook_command
from rubi.transcripts.analyze import analyze_session
from rubi.transcripts.locate import SessionFiles
from rubi.transcripts.rubicost import measure_rubi, measure_transcript
from rubi.transcripts.settings import PriceRatios
from rubi.transcripts.transcript import TranscriptReader

from helpers import SHARED_DATA

SESSION = "5e551011-aaaa-bbbb-cccc-000000000001"


def _assistant(mid: str | None, *, text: str = "ok", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "model": extra.pop("model", "claude-x"),
        "content": extra.pop("content", [{"type": "text", "text": text}]),
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100},
    }
    if mid is not None:
        message["id"] = mid
    return {"type": "assistant", "message": message, **extra}


def _read_use(tid: str, path: str) -> list[dict[str, Any]]:
    return [{"type": "tool_use", "id": tid, "name": "Read", "input": {"file_path": path}}]


def _result(tid: str, text: str, *, error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tid, "content": text, "is_error": error}
    return {"type": "user", "message": {"role": "user", "content": [block]}}


def _hook(event: str, context: str) -> dict[str, Any]:
    out = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}
    attachment = {
        "type": "hook_success",
        "hookEvent": event,
        "command": hook_command("rubi", event),
        "stdout": json.dumps(out),
    }
    return {"type": "attachment", "attachment": attachment}


def _records() -> list[dict[str, Any]]:
    denial = "big.py is large: reading it whole costs about 12,000 tokens of context"
    return [
        {"type": "user", "message": {"role": "user", "content": "why?"}, "cwd": "/p"},
        _hook("UserPromptSubmit", "rubi recalled: notes/a"),
        _assistant("m1", content=_read_use("t1", "/p/big.py")),
        _assistant("m1", text="split line of the same call"),
        _result("t1", denial, error=True),
        _assistant("m2", content=_read_use("t2", "/p/big.py")),
        _result("t2", "x" * 4000),
        _assistant(None, text="no id: a call of its own"),
        _assistant(None, text="another without an id"),
        _assistant("m3", isApiErrorMessage=True, text="API error"),
        _assistant("m4", model="<synthetic>", text="synthetic"),
        _assistant("s1", isSidechain=True, agentId="a1", text="a subagent's call"),
        _assistant("m1", text="m1 repeated after others"),
        {"type": "system", "subtype": "compact_boundary", "compactMetadata": {}},
        _assistant("m5", text="after the compaction"),
        "not a record",
        _assistant("m6", text="last"),
    ]


def _write(path: Path, records: list[Any]) -> Path:
    lines = [json.dumps(r) for r in records]
    path.write_text("\n".join(lines[:7]) + "\n{broken\n\n" + "\n".join(lines[7:]) + "\n")
    return path


def _both(path: Path) -> tuple[Any, Any]:
    """(the cost without the analysis or None when it ran, the cost from the analysis)."""
    prices = PriceRatios()
    analyzed: list[bool] = []

    def analyze() -> Any:
        analyzed.append(True)
        files = SessionFiles(SESSION, path.parent.name, path, (), 0.0, 0)
        return analyze_session(files, TranscriptReader(), prices)

    lean = measure_transcript(path, SESSION, schema_tokens(), prices, analyze)
    full = measure_rubi(analyze(), path, schema_tokens(), prices)
    return (None if len(analyzed) > 1 else lean), full


def test_the_figures_match_the_xray_s_on_every_kind_of_record(tmp_path: Path) -> None:
    lean, full = _both(_write(tmp_path / f"{SESSION}.jsonl", _records()))
    assert lean is not None
    assert lean == full
    assert full.calls == 6 and full.denials == 1 and full.hook_runs == 1  # not vacuous
    assert transcript_cost(tmp_path / f"{SESSION}.jsonl", SESSION).cost == full


@pytest.mark.parametrize("side", [False, True])
def test_a_session_that_called_rubi_s_tools_goes_to_the_xray(tmp_path: Path, side: bool) -> None:
    use = [{"type": "tool_use", "id": "r1", "name": "mcp__plugin_rubi_rubi__search", "input": {}}]
    extra = {"isSidechain": True, "agentId": "a2"} if side else {}
    records = [*_records(), _assistant("m9", content=use, **extra), _result("r1", "hits")]
    path = _write(tmp_path / f"{SESSION}.jsonl", records)
    lean, full = _both(path)
    assert lean is None  # the analysis ran
    assert transcript_cost(path, SESSION).cost == full
    assert full.tool_calls == 1  # the X-ray counts a subagent's call too


def test_real_transcripts_give_the_same_figures() -> None:
    folder = SHARED_DATA / "transcripts"
    found = sorted(folder.rglob("*.jsonl")) if folder.is_dir() else []
    if not found:
        pytest.skip(f"{folder}: no transcripts (set RUBI_SHARED_DATA to the shared data folder)")
    compared = 0
    for path in found:
        lean, full = _both(path)
        if lean is not None:
            assert lean == full, path
            compared += 1
    assert compared
