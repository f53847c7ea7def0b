"""``rubi xray`` and ``rubi audit`` as a user runs them (HOME points at a temp folder)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from transcripts.xray_builder import SAMPLE_CONTEXT, SAMPLES, SESSION, long_session

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
