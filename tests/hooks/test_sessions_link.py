"""A cloned ``.rubi/sessions`` that is a symlink out of the project never receives the
conversation: capture and pre-compaction records refuse it and the session goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.app.sessionrecord import session_file
from rubi.core.safepaths import UnsafePathError


@pytest.mark.timeout(60)
def test_sessions_folder_linked_out_receives_nothing(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / ".rubi" / "sessions").symlink_to(outside, target_is_directory=True)
    vault = app.locate(project / ".rubi")
    with pytest.raises(UnsafePathError, match="sessions/"):
        session_file(vault, "11111111-2222-3333-4444-555555555555")
    hook("UserPromptSubmit", base(project, "UserPromptSubmit", prompt="where is the zebrafish"))
    stop = base(project, "Stop", stop_hook_active=False, last_assistant_message="In the tank.")
    hook("Stop", stop)  # fails open: no output, nothing written
    hook("PreCompact", base(project, "PreCompact", trigger="manual", custom_instructions=""))
    assert list(outside.iterdir()) == []


@pytest.mark.timeout(60)
def test_a_record_linked_out_is_not_appended_to(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "diary.md"
    secret.write_text("mine\n", encoding="utf-8")
    folder = project / ".rubi" / "sessions"
    folder.mkdir()
    (folder / "2026-01-01-11111111-2222-3333-4444-555555555555.md").symlink_to(secret)
    hook("UserPromptSubmit", base(project, "UserPromptSubmit", prompt="where is the zebrafish"))
    hook("Stop", base(project, "Stop", stop_hook_active=False, last_assistant_message="Here."))
    assert secret.read_text(encoding="utf-8") == "mine\n"
