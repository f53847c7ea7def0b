"""The redaction corpus through every hook that writes captured text: Stop (a prompt
and an answer), SessionEnd (an unanswered prompt) and PreCompact (requests and
commands in the transcript). Each secret alone and placed across the hook's cut
(20,000 characters for a turn, 300 for a request, 200 for a command): nothing of it
reaches ``.rubi/sessions/``; every ordinary snippet lands there byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hooks.hookhelpers import base, hook
from rubi import app
from rubi.claude.hooks.capture import MAX_TURN_CHARS
from rubi.transcripts.privacy import redact_cut
from rubi.transcripts.turns import COMMAND_CHARS, REQUEST_CHARS
from transcripts.redaction_corpus import ORDINARY, SECRETS, collapse, leaks, pieces, straddle

from helpers import write

BATCH = 40
"""Requests per PreCompact run: a record shows at most 40 per list."""


@pytest.fixture
def vault_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    app.index(app.locate(root / ".rubi"))
    return root


def _records(project: Path) -> dict[str, str]:
    """Session record text by session id (the file name's id part)."""
    folder = project / ".rubi" / "sessions"
    return {p.stem[11:]: p.read_text(encoding="utf-8") for p in folder.glob("*.md")}


def _turn_texts(placement: str) -> list[tuple[dict[str, Any], str]]:
    out = []
    for sample in SECRETS:
        text = sample["text"]
        if placement == "across the cut":
            text = straddle(text, pieces(sample)[0], MAX_TURN_CHARS, collapsed=False)
        out.append((sample, text))
    return out


def _leaked(found: dict[str, str], samples: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [f"{sid} {s['kind']}" for sid, s in samples if leaks(s, found.get(sid, ""))]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("placement", ["alone", "across the cut"])
def test_stop_captures_no_secret(vault_project: Path, placement: str) -> None:
    sent = []
    for i, (sample, text) in enumerate(_turn_texts(placement)):
        sid = f"stop-{i:03d}"
        hook(
            "UserPromptSubmit", base(vault_project, "UserPromptSubmit", prompt=text, session_id=sid)
        )
        stop = base(vault_project, "Stop", stop_hook_active=False, last_assistant_message=text)
        hook("Stop", dict(stop, session_id=sid))
        sent.append((sid, sample))
    found = _records(vault_project)
    assert len(found) == len(SECRETS)  # every turn was captured, both sides
    assert all("**User:** " in t and "**Claude:** " in t for t in found.values())
    assert _leaked(found, sent) == []


@pytest.mark.timeout(240)
@pytest.mark.parametrize("placement", ["alone", "across the cut"])
def test_session_end_captures_no_secret(vault_project: Path, placement: str) -> None:
    sent = []
    for i, (sample, text) in enumerate(_turn_texts(placement)):
        sid = f"end-{i:03d}"
        hook(
            "UserPromptSubmit", base(vault_project, "UserPromptSubmit", prompt=text, session_id=sid)
        )
        hook("SessionEnd", base(vault_project, "SessionEnd", reason="other", session_id=sid))
        sent.append((sid, sample))
    found = _records(vault_project)
    assert len(found) == len(SECRETS)
    assert _leaked(found, sent) == []


def _user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}}


def _bash(command: str) -> dict[str, Any]:
    block = {"type": "tool_use", "name": "Bash", "input": {"command": command}}
    return {"type": "assistant", "message": {"role": "assistant", "content": [block]}}


def _pre_compact_all(project: Path, lines: list[dict[str, Any]], sid: str) -> str:
    """Append ``lines`` to a transcript a batch at a time, running PreCompact after each
    batch; returns the session record."""
    transcript = project / f"{sid}.jsonl"
    transcript.touch()
    payload = base(project, "PreCompact", transcript_path=str(transcript), session_id=sid)
    for start in range(0, len(lines), 2 * BATCH):
        with transcript.open("a", encoding="utf-8") as fh:
            for line in lines[start : start + 2 * BATCH]:
                fh.write(json.dumps(line) + "\n")
        assert hook("PreCompact", payload) is None
    return _records(project)[sid]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("placement", ["alone", "across the cut"])
def test_pre_compact_records_no_secret(vault_project: Path, placement: str) -> None:
    lines = []
    for sample in SECRETS:
        request, command = sample["text"], sample["text"]
        if placement == "across the cut":
            piece = pieces(sample)[0]
            request = straddle(request, piece, REQUEST_CHARS, collapsed=True)
            command = straddle(command, piece, COMMAND_CHARS, collapsed=True)
        lines += [_user(request), _bash(command)]
    record = _pre_compact_all(vault_project, lines, "precompact")
    assert record.count("## Record") == -(-len(lines) // (2 * BATCH))
    for request, command in zip(lines[::2], lines[1::2], strict=True):  # each one recorded
        shown = redact_cut(request["message"]["content"], REQUEST_CHARS, collapse=True, more="…")
        assert f"\n- {shown}\n" in record
        run = command["message"]["content"][0]["input"]["command"]
        assert f"\n- `{redact_cut(run, COMMAND_CHARS, collapse=True, more='…')}`\n" in record
    leaked = [s["kind"] for s in SECRETS if leaks(s, record)]
    assert leaked == []


@pytest.mark.timeout(240)
def test_stop_and_session_end_keep_ordinary_text(vault_project: Path) -> None:
    for i, sample in enumerate(ORDINARY):
        text = sample["text"]
        hook(
            "UserPromptSubmit",
            base(vault_project, "UserPromptSubmit", prompt=text, session_id=f"o-{i:03d}"),
        )
        stop = base(vault_project, "Stop", stop_hook_active=False, last_assistant_message=text)
        hook("Stop", dict(stop, session_id=f"o-{i:03d}"))
        hook(
            "UserPromptSubmit",
            base(vault_project, "UserPromptSubmit", prompt=text, session_id=f"e-{i:03d}"),
        )
        hook(
            "SessionEnd", base(vault_project, "SessionEnd", reason="other", session_id=f"e-{i:03d}")
        )
    found = _records(vault_project)
    changed = []
    for i, sample in enumerate(ORDINARY):
        kept = sample["text"].strip()
        stop, end = found[f"o-{i:03d}"], found[f"e-{i:03d}"]
        if not (
            f"**User:** {kept}" in stop
            and f"**Claude:** {kept}" in stop
            and f"**User:** {kept}" in end
        ):
            changed.append(f"{i} {sample['kind']}")
    assert changed == []
    assert not any("[REDACTED:" in t for t in found.values())


@pytest.mark.timeout(240)
def test_pre_compact_keeps_ordinary_text(vault_project: Path) -> None:
    lines = []
    for sample in ORDINARY:
        lines += [_user(sample["text"]), _bash(sample["text"])]
    record = _pre_compact_all(vault_project, lines, "precompact-ordinary")
    assert "[REDACTED:" not in record

    def shown(text: str, limit: int) -> str:
        plain = collapse(text)
        return plain if len(plain) <= limit else plain[:limit].rstrip() + "…"

    changed = []
    for i, sample in enumerate(ORDINARY):
        request = shown(sample["text"], REQUEST_CHARS)
        command = shown(sample["text"], COMMAND_CHARS)
        as_request = request.startswith("<") or f"\n- {request}\n" in record
        if not (as_request and f"\n- `{command}`\n" in record):
            changed.append(f"{i} {sample['kind']}")
    assert changed == []
