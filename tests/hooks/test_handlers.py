"""Each hook fed recorded payload shapes (shared/docs/claude-code-integration.md 1.3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook, transcript
from rubi import app
from rubi.claude.hooks.context import open_context
from rubi.transcripts.tail import current_context

from helpers import write


# -- PreToolUse: the Read guard -------------------------------------------------------
def test_guard_denies_whole_reads_of_huge_files(project: Path) -> None:
    big = write(project / "big.log", "line\n" * 5000)
    payload = base(project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(big)})
    out = hook("PreToolUse", payload)
    assert out is not None
    spec = out["hookSpecificOutput"]
    assert spec["permissionDecision"] == "deny"
    assert "offset and limit" in spec["permissionDecisionReason"]
    ranged = dict(payload, tool_input={"file_path": str(big), "offset": 1, "limit": 100})
    assert hook("PreToolUse", ranged) is None
    small = write(project / "small.txt", "x\n" * 10)
    assert hook("PreToolUse", dict(payload, tool_input={"file_path": str(small)})) is None
    wide = write(project / "wide.json", "x" * 200_000)  # one line, but 200 KB
    assert hook("PreToolUse", dict(payload, tool_input={"file_path": str(wide)})) is not None
    bash = base(project, "PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    assert hook("PreToolUse", bash) is None
    gone = dict(payload, tool_input={"file_path": str(project / "nope")})
    assert hook("PreToolUse", gone) is None


def test_guard_ranges_images_and_pdfs(project: Path) -> None:
    big = write(project / "big.py", "x = 1\n" * 1600)

    def read(**args: object) -> dict[str, object] | None:
        return hook(
            "PreToolUse",
            base(
                project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(big), **args}
            ),
        )

    assert read(offset=1) is not None  # no limit: Claude Code reads 2,000 lines
    assert read(limit=2000) is not None
    assert read(offset=1, limit=300) is None
    for name in ("shot.png", "paper.pdf", "blob.bin"):
        f = write(project / name, b"\x89PNG\x00" + b"x" * 200_000)
        out = hook(
            "PreToolUse",
            base(project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(f)}),
        )
        assert out is None, name
    pdf = write(project / "doc.pdf", b"%PDF" + b"\n" * 5000)
    out = hook(
        "PreToolUse",
        base(
            project,
            "PreToolUse",
            tool_name="Read",
            tool_input={"file_path": str(pdf), "pages": "1-2"},
        ),
    )
    assert out is None


def test_guard_limits_come_from_config(project: Path) -> None:
    write(project / ".rubi" / "config.toml", "[hooks]\nguard_max_lines = 10\n")
    f = write(project / "mid.py", "x = 1\n" * 4000)
    payload = base(project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(f)})
    assert hook("PreToolUse", payload) is not None


def test_a_cloned_config_out_of_range_never_denies_a_small_read(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(
        project / ".rubi" / "config.toml",
        "[hooks]\nguard_max_lines = -1\nguard_max_bytes = nan\nmeter_share = 2\n"
        "cost_line = true\nrecall_max_tokens = 300\n",
    )
    small = write(project / "small.py", "x = 1\n" * 10)
    payload = base(project, "PreToolUse", tool_name="Read", tool_input={"file_path": str(small)})
    with caplog.at_level("WARNING"):
        assert hook("PreToolUse", payload) is None
        settings = open_context({"cwd": str(project)}).settings
    assert (settings.guard_max_lines, settings.guard_max_bytes) == (800, 80_000)
    assert (settings.meter_share, settings.cost_line) == (0.8, 1)
    assert settings.recall_max_tokens == 300  # a good value next to bad ones counts
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert "[hooks] guard_max_lines = -1: must be at least 1; using 800" in said
    assert "[hooks] guard_max_bytes = nan: must be a whole number" in said
    assert "[hooks] meter_share = 2: must be above 0 and at most 1" in said
    assert "[hooks] cost_line = true: must be a whole number" in said


# -- SessionStart ----------------------------------------------------------------------
def test_session_start_injects_the_map_then_the_handoff(project: Path) -> None:
    write(project / ".git_placeholder", "")
    out = hook("SessionStart", base(project, "SessionStart", source="startup"))
    assert out is not None
    ctx = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "# Code map" in ctx and "Login tokens expire at midnight UTC" in ctx
    assert len(ctx) < 10_000
    app.save_handoff(app.locate(project / ".rubi"), "Ship login", "half done", ["fix tests"])
    out = hook("SessionStart", base(project, "SessionStart", source="compact"))
    assert out is not None
    ctx = out["hookSpecificOutput"]["additionalContext"]
    assert "Last handoff" in ctx and "fix tests" in ctx and "# Code map" not in ctx


def test_no_vault_no_output(tmp_path: Path) -> None:
    for event, extra in [
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": "how does login work"}),
        ("PostToolUse", {"tool_name": "Read", "tool_input": {}}),
        ("Stop", {"stop_hook_active": False, "last_assistant_message": "hi"}),
        ("PreCompact", {"trigger": "auto"}),
        ("SessionEnd", {"reason": "other"}),
    ]:
        assert hook(event, {"cwd": str(tmp_path), "session_id": "s", **extra}) is None


# -- UserPromptSubmit: recall -------------------------------------------------------------
def test_recall_injects_relevant_notes_only(project: Path) -> None:
    out = hook(
        "UserPromptSubmit",
        base(project, "UserPromptSubmit", prompt="why does the login token expire at night?"),
    )
    assert out is not None
    ctx = out["hookSpecificOutput"]["additionalContext"]
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in ctx
    assert "SQLite" not in ctx
    assert len(ctx) / 4 <= 700
    for prompt in ["thanks!", "/compact", "ok", "fix the CSS of the footer please", ""]:
        assert hook("UserPromptSubmit", base(project, "UserPromptSubmit", prompt=prompt)) is None


def test_recall_survives_a_pasted_traceback(project: Path) -> None:
    prompt = (
        "the login token expires at midnight and then this happens:\n"
        + "\n".join(f'  File "/srv/app/module{i}.py", line {i}, in handler{i}' for i in range(30))
        + "\nModuleNotFoundError: No module named 'asgiref'"
    )
    out = hook("UserPromptSubmit", base(project, "UserPromptSubmit", prompt=prompt))
    assert out is not None
    assert "gotcha-login-tokens" in out["hookSpecificOutput"]["additionalContext"]


def test_prompt_waiting_for_capture_is_stored_redacted(project: Path) -> None:
    hook(
        "UserPromptSubmit",
        base(project, "UserPromptSubmit", prompt="use AKIAIOSFODNN7EXAMPLE for the login token"),
    )
    states = list((app.locate(project / ".rubi").index_dir / "hooks").glob("*.json"))
    assert states and "AKIAIOSFODNN7EXAMPLE" not in states[0].read_text(encoding="utf-8")


def test_recall_never_uses_system_message(project: Path) -> None:
    out = hook(
        "UserPromptSubmit", base(project, "UserPromptSubmit", prompt="login token expiry midnight")
    )
    assert out is not None and "systemMessage" not in out


# -- PostToolUse: the meter ------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", 17437),
        ("5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", 26080),
        ("GENERATED-cc2.1.197-mockapi.jsonl", 12012),
        ("SYNTHETIC-v2-features.jsonl", 5204),
    ],
)
def test_context_size_from_the_transcript_end(tmp_path: Path, name: str, expected: int) -> None:
    assert current_context(transcript(tmp_path, name)) == expected


@pytest.mark.parametrize(
    ("event", "tool"),
    [("PostToolUse", "Grep"), ("PreToolUse", "Read")],
    ids=["after-a-search", "before-a-read"],
)
def test_meter_asks_once_past_the_threshold(
    project: Path, tmp_path: Path, event: str, tool: str
) -> None:
    t = transcript(tmp_path, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")  # 26,080 tokens
    write(project / ".rubi" / "config.toml", "[hooks]\ncontext_window = 30000\n")
    payload = base(
        project,
        event,
        transcript_path=str(t),
        tool_name=tool,
        tool_input={"file_path": "x"},
        tool_response={},
    )
    out = hook(event, payload)
    assert out is not None
    assert out["hookSpecificOutput"]["hookEventName"] == event
    assert "permissionDecision" not in out["hookSpecificOutput"]  # the read goes ahead
    msg = out["hookSpecificOutput"]["additionalContext"]
    assert "26,080 tokens" in msg and "register" in msg and "handoff" in msg
    assert hook(event, payload) is None  # once per session
    sub = dict(payload, agent_id="a1", session_id="other")
    assert hook(event, sub) is None  # subagents do not count


def test_a_read_is_metered_once_before_it_and_a_denied_read_not_at_all(
    project: Path, tmp_path: Path
) -> None:
    big = tmp_path / "big.log"
    big.write_text("line\n" * 5_000, encoding="utf-8")
    small = tmp_path / "small.py"
    small.write_text("x = 1\n", encoding="utf-8")

    def read(event: str, path: Path, **extra: object) -> dict[str, object] | None:
        return hook(
            event,
            base(project, event, tool_name="Read", tool_input={"file_path": str(path)}, **extra),
        )

    for _ in range(6):
        assert read("PreToolUse", small) is None  # goes ahead: counted
        assert read("PostToolUse", small, tool_response={}) is None  # counted already
    denied = read("PreToolUse", big)
    assert denied is not None
    assert denied["hookSpecificOutput"]["permissionDecision"] == "deny"  # not counted
    write(project / ".rubi" / "config.toml", "[hooks]\nharvest_after = 7\n")
    stop = base(project, "Stop", stop_hook_active=False, last_assistant_message="Read it.")
    assert hook("Stop", stop) is None  # six reads, not twelve nor seven
    assert read("PreToolUse", big) is None  # asked again: it goes ahead, and counts
    out = hook("Stop", stop)
    assert out is not None and "took 7 reads and searches" in out["reason"]


def test_meter_asks_again_after_a_compaction(project: Path, tmp_path: Path) -> None:
    t = transcript(tmp_path, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
    write(project / ".rubi" / "config.toml", "[hooks]\ncontext_window = 30000\n")
    payload = base(
        project,
        "PostToolUse",
        transcript_path=str(t),
        tool_name="Grep",
        tool_input={},
        tool_response={},
    )
    assert hook("PostToolUse", payload) is not None
    with open(t, "a", encoding="utf-8") as fh:  # compacted: context unknown, then small
        fh.write(json.dumps({"type": "system", "subtype": "compact_boundary"}) + "\n")
    assert hook("PostToolUse", payload) is None
    big = {"type": "assistant", "message": {"model": "m", "usage": {"input_tokens": 29000}}}
    with open(t, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(big) + "\n")
    assert hook("PostToolUse", payload) is not None  # the next climb is flagged again


@pytest.mark.parametrize(("event", "tool"), [("PostToolUse", "Grep"), ("PreToolUse", "Read")])
def test_meter_quiet_below_threshold(project: Path, tmp_path: Path, event: str, tool: str) -> None:
    t = transcript(tmp_path, "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
    payload = base(
        project, event, transcript_path=str(t), tool_name=tool, tool_input={}, tool_response={}
    )
    assert hook(event, payload) is None
    assert open_context(payload, event).load_state().explorations == 1  # it ran, and counted


# -- Stop: harvest and capture ---------------------------------------------------------
def test_harvest_after_heavy_exploration_never_loops(project: Path) -> None:
    for i in range(10):
        hook(
            "PostToolUse",
            base(
                project,
                "PostToolUse",
                tool_name="Grep",
                tool_input={"pattern": f"p{i}"},
                tool_response={},
            ),
        )
    stop = base(project, "Stop", stop_hook_active=False, last_assistant_message="Found it.")
    out = hook("Stop", stop)
    assert out is not None and out["decision"] == "block"
    assert "Register 1-5 durable notes" in out["reason"]
    assert hook("Stop", dict(stop, stop_hook_active=True)) is None
    assert hook("Stop", stop) is None  # already asked for this exploration


def test_register_resets_the_harvest(project: Path) -> None:
    for _ in range(12):
        hook("PreToolUse", base(project, "PreToolUse", tool_name="Read", tool_input={}))
    hook(
        "PostToolUse",
        base(
            project,
            "PostToolUse",
            tool_name="mcp__rubi__register",
            tool_input={"notes": []},
            tool_response={},
        ),
    )
    stop = base(project, "Stop", stop_hook_active=False, last_assistant_message="done")
    assert hook("Stop", stop) is None


def test_capture_is_redacted_and_searchable(project: Path) -> None:
    hook(
        "UserPromptSubmit",
        base(project, "UserPromptSubmit", prompt="deploy with password: hunter2secret to staging"),
    )
    hook(
        "Stop",
        base(
            project,
            "Stop",
            stop_hook_active=False,
            last_assistant_message="Deployed the zebrafish build to staging.",
        ),
    )
    files = list((project / ".rubi" / "sessions").glob("*.md"))
    assert len(files) == 1
    text = files[0].read_text(encoding="utf-8")
    assert "hunter2secret" not in text and "[REDACTED:password]" in text
    assert "zebrafish build" in text
    vault = app.locate(project / ".rubi")
    assert app.search(vault, "zebrafish").hits == []  # not in default search
    hits = app.search(vault, "zebrafish", scope="sessions").hits
    assert hits and hits[0].path.startswith("sessions/")


def test_session_end_captures_an_unanswered_prompt(project: Path) -> None:
    hook("UserPromptSubmit", base(project, "UserPromptSubmit", prompt="start the quokka job"))
    assert hook("SessionEnd", base(project, "SessionEnd", reason="other")) is None
    [f] = (project / ".rubi" / "sessions").glob("*.md")
    assert "start the quokka job" in f.read_text(encoding="utf-8")


# -- PreCompact: the session record ------------------------------------------------------
def test_compact_restores_this_sessions_record(project: Path, tmp_path: Path) -> None:
    t = transcript(tmp_path, "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
    hook("PreCompact", base(project, "PreCompact", transcript_path=str(t), trigger="auto"))
    other = dict(
        base(project, "Stop", stop_hook_active=False, last_assistant_message="x"),
        session_id="99999999-other",
    )
    hook("UserPromptSubmit", dict(other, hook_event_name="UserPromptSubmit", prompt="hi there"))
    hook("Stop", other)  # another session writes a newer record meanwhile
    out = hook("SessionStart", base(project, "SessionStart", source="compact"))
    assert out is not None
    ctx = out["hookSpecificOutput"]["additionalContext"]
    assert "Latest session record" in ctx and "**Files edited**" in ctx


def test_slash_command_arguments_are_the_request(tmp_path: Path) -> None:
    from rubi.transcripts.turns import read_activity

    t = tmp_path / "t.jsonl"
    line = {
        "type": "user",
        "message": {
            "role": "user",
            "content": "<command-name>/fix</command-name>"
            "<command-args>the login bug</command-args>",
        },
    }
    t.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert read_activity(t).requests == ["/fix the login bug"]


def test_pre_compact_record_covers_only_what_is_new(project: Path, tmp_path: Path) -> None:
    t = transcript(tmp_path, "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
    payload = base(
        project, "PreCompact", transcript_path=str(t), trigger="auto", custom_instructions=""
    )
    assert hook("PreCompact", payload) is None  # never blocks
    [f] = (project / ".rubi" / "sessions").glob("*.md")
    text = f.read_text(encoding="utf-8")
    assert "## Record" in text and "**Files edited**" in text and "**Commands**" in text
    assert hook("PreCompact", payload) is None
    assert f.read_text(encoding="utf-8").count("## Record") == 1


# -- fail open, stdout only JSON ----------------------------------------------------------
def test_fail_open_logs_and_prints_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rubi.claude.hooks import entry

    out = io.StringIO()
    assert entry.main(["SessionStart"], io.StringIO("{not json"), out) == 0
    assert out.getvalue() == ""

    def boom(ctx: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr("rubi.claude.hooks.recall.handle", boom)
    payload = json.dumps(base(project, "UserPromptSubmit", prompt="x y z"))
    assert entry.main(["UserPromptSubmit"], io.StringIO(payload), out) == 0
    assert out.getvalue() == ""
    log = (app.locate(project / ".rubi").index_dir / "hooks.log").read_text(encoding="utf-8")
    assert "kaboom" in log and "Traceback" in log
    assert entry.main(["NoSuchEvent"], io.StringIO("{}"), out) == 0


def test_a_payload_that_is_not_json_is_one_line_not_a_traceback(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input, not an internal error: one line on stderr and in hooks.log (the
    hook's process folder's vault), nothing on stdout, status 0."""
    import io

    from rubi.claude.hooks import entry

    monkeypatch.chdir(project)
    out = io.StringIO()
    assert entry.main(["UserPromptSubmit"], io.StringIO("{not json"), out) == 0
    assert out.getvalue() == ""
    reason = (
        "the payload on stdin is not JSON (Expecting property name enclosed in double"
        " quotes: line 1 column 2 (char 1)); nothing done"
    )
    assert capsys.readouterr().err == f"rubi hook UserPromptSubmit: {reason}\n"
    log = (app.locate(project / ".rubi").index_dir / "hooks.log").read_text(encoding="utf-8")
    assert log.endswith(f" UserPromptSubmit: failed\n{reason}\n\n")
    assert "Traceback" not in log


@pytest.mark.slow
def test_hook_processes_print_only_json(project: Path, tmp_path: Path) -> None:
    rubi = str(Path(sys.executable).with_name("rubi"))
    t = transcript(tmp_path, "GENERATED-cc2.1.197-mockapi.jsonl")
    cases = [
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": "login token midnight"}),
        ("PreToolUse", {"tool_name": "Read", "tool_input": {"file_path": str(t)}}),
        ("PostToolUse", {"tool_name": "Read", "tool_input": {}, "tool_response": {}}),
        ("Stop", {"stop_hook_active": False, "last_assistant_message": "ok"}),
        ("PreCompact", {"trigger": "manual", "custom_instructions": "keep it"}),
        ("SessionEnd", {"reason": "other"}),
    ]
    for event, extra in cases:
        payload = base(project, event, transcript_path=str(t), **extra)
        proc = subprocess.run(
            [rubi, "hook", event],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, (event, proc.stderr)
        if proc.stdout.strip():
            json.loads(proc.stdout)
    assert not (app.locate(project / ".rubi").index_dir / "hooks.log").exists()
