"""The cost line of the last session: SessionEnd leaves a pointer to its transcript,
the next SessionStart shows one line to the user, and a pointer to anything but a
regular file (a FIFO would block the read) gives no line and no wait."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook

OTHER_SESSION = "99999999-8888-7777-6666-555555555555"


def _end_then_start(project: Path, transcript: Path) -> dict[str, object] | None:
    hook("SessionEnd", base(project, "SessionEnd", reason="exit", transcript_path=str(transcript)))
    start = base(project, "SessionStart", source="startup")
    start["session_id"] = OTHER_SESSION
    return hook("SessionStart", start)


def test_the_next_session_start_shows_the_last_sessions_line(project: Path) -> None:
    transcript = project / "t.jsonl"
    line = {"type": "user", "message": {"role": "user", "content": "hello"}, "uuid": "u1"}
    transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = _end_then_start(project, transcript)
    assert out is not None and "rubi" in str(out.get("systemMessage", ""))


@pytest.mark.timeout(20)  # the read would block: a hook must not hang the start
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX")
def test_a_transcript_replaced_by_a_fifo_gives_no_line_and_does_not_block(
    project: Path,
) -> None:
    """The hook input is checked when SessionEnd runs; by the next start the file the
    pointer names may be something else."""
    transcript = project / "t.jsonl"
    transcript.write_text('{"type": "user"}\n', encoding="utf-8")
    hook("SessionEnd", base(project, "SessionEnd", reason="exit", transcript_path=str(transcript)))
    transcript.unlink()
    os.mkfifo(transcript)
    start = base(project, "SessionStart", source="startup")
    start["session_id"] = OTHER_SESSION
    began = time.monotonic()
    out = hook("SessionStart", start)  # a hook fails open, so a hang shows as time
    assert time.monotonic() - began < 10, "the session start waited on the FIFO"
    assert out is None or "systemMessage" not in out
