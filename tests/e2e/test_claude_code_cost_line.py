"""What rubi cost a real Claude Code session, measured from the transcript the real CLI
wrote: its hooks (the map at start, the recall), its tool call, its schemas; and the
line the next session start shows. Claude Code from npm against a local fake of the
Messages API, as the other end-to-end tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from e2e.fake_api import FakeMessagesAPI
from e2e.test_claude_code import claude, installed, new_home, run_claude  # noqa: F401
from e2e.test_other_harnesses import PROMPT, project_with_a_note
from rubi.app.sessioncost import schema_tokens, transcript_cost


@pytest.mark.slow
def test_the_cost_of_a_real_session_is_measured_from_its_transcript(
    tmp_path: Path,
    claude: str,  # noqa: F811
) -> None:
    project = project_with_a_note(tmp_path / "proj")
    home = new_home(tmp_path)
    installed(project, home)
    api = FakeMessagesAPI().start()
    try:
        prompt = PROMPT.format(tool="mcp__rubi__search")
        run_claude(claude, project, home, api, [prompt], allowed="mcp__rubi__search")
        run_claude(claude, project, home, api, ["hello again"])
    finally:
        api.stop()
    transcripts = sorted(
        (home / ".claude" / "projects").glob("*/*.jsonl"), key=lambda p: p.stat().st_mtime
    )
    assert len(transcripts) == 2
    cost = transcript_cost(transcripts[0]).cost
    assert cost.active and cost.schema_tokens == schema_tokens()
    assert cost.hook_runs >= 2  # the map at SessionStart, the recall of the prompt
    assert cost.tool_calls == 1 and cost.tool_tokens > 0
    assert cost.denials == 0 and cost.saved == 0
    # the second session's start showed the first one's line to the user
    hooks_seen = transcripts[1].read_text(encoding="utf-8")
    assert transcript_cost(transcripts[0]).line.split(":")[0] in hooks_seen
