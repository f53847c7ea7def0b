"""The X-ray on the real transcripts of shared/data/transcripts (figures from its README)."""

from __future__ import annotations

from pathlib import Path

from rubi.transcripts.xray import scan
from transcripts.xray_builder import SAMPLE_CONTEXT


def test_current_context_matches_readme(samples: Path) -> None:
    report = scan(days=None, root=samples)
    found = {s.session_id: s.current_context for s in report.sessions}
    assert found == SAMPLE_CONTEXT


def test_sample_features_are_recognized(samples: Path) -> None:
    report = scan(days=None, root=samples)
    by_id = {s.session_id: s for s in report.sessions}
    synthetic = by_id["SYNTHETIC-v2-features"]
    assert [c.trigger for c in synthetic.compactions] == ["auto"]
    assert synthetic.compactions[0].pre_tokens == 16363
    assert synthetic.side_calls == 1  # subagents/agent-a1b2c3d.jsonl
    assert synthetic.curve == (16051, 16363, 5204)
    assert synthetic.rewrites == ()  # the rewrite after a compaction is no expiry
    old = by_id["5c0375b4-57a5-4f26-b12d-d022ee4e51b7"]
    assert (len(old.main_calls), old.side_calls) == (10, 10)  # inline 1.0.x sidechains
    assert old.tools["Task"].calls == 3
    assert old.reads["/path/to/Demo/CLAUDE.md"].reads == 1
    assert by_id["1af7fc5e-8455-4414-9ccd-011d40f70b2a"].startup_tokens == 15553 - 427
    stats = report.read_stats
    assert stats.synthetic_lines == 2  # GENERATED: two API-error lines
    assert stats.bad_lines == 0
    assert stats.split_lines == 8 + (6 + 2) + 1  # 1af7, 5c03 (main + sidechain), SYNTHETIC
    assert report.compactions == 1


def test_project_filter(samples: Path) -> None:
    report = scan(days=None, root=samples, project=Path("/path/to/Demo"))
    assert {s.session_id[:8] for s in report.sessions} == {"1af7fc5e", "5c0375b4"}
