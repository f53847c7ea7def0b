"""``rubi read REF`` where REF (or a passage id's part before its ``#``) names
several notes (two notes titled ``tar`` in different folders) shows the first by id
and says so: one line on stderr naming the
others (text), their ids as ``other_matches`` (``--json``); the same whether the
engine answers or the command does. A REF that names one note says nothing more."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rubi import app

from helpers import login_project, write
from helpers import run_rubi as rubi

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]


LINE = b"'tar' names 3 notes: showing notes/archive/tar; also notes/tools/tar, notes/zzz/tar"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = login_project(tmp_path / "proj")
    notes = root / ".rubi" / "notes"
    write(notes / "tools" / "tar.md", "---\ntitle: tar\n---\nTar the tape archiver.\n")
    write(notes / "archive" / "tar.md", "---\ntitle: tar\n---\nTar the file format.\n")
    write(notes / "zzz" / "tar.md", "---\naliases: [tar]\n---\nA third one.\n")
    app.index(app.locate(root / ".rubi"))
    return root


def check_reads(project: Path, **env: str) -> None:
    out, err, code = rubi(["read", "tar"], project, **env)
    assert code == 0 and out.startswith(b"# notes/archive/tar.md") and b"file format" in out
    assert err.startswith(LINE) and err.count(b"\n") == 1
    out, err, code = rubi(["read", "--json", "tar"], project, **env)
    data = json.loads(out)
    assert code == 0 and err == b""
    assert data["id"] == "notes/archive/tar"
    assert data["other_matches"] == ["notes/tools/tar", "notes/zzz/tar"]
    out, err, code = rubi(["read", "--json", "notes/tools/tar"], project, **env)
    assert code == 0 and err == b"" and json.loads(out)["other_matches"] == []
    out, err, code = rubi(["read", "notes/tools/tar"], project, **env)
    assert code == 0 and err == b"" and b"tape archiver" in out
    out, err, code = rubi(["read", "tar#L4"], project, **env)
    assert code == 0 and b"file format" in out
    assert err.startswith(b"'tar#L4' names 3 notes: showing notes/archive/tar#L4; also ")
    out, err, code = rubi(["read", "--json", "tar#L4"], project, **env)
    assert code == 0 and err == b""
    assert json.loads(out)["other_matches"] == ["notes/tools/tar", "notes/zzz/tar"]
    out, err, code = rubi(["read", "--json", "notes/tools/tar#L4"], project, **env)
    assert code == 0 and err == b"" and json.loads(out)["other_matches"] == []


def test_a_ref_naming_several_notes_says_which_it_shows_cold(project: Path) -> None:
    check_reads(project, RUBI_ENGINE="0")


def test_the_engine_s_answer_says_the_same(project: Path, engine: None) -> None:
    check_reads(project)


def test_an_answer_s_notice_travels_with_it_and_nothing_else_does() -> None:
    from rubi.core.commandcalls import Answer, decode_answer

    for answer in (Answer(False, "text", "one line"), Answer(True, {"a": 1}), Answer(False, "")):
        assert decode_answer(json.loads(json.dumps(answer.wire()))) == answer
    assert Answer(False, "text").wire() == {"text": "text"}
    for bad in (
        {"text": "x", "notice": 5},
        {"text": "x", "extra": "y"},
        {"text": "x", "notice": "n", "extra": "y"},
        {"notice": "n"},
    ):
        assert decode_answer(bad) is None, bad
