"""``rubi import`` turns Claude Code's auto memory of the project into typed notes of
``.rubi/``, never touching the originals, says what it did, imports nothing new the
second time, keeps secrets out, and ``rubi doctor`` suggests it while there is
something to import."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from rubi.transcripts.locate import project_slug

from helpers import rubi_project, write

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

TOPICS = {
    "feedback_testing.md": (
        "---\nname: Run the integration tests against a real database\n"
        "description: mocked tests passed while the migration broke prod\n"
        "type: feedback\n---\n\nNever mock the database in integration tests.\n"
    ),
    "project_release.md": (
        "---\nname: Release freeze starts on Thursdays\ntype: project\n---\n\n"
        f"Merges wait until Monday. The deploy token is {TOKEN}.\n"
    ),
    "reference_tracker.md": "# Bugs live in the LINEAR project INGEST\n\nNot in GitHub issues.\n",
}
INDEX = (
    "# Memory index\n\n"
    "- [Integration tests](feedback_testing.md) — real database\n"
    "- [Release freeze](project_release.md) — Thursdays\n"
    "- [Tracker](reference_tracker.md) — LINEAR\n\n"
    "The user prefers short answers with file paths.\n"
)


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path) -> tuple[Path, Path]:
    root = rubi_project(tmp_path / "repo", {"app.py": "x = 1\n"})
    memory = isolated_home / ".claude" / "projects" / project_slug(root) / "memory"
    for name, text in TOPICS.items():
        write(memory / name, text)
    write(memory / "MEMORY.md", INDEX)
    os.chdir(root)
    return root, memory


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def _notes(root: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (root / ".rubi" / "notes").glob("*.md")}


def test_import_makes_typed_notes_and_leaves_the_originals(project: tuple[Path, Path]) -> None:
    root, memory = project
    before = _snapshot(memory)
    result = CliRunner().invoke(cli, ["import"])
    assert result.exit_code == 0, result.output
    assert "4 files imported, 0 already imported, 0 skipped" in result.output
    assert "imported feedback_testing.md -> notes/preference-run-the-integration" in result.output
    assert _snapshot(memory) == before
    notes = _notes(root)
    by_title = {text.split("\n# ", 1)[1].split("\n", 1)[0]: text for text in notes.values()}
    testing = by_title["Run the integration tests against a real database"]
    assert "type: preference" in testing and "claude-memory" in testing
    assert "mocked tests passed" in testing and "Never mock the database" in testing
    assert "type: note" in by_title["Bugs live in the LINEAR project INGEST"]
    summary = by_title["Claude Code auto memory"]
    assert "short answers with file paths" in summary and "feedback_testing.md)" not in summary


def test_secrets_in_auto_memory_are_redacted(project: tuple[Path, Path]) -> None:
    root, _ = project
    assert CliRunner().invoke(cli, ["import"]).exit_code == 0
    text = "\n".join(_notes(root).values())
    assert TOKEN not in text and "[REDACTED:" in text


def test_a_second_import_imports_nothing_new(project: tuple[Path, Path]) -> None:
    root, memory = project
    runner = CliRunner()
    assert runner.invoke(cli, ["import"]).exit_code == 0
    first = _notes(root)
    again = runner.invoke(cli, ["import", "--json"])
    report = json.loads(again.output)
    assert report["imported"] == [] and report["updated"] == []
    assert sorted(report["unchanged"]) == sorted([*TOPICS, "MEMORY.md"])
    assert _notes(root) == first
    (memory / "reference_tracker.md").write_text(
        TOPICS["reference_tracker.md"] + "\nSecurity bugs go to the SEC project.\n"
    )
    changed = json.loads(runner.invoke(cli, ["import", "--json"]).output)
    assert [u["file"] for u in changed["updated"]] == ["reference_tracker.md"]
    assert changed["imported"] == []
    assert len(_notes(root)) == len(first)  # merged into its note, not a new one


def test_doctor_suggests_import_until_it_is_done(project: tuple[Path, Path]) -> None:
    runner = CliRunner()
    before = runner.invoke(cli, ["doctor"])
    assert "`rubi import`" in before.output and "4 files not in this vault" in before.output
    assert runner.invoke(cli, ["import"]).exit_code == 0
    assert "rubi import" not in runner.invoke(cli, ["doctor"]).output


def test_without_auto_memory_import_says_so(tmp_path: Path) -> None:
    root = rubi_project(tmp_path / "repo", {"app.py": "x = 1\n"})
    os.chdir(root)
    result = CliRunner().invoke(cli, ["import"])
    assert result.exit_code == 0
    assert "No Claude Code auto memory for this project" in result.output
    assert not list((root / ".rubi" / "notes").glob("*.md"))


def test_a_dry_run_writes_nothing(project: tuple[Path, Path]) -> None:
    root, _ = project
    result = CliRunner().invoke(cli, ["import", "--dry-run"])
    assert result.exit_code == 0 and "would import feedback_testing.md" in result.output
    assert not list((root / ".rubi" / "notes").glob("*.md"))


def test_a_file_whose_title_holds_a_secret_is_skipped_with_the_reason(
    project: tuple[Path, Path],
) -> None:
    root, memory = project
    write(memory / "project_keys.md", f"---\nname: Deploy with {TOKEN}\ntype: project\n---\nx\n")
    result = CliRunner().invoke(cli, ["import"])
    assert result.exit_code == 0, result.output
    assert "skipped project_keys.md:" in result.output
    assert "4 files imported" in result.output and "1 skipped" in result.output
    assert TOKEN not in "\n".join(_notes(root).values())
