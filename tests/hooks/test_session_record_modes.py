"""Captured sessions hold the conversation: the record is created readable by its owner
only (0600) and ``sessions/`` 0700 when rubi creates it, whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.app.sessionrecord import append, session_file


@pytest.fixture(params=[0o022, 0o000], ids=["umask-022", "umask-000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
@pytest.mark.timeout(60)
def test_a_captured_turn_is_readable_by_its_owner_only(project: Path, umask: int) -> None:
    hook("UserPromptSubmit", base(project, "UserPromptSubmit", prompt="where is the zebrafish"))
    hook(
        "Stop", base(project, "Stop", stop_hook_active=False, last_assistant_message="In the tank.")
    )

    folder = project / ".rubi" / "sessions"
    records = list(folder.glob("*.md"))
    assert len(records) == 1
    assert "In the tank." in records[0].read_text(encoding="utf-8")
    assert _mode(records[0]) == 0o600
    assert _mode(folder) == 0o700


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
def test_a_record_removed_meanwhile_is_created_private_again(project: Path, umask: int) -> None:
    vault = app.locate(project / ".rubi")
    path = session_file(vault, "11111111-2222-3333-4444-555555555555")
    path.unlink()

    append(path, "a turn")

    assert path.read_text(encoding="utf-8") == "\na turn\n"
    assert _mode(path) == 0o600


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
def test_an_existing_sessions_folder_keeps_its_mode(project: Path, umask: int) -> None:
    folder = project / ".rubi" / "sessions"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    vault = app.locate(project / ".rubi")

    path = session_file(vault, "11111111-2222-3333-4444-555555555555")

    assert _mode(folder) == 0o755
    assert _mode(path) == 0o600
