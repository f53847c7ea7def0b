"""Where transcripts live: slugs, CLAUDE_CONFIG_DIR, session discovery, --days."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi.core.errors import RubiError
from rubi.transcripts.locate import (
    discover_sessions,
    find_project_dir,
    project_slug,
    projects_dir,
)
from transcripts.xray_builder import assistant, usage, write_jsonl


@pytest.mark.parametrize(
    ("path", "slug"),
    [
        ("/x/y/proj", "-x-y-proj"),  # observed with Claude Code 2.1.197
        ("/Users/foo/src/github.com/omnara", "-Users-foo-src-github-com-omnara"),
        ("/home/me/my_app v2", "-home-me-my-app-v2"),
        ("/home/me/.agents", "-home-me--agents"),
        ("/tmp/文档", "-tmp---"),
        ("/tmp/a\U0001f600b", "-tmp-a--b"),  # one emoji = two UTF-16 units = two dashes
    ],
)
def test_project_slug(path: str, slug: str) -> None:
    assert project_slug(Path(path)) == slug


def test_long_slug_is_cut_and_hashed() -> None:
    path = Path("/" + "/".join(["segment"] * 40))
    slug = project_slug(path)
    assert slug.startswith(("-segment" * 40)[:200] + "-")
    assert len(slug) > 201 and slug[201:].isalnum()


def test_long_slug_found_by_prefix(projects: Path) -> None:
    path = Path("/" + "/".join(["deep"] * 60))
    other_hash = projects / (project_slug(path)[:200] + "-zzzz")
    other_hash.mkdir()
    assert find_project_dir(projects, path) == other_hash


def test_claude_config_dir_is_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, projects: Path
) -> None:
    assert projects_dir() == projects
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert projects_dir() == tmp_path / "cfg" / "projects"


def test_missing_folders_raise_one_line(projects: Path, tmp_path: Path) -> None:
    with pytest.raises(RubiError, match="no Claude Code transcripts folder"):
        discover_sessions(tmp_path / "nowhere")
    with pytest.raises(RubiError, match=r"-no-such-project: .*--project"):
        discover_sessions(projects, project=Path("/no/such/project"))


def test_discovery_attaches_subagents(projects: Path) -> None:
    folder = projects / "-work-demo"
    write_jsonl(folder / "s1.jsonl", [assistant("m1", usage(1), 0, session="s1")])
    write_jsonl(folder / "s1" / "subagents" / "agent-a1.jsonl", [assistant("m2", usage(1), 1)])
    # An older CLI wrote subagents next to the session; its first line names the parent.
    write_jsonl(folder / "agent-b2.jsonl", [assistant("m3", usage(1), 2, session="s1")])
    write_jsonl(folder / "agent-c3.jsonl", [assistant("m4", usage(1), 2, session="gone")])
    found = {s.session_id: s for s in discover_sessions(projects)}
    assert set(found) == {"s1", "gone"}
    assert [agent for agent, _ in found["s1"].agents] == ["b2", "a1"]
    assert found["gone"].main is None


def test_days_window_uses_modification_time(projects: Path) -> None:
    folder = projects / "-work-demo"
    old = write_jsonl(folder / "old.jsonl", [assistant("m1", usage(1), 0)])
    write_jsonl(folder / "new.jsonl", [assistant("m2", usage(1), 0)])
    os.utime(old, (1_000, 1_000))
    names = [s.session_id for s in discover_sessions(projects, since=10_000)]
    assert names == ["new"]
    assert [s.session_id for s in discover_sessions(projects)] == ["old", "new"]


def test_a_line_past_the_cap_is_skipped_without_being_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.transcripts import transcript
    from rubi.transcripts.transcript import TranscriptReader

    monkeypatch.setattr(transcript, "MAX_LINE_BYTES", 64)
    path = tmp_path / "s.jsonl"
    good = b'{"type":"user","message":{"role":"user","content":"hi"}}\n'
    huge = b'{"type":"user","pad":"' + b"x" * 500 + b'"}\n'
    exact = b'{"pad":"' + b"y" * (64 - 11) + b'"}\n'  # 64 bytes with its newline
    path.write_bytes(good + huge + exact + huge.rstrip(b"\n"))
    reader = TranscriptReader()
    calls: list[int] = []
    monkeypatch.setattr(
        reader, "_record", lambda record, number, state: iter(calls.append(number) or ())
    )
    list(reader.read_file(path))
    assert len(exact) == 64 and calls == [1, 3]
    assert reader.stats.bad_lines == 2 and reader.stats.lines == 4
    assert reader.stats.bad_examples == [f"{path}:2", f"{path}:4"]
    assert reader.stats.bytes == path.stat().st_size
