"""``rubi serve``'s background watch waits, after the first answers, for the files to
be able to change (issue 29): a tool that may write ran (its PostToolUse hook), the
server's first idle spell, or ``SOON_S``. A session that only reads and ends in 2-3 s
never starts the watcher."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.cli.servewatch import in_background
from rubi.core.latch import Latch
from rubi.mcp import startup


def _fake_watch(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    import rubi.watch as watch_module

    started = threading.Event()

    def fake_watch(vault: object, *, stop_event: threading.Event, **kw: object) -> int:
        started.set()
        stop_event.wait(10)
        return 0

    monkeypatch.setattr(watch_module, "watch", fake_watch)
    monkeypatch.setattr(app, "catch_up_if_changed", lambda vault, **kw: False)
    return started


def test_the_watch_waits_for_soon_after_its_first_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _fake_watch(monkeypatch)
    after, soon = Latch(), Latch()
    with in_background(app.locate(tmp_path), after, soon=soon, soon_s=60.0):
        after.set()
        assert not started.wait(0.5)  # the first answers alone: still waiting
        soon.set()
        assert started.wait(5)


def test_the_watch_starts_soon_s_after_its_start_without_soon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _fake_watch(monkeypatch)
    after, soon = Latch(), Latch()
    after.set()
    with in_background(app.locate(tmp_path), after, soon=soon, soon_s=0.5):
        assert started.wait(10)
    assert not soon.is_set()


def test_a_watch_stopped_while_it_waits_for_soon_never_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _fake_watch(monkeypatch)
    after = Latch()
    after.set()
    with in_background(app.locate(tmp_path), after, soon=Latch(), soon_s=60.0) as thread:
        assert not started.wait(0.3)
    assert thread is not None
    thread.join(5)
    assert not thread.is_alive() and not started.is_set()


def _hook(event: str, **fields: Any) -> dict[str, Any]:
    return {"event": event, "session_id": "s", "cwd": "/x", **fields}


@pytest.mark.parametrize(
    ("arguments", "wanted"),
    [
        (_hook("PostToolUse", tool_name="Edit"), True),
        (_hook("PostToolUse", tool_name="Bash"), True),
        (_hook("PostToolUse", tool_name="mcp__other__write_file"), True),
        (_hook("PostToolUse", tool_name=["Grep"]), True),  # not a name: may write
        (_hook("PostToolUse"), True),
        (_hook("PostToolUse", tool_name="Grep"), False),
        (_hook("PostToolUse", tool_name="WebFetch"), False),
        (_hook("PreToolUse", tool_name="Read"), False),
        (_hook("UserPromptSubmit", prompt="edit the parser"), False),
        (_hook("Stop"), False),
        (["PostToolUse"], False),
    ],
)
def test_a_posttooluse_of_a_tool_that_may_write_wants_the_watch(
    monkeypatch: pytest.MonkeyPatch, arguments: Any, wanted: bool
) -> None:
    monkeypatch.setattr(startup, "WATCH_WANTED", Latch())
    answered: list[Any] = []

    def answer(args: Any) -> str:
        answered.append(args)
        return "the hook's text"

    assert startup.watching_writes(answer)(arguments) == "the hook's text"
    assert answered == [arguments]
    assert startup.WATCH_WANTED.is_set() is wanted


def test_a_failing_answer_still_wants_the_watch_and_raises_as_it_did(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(startup, "WATCH_WANTED", Latch())

    def answer(args: Any) -> str:
        raise ValueError("not a hook")

    with pytest.raises(ValueError, match="not a hook"):
        startup.watching_writes(answer)(_hook("PostToolUse", tool_name="Write"))
    assert startup.WATCH_WANTED.is_set()


def test_a_search_s_first_scan_starts_the_watch_before_soon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refreshing search scans for changed files while no watcher listens: the
    searches after it are watched, as when the watcher started with the first answers
    (the warm searches of ``bench/mcp_bench.py`` lost nothing)."""
    import rubi.core.scancost as scancost

    started = _fake_watch(monkeypatch)
    monkeypatch.setattr(scancost, "_SCANS", scancost.ScanCost())
    after, soon = Latch(), Latch()
    with in_background(app.locate(tmp_path), after, soon=soon, soon_s=60.0):
        after.set()
        assert not started.wait(0.3)
        scancost.add(0.0001)  # a search's scan, far below the budget
        assert started.wait(5)
    assert not soon.is_set()
