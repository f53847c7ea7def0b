"""PreCompact on large transcripts: one linear pass from the last offset, within a time
budget, and progress saved even when a later step fails."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.transcripts.turns import read_activity

from helpers import write


@pytest.fixture
def small_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    return root


def _turns(path: Path, first: int, count: int) -> None:
    """Append ``count`` turns, each with a distinct request, file and command."""
    with path.open("a", encoding="utf-8") as fh:
        for n in range(first, first + count):
            user = {"type": "user", "message": {"role": "user", "content": f"fix bug {n} please"}}
            tools = [
                {"type": "tool_use", "name": "Read", "input": {"file_path": f"src/m{n}.py"}},
                {"type": "tool_use", "name": "Bash", "input": {"command": f"pytest -k t{n}"}},
            ]
            assistant = {"type": "assistant", "message": {"role": "assistant", "content": tools}}
            fh.write(json.dumps(user) + "\n" + json.dumps(assistant) + "\n")


def _record(project: Path) -> str:
    [record] = (project / ".rubi" / "sessions").glob("*.md")
    return record.read_text(encoding="utf-8")


@pytest.mark.timeout(10)
def test_a_large_transcript_is_summarised_in_one_linear_pass(
    small_project: Path, tmp_path: Path
) -> None:
    """36,000 turns (about 10 MB, 36,000 distinct items per list): the old item-by-item
    de-duplication took minutes here; one pass takes well under a second."""
    transcript = tmp_path / "big.jsonl"
    _turns(transcript, 0, 36_000)
    assert transcript.stat().st_size > 9_000_000
    payload = base(small_project, "PreCompact", transcript_path=str(transcript))
    assert hook("PreCompact", payload) is None
    text = _record(small_project)
    assert "- fix bug 0 please" in text and "- fix bug 39 please" in text
    assert "- fix bug 40 please" not in text  # 40 shown per list
    assert text.count("- … 35960 more") == 3  # requests, files read, commands

    _turns(transcript, 36_000, 100)  # incremental: only the new part is read
    assert hook("PreCompact", payload) is None
    second = _record(small_project).split("## Record")[-1]
    assert "- fix bug 36000 please" in second and "fix bug 35999 " not in second
    assert "- … 60 more" in second


def test_the_record_covers_exactly_the_new_bytes(small_project: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    _turns(transcript, 0, 10)
    payload = base(small_project, "PreCompact", transcript_path=str(transcript))
    hook("PreCompact", payload)
    middle = transcript.stat().st_size
    _turns(transcript, 10, 5)
    hook("PreCompact", payload)
    spans = re.findall(r"transcript byte (\d+)–(\d+)", _record(small_project))
    assert spans == [("0", str(middle)), (str(middle), str(transcript.stat().st_size))]


def test_the_time_budget_spreads_a_transcript_over_several_records(
    small_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.claude.hooks.record as record

    monkeypatch.setattr(record, "READ_BUDGET_S", 0.0)  # stop at the first check
    transcript = tmp_path / "t.jsonl"
    _turns(transcript, 0, 1000)  # 2,000 lines: 256 per run at least
    payload = base(small_project, "PreCompact", transcript_path=str(transcript))
    for _ in range(20):
        hook("PreCompact", payload)
    text = _record(small_project)
    runs = text.count("## Record")
    assert 2 <= runs <= 8
    assert text.count("the rest goes in the next record") == runs - 1
    spans = [(int(a), int(b)) for a, b in re.findall(r"transcript byte (\d+)–(\d+)", text)]
    assert spans[0][0] == 0 and spans[-1][1] == transcript.stat().st_size
    assert all(b == a2 for (_, b), (a2, _) in itertools.pairwise(spans))
    requests = {int(n) for n in re.findall(r"- fix bug (\d+) please", text)}
    assert len(requests) == runs * 40  # each record shows its first 40


def test_progress_is_saved_even_when_linking_the_files_fails(
    small_project: Path, tmp_path: Path
) -> None:
    session = "11111111-2222-3333-4444-555555555555"
    broken = small_project / ".rubi" / "sessions" / f"2025-01-01-{session}.md"
    write(broken, "---\nfiles: [unclosed\n---\n# Session\n")  # frontmatter that cannot parse
    transcript = tmp_path / "t.jsonl"
    _turns(transcript, 0, 3)
    payload = base(small_project, "PreCompact", transcript_path=str(transcript))
    for _ in range(3):
        assert hook("PreCompact", payload) is None
    text = broken.read_text(encoding="utf-8")
    assert text.startswith("---\nfiles: [unclosed\n")  # linking failed every time
    assert text.count("## Record") == 1  # yet the part was recorded once, not again


def test_read_activity_keeps_order_and_counts_repeats_once(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    _turns(transcript, 0, 3)
    _turns(transcript, 0, 3)  # the same turns again
    activity = read_activity(transcript, 0, tmp_path)
    assert activity.requests == ["fix bug 0 please", "fix bug 1 please", "fix bug 2 please"]
    assert activity.files_read == ["src/m0.py", "src/m1.py", "src/m2.py"]
    assert activity.total("commands") == 3 and activity.complete
