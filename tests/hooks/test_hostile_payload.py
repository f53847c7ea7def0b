"""Hook JSON with hostile path-like values: a session id that would leave the state
folder or add lines to a record, a transcript path that is a FIFO or a device (which
used to hang the hook), a cwd that is not a folder. Each is dropped; the hook answers
at once and writes nothing outside its places."""

from __future__ import annotations

import os
from pathlib import Path

import frontmatter
import pytest

from hooks.hookhelpers import base, hook
from rubi.claude.hooks.payload import clean_payload, session_id, transcript_path, working_dir

from helpers import write


def files_named(root: Path, needle: str) -> list[Path]:
    return [p for p in root.rglob("*") if needle in p.name]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "hostile",
    [
        "../../../../escaped",
        "..",
        "/tmp/escaped",
        "a/b/escaped",
        "escaped\nstatus: superseded\ntags: [pwned]",
        "escaped\x00",
        "x" * 500,
    ],
)
def test_a_hostile_session_id_names_no_file_and_adds_no_line(
    project: Path, tmp_path: Path, isolated_home: Path, hostile: str
) -> None:
    t = write(tmp_path / "t.jsonl", "")
    for event, extra in [
        ("UserPromptSubmit", {"prompt": "remember the escaped quokka"}),
        ("PostToolUse", {"tool_name": "Read", "tool_input": {}}),
        ("Stop", {"stop_hook_active": False, "last_assistant_message": "the quokka escaped"}),
        ("PreCompact", {"trigger": "auto"}),
        ("SessionEnd", {"reason": "other"}),
    ]:
        payload = base(project, event, transcript_path=str(t), **extra)
        payload["session_id"] = hostile
        hook(event, payload)
    for root in (tmp_path, isolated_home):
        assert files_named(root, "escaped") == [], root
        assert files_named(root, "x" * 100) == [], root
    assert not list(Path("/tmp").glob("escaped*"))
    for record in (project / ".rubi" / "sessions").glob("*.md"):
        meta = frontmatter.load(record).metadata
        assert meta.get("session_id") == "unknown" and "status" not in meta
        assert meta.get("tags") == ["session"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", ["fifo", "device", "not-jsonl", "relative", "missing", "folder"])
def test_a_transcript_that_is_not_a_regular_jsonl_file_is_ignored(
    project: Path, tmp_path: Path, kind: str
) -> None:
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        value = str(tmp_path / "t.jsonl")
        os.mkfifo(value)  # opening it for reading would wait for a writer for ever
    elif kind == "device":
        if not Path("/dev/zero").exists():
            pytest.skip("no /dev/zero here")
        (tmp_path / "t.jsonl").symlink_to("/dev/zero")  # never ends
        value = str(tmp_path / "t.jsonl")
    elif kind == "not-jsonl":
        value = str(write(tmp_path / "passwd", "root:x:0:0:root:/root:/bin/bash\n"))
    elif kind == "relative":
        write(project / "t.jsonl", "{}\n")
        value = "t.jsonl"
    elif kind == "missing":
        value = str(tmp_path / "gone.jsonl")
    else:
        (tmp_path / "dir.jsonl").mkdir()
        value = str(tmp_path / "dir.jsonl")
    assert transcript_path(value) is None
    post = base(project, "PostToolUse", transcript_path=value, tool_name="Read", tool_input={})
    assert hook("PostToolUse", post) is None
    assert hook("PreCompact", base(project, "PreCompact", transcript_path=value)) is None
    assert not list((project / ".rubi" / "sessions").glob("*.md"))  # nothing recorded


@pytest.mark.timeout(30)
def test_a_hostile_cwd_is_ignored(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    write(other / ".rubi" / "notes" / "x.md", "# other\n")
    for cwd in ["relative/path", str(tmp_path / "missing"), str(other) + "\x00", "", 42]:
        assert working_dir(cwd) is None
        payload = base(project, "UserPromptSubmit", prompt="other notes please")
        payload["cwd"] = cwd
        assert hook("UserPromptSubmit", payload) is None
    assert working_dir(str(project)) == str(project)


def test_clean_payload_keeps_good_values_and_drops_bad_ones(tmp_path: Path) -> None:
    t = write(tmp_path / "t.jsonl", "{}\n")
    good = {
        "session_id": "11111111-2222-3333-4444-555555555555",
        "transcript_path": str(t),
        "cwd": str(tmp_path),
        "prompt": "hi",
    }
    assert clean_payload(good) == good
    bad = {"session_id": "../x", "transcript_path": "/dev/zero", "cwd": "rel", "prompt": "hi"}
    assert clean_payload(bad) == {"session_id": "", "prompt": "hi"}
    assert bad["session_id"] == "../x"  # the caller's dict is left alone
    assert session_id("99999999-other") == "99999999-other"
    assert session_id(123) == "" and session_id("") == "" and session_id("a.b") == ""
