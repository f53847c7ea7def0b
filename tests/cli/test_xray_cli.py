"""``rubi xray`` and ``rubi audit`` as a user runs them (HOME points at a temp folder)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from transcripts.xray_builder import (
    SAMPLE_CONTEXT,
    SAMPLES,
    SESSION,
    assistant,
    long_session,
    tool_result,
    usage,
    user,
    write_jsonl,
)

from helpers import require_data


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME whose ~/.claude/projects holds copies of the real samples."""
    require_data(SAMPLES)
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    folder = home / ".claude" / "projects" / "-path-to-project"
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns("*.md"))
    return home


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_xray_json(home: Path) -> None:
    code, out = run("xray", "--days", "0", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert {s["session_id"]: s["current_context"] for s in data["sessions"]} == SAMPLE_CONTEXT
    assert data["reading"]["synthetic_lines"] == 2


def test_xray_human_output_and_html(home: Path, tmp_path: Path) -> None:
    long_session(home / ".claude" / "projects" / "-work-demo" / f"{SESSION}.jsonl")
    page = tmp_path / "report.html"
    code, out = run("xray", "--html", str(page), "--threshold", "120k", "--handoff", "4k")
    assert code == 0, out
    assert "Cost by token class" in out and "Early compaction replay (handoff 4k)" in out
    assert "120k *" in out  # the best threshold is starred
    assert "First change: compact or hand off at 120k" in out
    assert f"Wrote {page}" in out
    assert "<svg" in page.read_text(encoding="utf-8")


def test_xray_project_filter_and_errors(home: Path, tmp_path: Path) -> None:
    code, out = run("xray", "--project", "/path/to/project", "--json")
    assert code == 0 and len(json.loads(out)["sessions"]) == 4
    code, out = run("xray", "--project", "/elsewhere")
    assert code == 1
    assert "Error: " in out and "-elsewhere: no Claude Code transcripts" in out
    code, out = run("xray", "--threshold", "lots")
    assert code == 2 and "not a token count" in out
    code, out = run("xray", "--html", str(tmp_path / "missing" / "r.html"))
    assert code == 1 and "cannot write the report" in out


def test_xray_without_transcripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    code, out = run("xray")
    assert code == 1 and ".claude/projects: no Claude Code transcripts folder" in out


def test_audit(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "CLAUDE.md").write_text("x" * 4000, encoding="utf-8")
    code, out = run("audit", str(project), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["items"][0]["tokens"] == 1000
    assert data["measured_startup"] is None
    code, out = run("audit", str(project))
    assert code == 0 and "project CLAUDE.md" in out and "Itemized: 1k tokens" in out


def test_xray_reads_transcript_files_given_as_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "empty-home"))  # no ~/.claude/projects at all
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    first = long_session(tmp_path / "saved" / f"{SESSION}.jsonl", calls=20, pause_at=None)
    other = "bbbbbbbb-1111-4222-8333-444444444444"
    second = long_session(tmp_path / "saved" / f"{other}.jsonl", calls=10, session=other)
    old = 1_000_000_000.0  # 2001: older than any --days window
    os.utime(first, (old, old))
    code, out = run("xray", "--json", str(first), str(second), str(first))
    assert code == 0, out
    data = json.loads(out)
    assert sorted(s["session_id"] for s in data["sessions"]) == sorted([SESSION, other])
    assert data["window"]["days"] is None
    code, out = run("xray", "--json", "--days", "7", str(first), str(second))
    assert code == 0, out
    assert [s["session_id"] for s in json.loads(out)["sessions"]] == [other]


def test_xray_file_arguments_take_the_subagents_folder_beside_them(tmp_path: Path) -> None:
    main = long_session(tmp_path / f"{SESSION}.jsonl", calls=5, pause_at=None)
    agent = "bbbbbbbb-1111-4222-8333-444444444444"
    long_session(tmp_path / SESSION / "subagents" / "agent-a1.jsonl", calls=3, session=agent)
    code, out = run("xray", "--json", str(main))
    assert code == 0, out
    (session,) = json.loads(out)["sessions"]
    assert session["session_id"] == SESSION and session["subagent_calls"] == 3


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("notes.txt", "{}\n", "expected a .jsonl file"),
        ("plain.jsonl", "hello\n", "not JSON Lines"),
        ("missing.jsonl", None, "cannot read this transcript"),
        ("folder", "", "a folder; give transcript files"),
    ],
)
def test_xray_rejects_a_bad_transcript_argument_in_one_line(
    tmp_path: Path, name: str, content: str | None, message: str
) -> None:
    path = tmp_path / name
    if name == "folder":
        path.mkdir()
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out = run("xray", str(path))
    assert code == 1
    errors = [line for line in out.splitlines() if line.startswith("Error: ")]
    assert errors == [f"Error: {path}: {errors[0].split(': ', 2)[2]}"] and message in errors[0]


def test_xray_rejects_a_fifo_and_files_with_project(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    code, out = run("xray", str(fifo))
    assert code == 1 and f"Error: {fifo}: not a regular file" in out
    main = long_session(tmp_path / f"{SESSION}.jsonl", calls=2)
    code, out = run("xray", str(main), "--project", str(tmp_path))
    assert code == 2 and "give transcript FILEs or --project, not both" in out


def test_xray_help_names_transcript_files() -> None:
    code, out = run("xray", "--help")
    assert code == 0 and "[FILE]..." in out and "transcript FILEs given" in out


def test_xray_writes_nothing_to_stderr_when_it_is_not_a_terminal(tmp_path: Path) -> None:
    main = long_session(tmp_path / f"{SESSION}.jsonl", calls=3, pause_at=None)
    result = CliRunner().invoke(cli, ["xray", str(main)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    result = CliRunner().invoke(cli, ["xray", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: "), repr(result.stderr)


def _three_reads_of(path: str) -> list[dict[str, object] | str]:
    """A transcript's records: a prompt, then three turns that each Read ``path``."""
    records: list[dict[str, object] | str] = [user("start", 0)]
    for i in range(3):
        records.append(
            assistant(
                f"m{i}", usage(2, w5=1000, out=50), 10.0 * (i + 1), tools=[(f"t{i}", "Read", path)]
            )
        )
        records.append(tool_result(f"t{i}", "z" * 4000, 10.0 * (i + 1) + 1))
    return records


def test_xray_shows_names_from_a_transcript_as_text(tmp_path: Path) -> None:
    """A file path or tool name a transcript holds is printed as written: rich markup
    in it is neither applied nor able to break the report, an escape sequence is shown
    escaped, and a transcript file's own name in the skipped-lines line likewise."""
    odd = "/repo/[/bold]docs[red]\x1b]0;owned\x07.py"
    records = _three_reads_of(odd)
    records.append("not json")
    main = write_jsonl(tmp_path / "x[bold]\x1b[2J.jsonl", records)
    result = CliRunner().invoke(cli, ["xray", str(main)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "/repo/[/bold]docs[red]\\x1b]0;owned" in result.output  # the table cuts it
    assert "x[bold]\\x1b[2J.jsonl:" in result.output


def test_audit_shows_a_clones_server_names_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An MCP server named in a cloned project's .mcp.json is listed as written: its
    markup is not applied and cannot stop the audit, its escapes are shown escaped."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    project = tmp_path / "clone"
    project.mkdir()
    servers = {"mcpServers": {"x[/bold]\x1b]0;owned\x07": {"command": "true"}}}
    (project / ".mcp.json").write_text(json.dumps(servers), encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", str(project)])
    assert result.exit_code == 0, result.output
    assert "x[/bold]\\x1b]0;owned\\x07" in result.output
    assert "\x1b" not in result.output and "\x07" not in result.output


HEADERS = {
    "Cost by token class": ("class", "tokens", "price", "cost", "share"),
    "Costliest sessions": (
        "session",
        "folder",
        "calls",
        "peak",
        "start",
        "cost",
        "share",
        "expired",
        "compacted",
    ),
    "Tool results by weight": ("tool", "results", "tokens", "carried cost", "share"),
    "Early compaction replay": ("threshold", "sessions", "compactions", "saving", "share"),
}


@pytest.mark.parametrize("width", [80, 60])
def test_xray_tables_keep_their_headers_and_numbers_whole_when_narrow(
    home: Path, width: int
) -> None:
    """In an 80-column pipe the sessions table cut its headers ("sessi…", "start…",
    "expiri…", "compa…"); at 60 its numbers too ("110…"). Every header and number is
    whole now; only free text (a folder, a path) may be cut, never below its header."""
    result = CliRunner().invoke(cli, ["xray", "--days", "0"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for title, headers in HEADERS.items():
        at = next(i for i, line in enumerate(lines) if line.startswith(title))
        assert lines[at + 1].split() == " ".join(headers).split(), lines[at + 1]
    sessions = next(i for i, line in enumerate(lines) if line.startswith("Costliest"))
    rows = [line.split() for line in lines[sessions + 3 : sessions + 7]]
    assert [r[0] for r in rows] == ["5c0375b4", "1af7fc5e", "SYNTHETI", "GENERATE"]
    assert rows[0][2:6] == ["10", "26.1k", "17.6k", "110.4k"]
    assert all(len(r) == 9 and not any("…" in cell for cell in r[2:]) for r in rows)
    assert all(len(line) <= 80 for line in lines[sessions : sessions + 7]) or width < 80


@pytest.mark.parametrize("width", [80, 60, 40])
def test_audit_keeps_its_headers_numbers_and_kinds_whole_when_narrow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """The audit table follows the xray tables' rule (one helper, rubi.cli.tables): in a
    60-column pipe its boxed table split "project CLAUDE.md" over two lines, at 40
    cut its headers; only the source path and the note may shrink now."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    project = tmp_path / "a-project-folder-with-a-rather-long-name" / "and-a-subfolder"
    project.mkdir(parents=True)
    (project / "CLAUDE.md").write_text("x" * 123_456, encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", str(project)], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Loaded before"))
    assert lines[at + 1].split() == ["tokens", "kind", "source", "note"], lines[at + 1]
    row = lines[at + 3].split()
    assert row[:3] == ["30.9k", "project", "CLAUDE.md"], lines[at + 3]


def test_xray_and_audit_show_a_closing_backslash_once(tmp_path: Path) -> None:
    """A path or name ending in a backslash (``C:\\dir\\``) is shown as written:
    ``rich.markup.escape`` doubled it (``C:\\dir\\\\``) in the tables and titles."""
    home = tmp_path / "home"
    odd = "C:\\dir\\"
    records = _three_reads_of(odd)
    main = write_jsonl(tmp_path / "s.jsonl", records)
    env = {"HOME": str(home), "COLUMNS": "200"}
    result = CliRunner().invoke(cli, ["xray", str(main)], env=env)
    assert result.exit_code == 0, result.output
    assert "\nC:\\dir\\ " in result.output and "C:\\dir\\\\" not in result.output
    project = tmp_path / "clone\\"
    project.mkdir()
    servers = {"mcpServers": {odd: {"command": "true"}}}
    (project / ".mcp.json").write_text(json.dumps(servers), encoding="utf-8")
    result = CliRunner().invoke(cli, ["audit", str(project)], env=env)
    assert result.exit_code == 0, result.output
    assert "C:\\dir\\" in result.output and "C:\\dir\\\\" not in result.output
    assert f"Loaded before the first message in {project}\n" in result.output


def test_xray_names_one_skipped_broken_line_in_the_singular(tmp_path: Path) -> None:
    path = long_session(tmp_path / f"{SESSION}.jsonl", calls=5, pause_at=None)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"type": "assistant", "message": {"id"\n')  # a transcript cut mid-line
    code, out = run("xray", str(path))
    assert code == 0, out
    assert "Skipped 1 broken line (" in out and "unreadable" not in out


def test_xray_of_a_session_without_tools_says_so(tmp_path: Path) -> None:
    """A new user's first `claude -p` answered in text alone; `rubi xray` printed the
    "Tool results by weight" headers over an empty table."""
    path = write_jsonl(
        tmp_path / f"{SESSION}.jsonl",
        [user("say hello", 0), assistant("msg_1", usage(inp=12, w5=3000, read=9000, out=20), 1)],
    )
    code, out = run("xray", str(path))
    assert code == 0, out
    assert "Tool results by weight: none (no tool ran in these sessions)." in out
    assert "carried cost" not in out


def test_xray_of_files_counts_the_projects_its_folder_column_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Transcript files given by hand share one folder; the header counted that folder
    ("3 sessions in 1 project") while the table named each session's working folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    files = []
    for i, cwd in enumerate(["/home/dev/Demo", "/home/dev/project", "/home/dev/Demo"]):
        records = [user("hi", 1000.0 + i), assistant(f"m{i}", usage(inp=50, out=5), 1001.0 + i)]
        for record in records:
            record["cwd"] = cwd
        files.append(write_jsonl(tmp_path / "copied" / f"{i}0000000-aaaa.jsonl", records))
    code, out = run("xray", "--days", "0", *map(str, files))
    assert code == 0, out
    assert "3 sessions in 2 projects" in out
    assert "Demo" in out and "project" in out
