"""The engine replays the last recall after an index change, and only then; it writes
nothing (no session state, no hook log) and its failures stay silent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.engine.rewarm import Rewarm


def prompt_payload(project: Path, prompt: str) -> dict[str, object]:
    return {
        "session_id": "s1",
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }


def test_rewarm_replays_the_last_recall_after_a_change(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    recall_module = sys.modules["rubi.app.recall"]  # rubi.app.recall is also the function
    real = recall_module.recall

    def spy(paths: VaultPaths, prompt: str, *, max_tokens: int) -> str | None:
        calls.append(prompt)
        text: str | None = real(paths, prompt, max_tokens=max_tokens)
        return text

    monkeypatch.setattr(recall_module, "recall", spy)
    rewarm = Rewarm()
    assert rewarm.idle() is False  # nothing seen yet
    rewarm.seen("UserPromptSubmit", prompt_payload(project, "  when do login tokens expire?  "))
    assert rewarm.idle() is False  # the first idle only notes where the index is
    assert rewarm.idle() is False  # nothing changed
    vault = app.locate(project / ".rubi")
    app.register(vault, [{"type": "gotcha", "title": "Tokens rotate", "body": "Login tokens."}])
    app.index(vault)
    assert rewarm.idle() is True
    assert calls == ["when do login tokens expire?"]
    assert rewarm.idle() is False  # once per change
    hooks_dir = vault.index_dir / "hooks"
    assert not hooks_dir.exists() or not list(hooks_dir.glob("*.json"))  # no session state
    assert not (vault.index_dir / "hooks.log").exists()


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("PreToolUse", {"tool_name": "Read"}),
        ("UserPromptSubmit", {"prompt": "thanks"}),
        ("UserPromptSubmit", {"prompt": "/compact"}),
        ("UserPromptSubmit", {"prompt": 3}),
        ("UserPromptSubmit", "not a mapping"),
    ],
)
def test_rewarm_ignores_what_recalls_nothing(event: str, payload: object) -> None:
    rewarm = Rewarm()
    rewarm.seen(event, payload)
    assert rewarm.idle() is False


def test_rewarm_outside_a_project_does_nothing(tmp_path: Path) -> None:
    rewarm = Rewarm()
    rewarm.seen("", {**prompt_payload(tmp_path, "login tokens expire at midnight")})
    assert rewarm.idle() is False
    assert rewarm.idle() is False


def test_the_engine_remembers_only_answered_prompts(project: Path) -> None:
    import threading

    from rubi.engine.client import hook_request
    from rubi.engine.server import answer

    vault = str((project / ".rubi").resolve())
    raw = json.dumps(prompt_payload(project, "when do login tokens expire?"))
    line = hook_request(vault, "UserPromptSubmit", raw)
    rewarm = Rewarm()
    refused = answer(
        json.dumps({**line, "build": "other"}).encode(), vault, threading.Lock(), rewarm
    )
    assert refused["ok"] is False
    assert rewarm.idle() is False
    answered = answer(json.dumps(line).encode(), vault, threading.Lock(), rewarm)
    assert answered["ok"] is True and "Login tokens expire" in answered["output"]
    assert rewarm.idle() is False  # noted where the index is
    app.register(
        app.locate(project / ".rubi"), [{"type": "gotcha", "title": "Tokens", "body": "x"}]
    )
    app.index(app.locate(project / ".rubi"))
    assert rewarm.idle() is True
