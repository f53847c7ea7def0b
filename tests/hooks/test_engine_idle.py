"""An idle engine sleeps: its accept loop and its on-demand loading wake for a reason
(a connection, a request that needs loading, the host's first answers, the stop),
never on a timer, and still do their work when that reason comes. Wake-ups are
counted through the functions a timer would call, not timed."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.core.latch import Latch
from rubi.engine import server
from rubi.engine.server import Engine
from rubi.engine.warmup import Warmup

from helpers import engine_answer


def test_an_idle_engine_s_accept_loop_sleeps_until_a_prompt_gives_it_idle_work(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No request: the accept loop never wakes (it woke every ``IDLE_S`` to look for
    a prompt to replay). After a recalled prompt it wakes in its idle spells again,
    and replays the recall there once the index changed (the rewarm)."""
    idles: list[float] = []
    woke = threading.Event()
    real = Engine._idle

    def counting(self: Engine) -> None:
        idles.append(time.monotonic())
        woke.set()
        real(self)

    monkeypatch.setattr(Engine, "_idle", counting)
    monkeypatch.setattr(server, "IDLE_S", 0.05)
    running = Engine(app.locate(project / ".rubi")).start()
    try:
        assert running.serving.wait(10) and running.ready.wait(30)
        time.sleep(0.5)  # ten idle spells of IDLE_S
        assert idles == []
        payload = {
            "session_id": "s-idle",
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "how are notes indexed and searched",
        }
        assert engine_answer("UserPromptSubmit", json.dumps(payload)) is not None
        assert woke.wait(10)  # the recalled prompt is held: idle spells have work
        assert running._rewarm.holds_prompt()
    finally:
        running.stop()


def test_an_engine_s_loading_sleeps_until_its_host_started_and_a_request_asks(
    project: Path,
) -> None:
    """The loading waits for the host's first answers (``after``) and then for a
    request, asleep on each: it looked at ``after`` and then at its demand every
    0.1 s. Each wait still ends on its event."""

    class Counted(Latch):
        def __init__(self) -> None:
            super().__init__()
            self.looks = 0

        def is_set(self) -> bool:
            self.looks += 1
            return super().is_set()

    class CountedEvent(threading.Event):
        def __init__(self) -> None:
            super().__init__()
            self.waits = 0

        def wait(self, timeout: float | None = None) -> bool:
            self.waits += 1
            return super().wait(timeout)

    primed: list[Any] = []
    after = Counted()
    loading = Warmup(
        app.locate(project / ".rubi"), prime=primed.append, after=after, on_demand=True
    )
    demand = CountedEvent()
    loading._demand = demand
    loading.start()
    try:
        time.sleep(0.5)  # five of the old 0.1 s looks
        assert after.looks <= 2
        after.set()
        time.sleep(0.5)
        assert demand.waits <= 1 and not loading.hooks.is_set()
        assert loading.ready("hook", "posttooluse") is False  # asks for the loading
        assert loading.hooks.wait(30) and loading.search.wait(30)
        assert len(primed) == 1
    finally:
        loading.stop(timeout_s=30)
