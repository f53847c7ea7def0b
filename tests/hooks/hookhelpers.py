"""Helpers for the hook tests."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

from rubi.claude.hooks.entry import main

from helpers import SHARED_DATA, require_data

TRANSCRIPTS = SHARED_DATA / "transcripts"


def transcript(tmp_path: Path, name: str) -> Path:
    src = TRANSCRIPTS / name
    require_data(src)
    dst = tmp_path / name
    shutil.copy(src, dst)
    return dst


def hook(event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """Run a hook in process; returns its JSON (None when it printed nothing)."""
    out = io.StringIO()
    assert main([event], io.StringIO(json.dumps(payload)), out) == 0
    text = out.getvalue()
    return json.loads(text) if text else None


def base(project: Path, event: str, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": "11111111-2222-3333-4444-555555555555",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "hook_event_name": event,
        **extra,
    }
