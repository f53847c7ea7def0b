"""A per-session line of what rubi cost and what it saved, measured on a real Claude
Code 2.1.197 transcript: rubi's hooks (known by their command) and recall (by its first
words), its tool schemas in every request, and the whole-file reads its guard denied
less what was read of those files afterwards; shown by ``rubi cost`` and, once, by the
next SessionStart."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from rubi.app.recall import HEADER
from rubi.app.sessioncost import schema_tokens, transcript_cost
from rubi.claude.hooks.guard import _deny
from rubi.claude.install import hook_command
from rubi.cli.main import cli
from rubi.core.tokens import tokens_for_chars
from rubi.transcripts.rubicost import RECALL_HEADER

from helpers import SHARED_DATA, require_data

REAL = SHARED_DATA / "transcripts" / "GENERATED-cc2.1.197-mockapi.jsonl"
SESSION = "2c35774d-980e-44fa-b06a-f709a4619d3e"
RECALL = f"{HEADER}- notes/decision-login: Login tokens expire at midnight UTC"
BIG = "/path/to/project/big.py"
BIG_CHARS = 400_000
RANGE_CHARS = 400


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _as_rubi(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The real session as if its hooks were rubi's: the same records, rubi's command
    on each hook run, rubi's recall as the prompt hook's context."""
    for record in records:
        attachment = record.get("attachment")
        if not isinstance(attachment, dict):
            continue
        if attachment.get("type") == "hook_success":
            attachment["command"] = hook_command("rubi", str(attachment["hookEvent"]))
        if attachment.get("hookEvent") == "UserPromptSubmit" and attachment.get("content"):
            attachment["content"] = [RECALL]
    return records


def _denied_then_ranged(last: dict[str, Any]) -> list[dict[str, Any]]:
    """Three more calls: a whole read of a big file the guard denies (its real reason),
    a ranged read of it, an answer."""
    reason = _deny(SimpleNamespace(vault=None), BIG, BIG_CHARS, 9_000)
    text = reason["hookSpecificOutput"]["permissionDecisionReason"]

    def call(n: int, content: list[dict[str, Any]]) -> dict[str, Any]:
        usage = {"input_tokens": 10, "cache_read_input_tokens": 12_000, "output_tokens": 20}
        message = {"id": f"msg_extra_{n}", "role": "assistant", "model": "claude-x"}
        return {
            **last,
            "type": "assistant",
            "uuid": f"a{n}",
            "message": {**message, "content": content, "usage": usage},
        }

    def result(tool_id: str, content: str, error: bool) -> dict[str, Any]:
        block = {
            "type": "tool_result",
            "tool_use_id": tool_id,
            "content": content,
            "is_error": error,
        }
        return {
            **last,
            "type": "user",
            "uuid": f"u{tool_id}",
            "message": {"role": "user", "content": [block]},
        }

    read = {"type": "tool_use", "name": "Read"}
    return [
        call(1, [{**read, "id": "r1", "input": {"file_path": BIG}}]),
        result("r1", text, True),
        call(2, [{**read, "id": "r2", "input": {"file_path": BIG, "offset": 1, "limit": 9}}]),
        result("r2", "x" * RANGE_CHARS, False),
        call(3, [{"type": "text", "text": "done"}]),
    ]


@pytest.fixture
def with_rubi(tmp_path: Path) -> Path:
    require_data(REAL)
    records = _as_rubi(_lines(REAL))
    records += _denied_then_ranged(next(r for r in records if r.get("type") == "assistant"))
    path = tmp_path / "projects" / "-path-to-project" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_recall_header_is_the_one_rubi_writes() -> None:
    assert HEADER.startswith(RECALL_HEADER)


def test_a_session_without_rubi_costs_nothing() -> None:
    require_data(REAL)
    found = transcript_cost(REAL)
    assert not found.cost.active and found.cost.cost == 0
    assert found.line.startswith("rubi was not active in session")


def test_cost_and_saving_come_from_the_transcripts_own_figures(with_rubi: Path) -> None:
    cost = transcript_cost(with_rubi).cost
    contexts = [
        "[ctx-demo] SessionStart context marker",
        "[ctx-demo] PostToolUse context marker",
        RECALL,
    ]
    assert cost.hook_runs == 3  # the PreToolUse hook allowed: its reason went to the user
    assert cost.hook_tokens == sum(tokens_for_chars(len(t)) for t in contexts)
    assert cost.calls == 5 and cost.schema_tokens == schema_tokens() > 0
    assert cost.schema_cost == pytest.approx(schema_tokens() * (1.25 + 0.1 * 4))
    assert cost.denials == 1
    assert cost.avoided_tokens == tokens_for_chars(BIG_CHARS) - tokens_for_chars(RANGE_CHARS)
    # the whole file would have been written once and read by the last call
    assert cost.saved == pytest.approx(cost.avoided_tokens * (1.25 + 0.1))
    assert cost.tool_calls == 0 and cost.tool_cost == 0


def test_rubi_cost_prints_the_line_on_demand(
    with_rubi: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(with_rubi.parents[2]))
    result = CliRunner().invoke(cli, ["cost", "--session", SESSION[:8]])
    assert result.exit_code == 0, result.output
    line = result.output.strip()
    assert line.startswith(f"rubi in session {SESSION[:8]} (5 API calls): cost ")
    assert "1 whole-file read denied" in line and "hook context" in line
    data = json.loads(CliRunner().invoke(cli, ["cost", "--json"]).output)
    assert data["session_id"] == SESSION and data["line"] == line
    missing = CliRunner().invoke(cli, ["cost", "--session", "ffffffff"])
    assert missing.exit_code != 0 and "no such Claude Code session" in missing.output


def test_the_next_session_start_shows_the_line_once(with_rubi: Path, tmp_path: Path) -> None:
    from hooks.hookhelpers import base, hook

    from helpers import login_project

    project = login_project(tmp_path / "proj")
    os.chdir(project)
    ended = {
        **base(project, "SessionEnd", reason="other"),
        "session_id": SESSION,
        "transcript_path": str(with_rubi),
    }
    assert hook("SessionEnd", ended) is None
    start = base(project, "SessionStart", source="startup")
    shown = hook("SessionStart", start)
    assert shown is not None and shown["systemMessage"] == transcript_cost(with_rubi).line
    assert "additionalContext" in shown["hookSpecificOutput"]  # the map as before
    again = hook("SessionStart", start)
    assert again is not None and "systemMessage" not in again


def test_the_line_says_one_api_call_and_one_run_in_the_singular() -> None:
    """A one-prompt session's line read "(1 calls) … (2 runs)": "calls" next to "rubi in
    session" read as calls of rubi, and the count of one was plural."""
    from rubi.app.sessioncost import cost_line
    from rubi.transcripts.rubicost import RubiCost

    cost = RubiCost("c4a79533-ce93", True, 1, 1100, 1100.0, 1, 70, 70.0, 1, 50, 50.0, 0, 0, 0.0)
    line = cost_line(cost)
    assert line.startswith("rubi in session c4a79533 (1 API call): cost ")
    assert "(1 run)" in line and "(1 call)" in line and "calls)" not in line
    idle = cost_line(RubiCost("c4a79533", False, 3, 0, 0.0, 0, 0, 0.0, 0, 0, 0.0, 0, 0, 0.0))
    assert idle == "rubi was not active in session c4a79533 (3 API calls)."
