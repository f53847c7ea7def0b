"""The hook JSON is parsed once into a frozen event: recorded payloads (the shapes
Claude Code 2.1.197 sent, values from a recorded session) and hostile ones."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from hooks.hookhelpers import TRANSCRIPTS, hook, transcript
from rubi.claude.hooks.entry import HANDLERS
from rubi.claude.hooks.event import HookEvent, event_key, parse_event

PAYLOADS = Path(__file__).parent / "payloads"
RECORDED = "GENERATED-cc2.1.197-mockapi.jsonl"


def recorded(name: str, project: Path, transcript_file: Path) -> dict[str, Any]:
    """The recorded payload ``name`` with this machine's project and transcript."""
    text = (PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
    text = text.replace("{project}", project.as_posix())
    text = text.replace("{transcript}", transcript_file.as_posix())
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def test_every_recorded_payload_names_a_handled_event() -> None:
    names = sorted(p.stem for p in PAYLOADS.glob("*.json"))
    assert len(names) >= 9
    for name in names:
        payload = json.loads((PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))
        assert event_key(payload["hook_event_name"]) in HANDLERS, name
        assert '"/' not in json.dumps(payload), f"{name}: a machine path; use {{project}}"


def test_recorded_payloads_match_the_recorded_session() -> None:
    """The payload values are the recorded transcript's: its session, prompt, tool call,
    tool result and last answer."""
    path = TRANSCRIPTS / RECORDED
    if not path.is_file():
        transcript(Path("/nonexistent"), RECORDED)  # require_data: skip or fail as CI says
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    session = {r.get("sessionId") for r in records if r.get("sessionId")}
    prompts = [
        r["message"]["content"]
        for r in records
        if r.get("type") == "user" and isinstance(r["message"]["content"], str)
    ]
    uses = [
        c
        for r in records
        if r.get("type") == "assistant"
        for c in r["message"]["content"]
        if c.get("type") == "tool_use"
    ]
    results = [r["toolUseResult"] for r in records if "toolUseResult" in r]
    answers = [
        c["text"]
        for r in records
        if r.get("type") == "assistant"
        for c in r["message"]["content"]
        if c.get("type") == "text"
    ]
    load = lambda name: json.loads((PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))  # noqa: E731
    assert session == {load("stop")["session_id"]}
    assert load("user_prompt_submit")["prompt"] == prompts[0]
    post = load("post_tool_use_bash")
    assert (post["tool_name"], post["tool_input"], post["tool_use_id"]) == (
        uses[0]["name"],
        uses[0]["input"],
        uses[0]["id"],
    )
    assert post["tool_response"] == results[0]
    assert load("stop")["last_assistant_message"] == answers[0]


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "proj"
    project.mkdir()
    return project, transcript(tmp_path, RECORDED)


def test_parse_recorded_payloads(paths: tuple[Path, Path]) -> None:
    project, t = paths
    start = parse_event(recorded("session_start_compact", project, t))
    assert (start.name, start.key, start.source) == ("SessionStart", "sessionstart", "compact")
    assert start.session_id == "2c35774d-980e-44fa-b06a-f709a4619d3e"
    assert (start.cwd, start.transcript_path, start.folder) == (project, t, project)

    prompt = parse_event(recorded("user_prompt_submit", project, t))
    assert prompt.prompt == "say hello using bash" and prompt.tool_name == ""

    post = parse_event(recorded("post_tool_use_bash", project, t))
    assert post.tool_name == "Bash" and post.agent_id == ""
    assert dict(post.tool_input) == {"command": "echo hello-from-mock", "description": "Say hello"}
    assert post.tool_response["stdout"] == "hello-from-mock"

    sub = parse_event(recorded("post_tool_use_subagent", project, t))
    assert sub.agent_id == "a1b2c3d4" and sub.tool_input["file_path"].endswith("README.md")

    stop = parse_event(recorded("stop", project, t))
    assert stop.stop_hook_active is False and stop.last_assistant_message == "Done."

    compact = parse_event(recorded("pre_compact_manual", project, t))
    assert (compact.trigger, compact.custom_instructions) == ("manual", "keep the hello")

    assert parse_event(recorded("session_end", project, t)).reason == "other"


def test_the_command_line_name_wins(paths: tuple[Path, Path]) -> None:
    project, t = paths
    event = parse_event(recorded("stop", project, t), "stop")
    assert event.name == "stop" and event.key == "stop"


def test_event_is_frozen(paths: tuple[Path, Path]) -> None:
    event = parse_event(recorded("pre_tool_use_bash", project := paths[0], paths[1]))
    assert project == event.cwd
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.prompt = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        event.tool_input["command"] = "rm -rf /"  # type: ignore[index]


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (None, HookEvent()),
        ([1, 2], HookEvent()),
        ({"prompt": None, "tool_input": ["a"], "stop_hook_active": "true"}, HookEvent()),
        (
            {"session_id": "../../etc", "cwd": "relative/dir", "transcript_path": "t.jsonl"},
            HookEvent(),
        ),
        ({"last_assistant_message": 3, "source": {"x": 1}, "agent_id": 7}, HookEvent()),
        (
            {"stop_hook_active": True, "trigger": "auto"},
            HookEvent(stop_hook_active=True, trigger="auto"),
        ),
    ],
)
def test_bad_values_become_defaults(payload: Any, expected: HookEvent) -> None:
    assert parse_event(payload) == expected


def test_a_path_with_a_control_character_or_a_lone_surrogate_is_dropped(tmp_path: Path) -> None:
    assert parse_event({"cwd": str(tmp_path)}).cwd == tmp_path
    for bad in ("\x01", "\x7f", "\udcff"):  # each an existing folder (0xff: surrogateescape)
        folder = tmp_path / f"a{bad}b"
        folder.mkdir()
        assert parse_event({"cwd": str(folder)}).cwd is None
    assert parse_event({"cwd": f"{tmp_path}/a\ud800b"}).cwd is None


def test_a_transcript_that_is_not_a_regular_jsonl_is_dropped(tmp_path: Path) -> None:
    folder = tmp_path / "t.jsonl"
    folder.mkdir()
    assert parse_event({"transcript_path": str(folder)}).transcript_path is None
    assert parse_event({"cwd": str(tmp_path / "gone")}).cwd is None


@pytest.mark.timeout(60)
def test_recorded_payloads_run_every_handler_without_failing(project: Path, tmp_path: Path) -> None:
    """Each recorded payload, sent to its hook in this project, runs to the end: no
    failure is logged, and the hooks that answer answer in Claude Code's shape."""
    from rubi import app

    t = transcript(tmp_path, RECORDED)
    order = [
        "session_start_startup",
        "user_prompt_submit",
        "pre_tool_use_bash",
        "post_tool_use_bash",
        "post_tool_use_subagent",
        "stop",
        "pre_compact_manual",
        "session_start_compact",
        "session_end",
    ]
    assert sorted(order) == sorted(p.stem for p in PAYLOADS.glob("*.json"))
    outputs = {}
    for name in order:
        payload = recorded(name, project, t)
        outputs[name] = hook(payload["hook_event_name"], payload)
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")
    start = outputs["session_start_startup"]
    assert start is not None and start["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert outputs["pre_tool_use_bash"] is None  # not a Read: the guard says nothing
    vault = app.locate(project / ".rubi")
    text = app.session_file(vault, outputs_session(project, t)).read_text(encoding="utf-8")
    assert "**User:** say hello using bash" in text and "**Claude:** Done." in text
    assert "before manual compaction" in text
    after = outputs["session_start_compact"]
    assert after is not None
    assert "Latest session record" in after["hookSpecificOutput"]["additionalContext"]


def outputs_session(project: Path, t: Path) -> str:
    session: str = recorded("stop", project, t)["session_id"]
    return session
